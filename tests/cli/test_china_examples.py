"""The Chinese clouds' example workloads and committed stacks: Alibaba and Tencent priced from
the catalog's estimate rows at its recorded USD/CNY rate, the others unpriced until a refresh,
all planned offline."""

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest
import yaml

from clouds.contract import ClusterConfig
from clouds.words import usd_rate
from policies import evaluate
from profiles.catalog.loader import DATA_DIR, load_catalog
from profiles.catalog.rates import set_rate
from profiles.resolver import resolve
from profiles.spec import load_spec
from profiles.stack.price import price_stack
from tests.cli.helpers import ROOT, run
from trainstack.plan.runner import run_plan

TODAY = dt.date(2026, 11, 29)
EXAMPLES = {
    "training-a100-alicloud": "alicloud",
    "training-a100-tencentcloud": "tencentcloud",
    "training-a100-huaweicloud": "huaweicloud",
    "training-a10-volcengine": "volcengine",
    "training-a100-baiducloud": "baiducloud",
}
UNPRICED = {name: p for name, p in EXAMPLES.items() if p not in ("alicloud", "tencentcloud")}
# USD/hour of the two priced stacks, by hand: 2 nodes x CNY list price / 6.8012 CNY per USD
# (china-prices.md CP-R1), each node's USD rounded to 1e-6 as the loader does.
RATE = 6.8012
PRICED = {
    "training-a100-alicloud": 2 * round(270.8333 / RATE, 6),  # ecs.ebmgn7ex.32xlarge, CP-A32: 2 x 39.821399
    "training-a100-tencentcloud": 2 * round(237.51 / RATE, 6),  # GT4.41XLARGE948, CP-T4: 2 x 34.921779
}


def cluster(name: str) -> ClusterConfig:
    text = (ROOT / "stacks" / f"Pulumi.{name}.yaml").read_text()
    return ClusterConfig(**yaml.safe_load(text)["config"]["trainstack:cluster"])


@pytest.mark.parametrize(("name", "provider"), EXAMPLES.items())
def test_workload_and_stack_describe_the_same_cluster(name, provider):
    spec, config = load_spec(ROOT / "profiles" / "workloads" / f"{name}.yaml"), cluster(name)
    assert spec.providers == (provider,) and config.provider == provider
    assert spec.jurisdiction == "cn-mainland" and spec.nodes == config.nodes == 2
    assert config.accelerator in spec.accelerators and config.accelerator_count == spec.gpus_per_node
    assert spec.interconnect == config.interconnect and config.purchase == "on-demand"
    assert (spec.file_system is None) == (config.file_system is None)
    if name in PRICED:  # written by `trainstack resolve --write-stack` with the catalog's price
        assert config.usd_per_hour == pytest.approx(PRICED[name], abs=1e-6)
        assert config.catalog_version == load_catalog().version
    else:  # written by hand: the catalog has no USD price for it yet
        assert config.usd_per_hour is None


@pytest.mark.parametrize("name", PRICED)
def test_priced_stack_plans_with_the_hand_computed_price_and_says_how_old_it_is(name):
    result = run("plan", "-s", name, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["usd_compute_per_hour"] == pytest.approx(PRICED[name], abs=1e-6)
    # the file system has no recorded price: counted at the estimate resolve ranked it with, labelled
    assert data["usd_total"] == pytest.approx(PRICED[name] * 72 + data["usd_storage"], abs=0.01)
    assert data["usd_per_hour"] == pytest.approx(data["usd_total"] / 72, abs=1e-4)
    provider = EXAMPLES[name]
    caveats = data["price_caveats"]
    assert caveats[0].startswith("estimate: ")
    assert any(c.startswith(f"the file system's price on {provider} is an estimate (") for c in caveats)
    assert [c for c in caveats if c.startswith(f"{provider} prices are ")][0].endswith(
        f"refresh with `trainstack catalog refresh --provider {provider}`"
    )
    assert caveats[-1].startswith("CNY prices are converted at 1 USD = 6.8012 CNY as of 2026-05-08 (")
    assert all(p["passed"] is not False for p in data["policies"]), data["policies"]  # null: n/a
    # what the program warns of (`pulumi preview` shows it) is in the JSON too, not only on stderr
    deployment_set = [n for n in data["notes"] if "take no deployment set" in n]
    assert len(deployment_set) == (provider == "alicloud") and result.stderr == ""


@pytest.mark.parametrize(("name", "provider"), UNPRICED.items())
def test_unpriced_stack_plans_offline_and_says_how_to_price_it(name, provider):
    result = run("plan", "-s", name, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["usd_per_hour"] is None and data["usd_total"] is None
    fix = f"catalog refresh --provider {provider}"
    assert data["price_note"].startswith("price unknown (") and fix in data["price_note"]
    assert data["price_note"].endswith("the stack records no price")
    assert all(p["passed"] is not False for p in data["policies"]), data["policies"]  # null: n/a
    assert sum(r["protect"] for r in data["resources"]) == (provider != "baiducloud")


@pytest.mark.parametrize(("name", "provider"), UNPRICED.items())
def test_unpriced_workload_says_which_command_brings_prices(name, provider):
    result = run("resolve", str(ROOT / "profiles" / "workloads" / f"{name}.yaml"))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert f"trainstack catalog refresh --provider {provider}" in result.stderr


@pytest.mark.parametrize("name", PRICED)
def test_priced_workload_resolves_to_its_committed_stack_and_warns_once_per_cloud_and_rate(name):
    result = run("resolve", str(ROOT / "profiles" / "workloads" / f"{name}.yaml"), "--json")
    assert result.exit_code == 0, result.output
    choice = json.loads(result.stdout)["choice"]
    config = cluster(name)
    assert (choice["instance_type"], choice["region"]) == (config.instance_type, config.region)
    assert choice["usd_compute_per_hour"] == pytest.approx(PRICED[name], abs=1e-6)
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning: ")]
    assert [w.split(" prices are ")[0] for w in warnings] == [f"warning: {EXAMPLES[name]}", "warning: CNY"]


def test_a_budget_on_an_unpriced_stack_fails_closed():
    plan = run_plan("training-a100-huaweicloud", ROOT)
    (budget,) = [r for r in evaluate(plan.resources, plan.usd_per_hour, 50.0) if r.rule == "budget"]
    assert not budget.passed
    assert budget.violations[0].message.startswith(
        "the cluster's price is unknown, so trainstack:max_usd_per_hour $50.00/hour"
    )
    assert all(r.passed for r in evaluate(plan.resources, plan.usd_per_hour, None))


@pytest.fixture()
def rated(tmp_path):
    """A copy of the catalog with a USD/CNY rate of 7.0 (a test value) recorded on TODAY."""
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data, ignore=shutil.ignore_patterns("snapshots"))
    set_rate(data, "CNY", 7.0, TODAY.isoformat(), "test rate", today=TODAY)
    return load_catalog(data, today=TODAY)


def test_with_a_rate_the_alibaba_workload_resolves_to_the_committed_stack_type(rated):
    spec = load_spec(ROOT / "profiles" / "workloads" / "training-a100-alicloud.yaml")
    choice = resolve(spec, rated.offerings).choice.candidate
    config = cluster("training-a100-alicloud")
    assert (choice.offering.instance_type, choice.offering.region) == (config.instance_type, config.region)
    assert choice.usd_per_hour == pytest.approx(2 * 270.8333 / 7.0, abs=1e-5)


def test_with_a_rate_plan_prices_the_alibaba_stack_from_its_region_wide_row(rated):
    config = cluster("training-a100-alicloud")
    price = price_stack(config, rated.offerings, rated.version)
    assert config.zone != config.region  # the row is priced per region, the stack names a zone
    assert price.usd_per_hour == pytest.approx(2 * 270.8333 / 7.0, abs=1e-5)
    assert price.usd_storage is not None  # the estimate resolve ranked the CPFS with
    assert price.usd_total == pytest.approx(price.usd_per_hour * 72 + price.usd_storage)
    # The stack records the committed rate's price (2 x 270.8333 / 6.8012 = $79.64); at 7.0 it is $77.38.
    assert price.note == (
        f"the stack records $79.64/hour, but 2 x ecs.ebmgn7ex.32xlarge on-demand costs $77.38/hour "
        f"in catalog {rated.version} (edited by hand, or the catalog changed since it was resolved: "
        "re-run `trainstack resolve --write-stack`); USD/job is for the stack's recorded 72.0 h, not re-estimated "
        "for the nodes it has now"
    )
    estimate, storage = price.caveats
    assert estimate == (  # what the figure is, then its source id (not inline)
        "estimate: third-party CNY list price seen 2024-12-30; re-check with DescribePrice "
        "(`trainstack catalog refresh --provider alicloud`) [source CP-A32]"
    )
    assert storage == (
        "the file system's price on alicloud is an estimate (no alicloud price; at the dearest recorded 125 MB/s/TiB "
        "price, $0.145/GB-month), counted as resolve ranked it"
    )


@pytest.mark.parametrize(("name", "provider"), EXAMPLES.items())
def test_check_says_what_to_confirm_by_hand(name, provider, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = run("check", "-s", name)
    assert result.exit_code == 0, result.output
    config = cluster(name)
    lines = result.stdout.splitlines()
    if name in PRICED:
        assert lines[1] == (
            f"  ok catalog: stack prices its nodes' compute at {usd_rate(PRICED[name])}/hour (USD; `trainstack plan` "
            f"adds the file system) with catalog {config.catalog_version} (the current catalog)"
        )
        lines.insert(2, "")  # a priced stack has no `fix:` line under its catalog finding
    else:
        assert lines[1] == f"  info catalog: stack records no price (written against catalog {config.catalog_version})"
    assert (
        lines[3].startswith("  ? offered: not checked live (no ")
        and f"{config.nodes} x {config.instance_type}" in lines[3]
    )
    assert f"that {config.zone} sells {config.instance_type}" in lines[4]


def _project(tmp_path: Path, with_example: bool) -> Path:
    (tmp_path / "stacks").mkdir()
    shutil.copy(ROOT / "__main__.py", tmp_path)
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path)
    if with_example:
        shutil.copy(ROOT / "stacks" / "Pulumi.training-a100-alicloud.yaml", tmp_path / "stacks")
    return tmp_path


@pytest.mark.parametrize("with_example", [True, False])
def test_rewriting_the_alibaba_example_keeps_its_zone_id(rated, tmp_path, with_example):
    from profiles.stack.file import StackFileError
    from profiles.stack.writer import cluster_config, keep_zone, render_stack, stack_path, write_stack

    project = _project(tmp_path, with_example)
    spec = load_spec(ROOT / "profiles" / "workloads" / "training-a100-alicloud.yaml")
    candidate = resolve(spec, rated.offerings).choice.candidate
    path = stack_path(project, "training-a100-alicloud")
    config = keep_zone(cluster_config(spec, candidate, rated.version), path)
    assert config.zone == ("cn-beijing-h" if with_example else "cn-beijing")  # the snapshot prices per region
    text = render_stack(config, "w.yaml", rated.built, candidate.usd_storage)
    if not with_example:  # a stack `plan` would refuse is never written
        with pytest.raises(StackFileError, match="not written, `plan` would refuse it: zone: the price catalog lists"):
            write_stack(path, text, force=True)
        assert not path.exists()
        return
    write_stack(path, text, force=True)
    plan = run_plan("training-a100-alicloud", project)
    kinds = {r["type"]: r["inputs"] for r in plan.resources}
    # The node group's one vSwitch sits in the zone the example keeps.
    assert kinds["alicloud:vpc/switch:Switch"]["zoneId"] == "cn-beijing-h"
    assert kinds["alicloud:ess/scalingGroup:ScalingGroup"]["desiredCapacity"] == 2


def test_review_of_an_unpriced_stack_keeps_its_hours_and_shows_no_delta(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = run("plan", "-s", "training-a100-huaweicloud", "--against", "HEAD", "--json")
    assert result.exit_code == 0, result.output
    cost = json.loads(result.stdout)["cost"]
    assert cost["after"]["hours"] == cost["before"]["hours"] == 72.0
    assert cost["after"]["usd_per_hour"] is None and cost["delta_usd_per_hour"] is None
    # the SFS Turbo list price converts at the catalog's recorded rate: no estimate to name
    assert not any("no USD/CNY rate" in c for c in cost["after"]["price_caveats"])


def test_plan_json_and_review_say_which_rules_checked_nothing(monkeypatch):
    monkeypatch.chdir(ROOT)
    plan = json.loads(run("plan", "-s", "training-a100-tencentcloud", "--json").stdout)
    by_rule = {p["rule"]: p for p in plan["policies"]}
    assert (
        by_rule["imdsv2-required"]["status"] == "n/a" and by_rule["no-admin-port-from-internet"]["status"] == "passed"
    )
    assert {
        "resource": "training-a100-tencentcloud-cfs",
        "message": "CFS file system not encrypted: "
        "tencentcloud-iac-pulumi 0.2.3 `cfs.FileSystem` has no encryption input",
    } in by_rule["disks-encrypted"]["not_applicable"]
    review = json.loads(run("plan", "-s", "training-a100-tencentcloud", "--against", "HEAD", "--json").stdout)
    results = {r["rule"]: r for r in review["policies"]["results"]}
    assert results["efa-security-group-self-rule"]["status"] == "n/a"
    assert {i["resource"] for i in results["disks-encrypted"]["not_applicable"]} >= {"training-a100-tencentcloud-cfs"}


def _edited_project(tmp_path: Path, name: str, cluster_changes: dict, config_changes: dict) -> Path:
    project = tmp_path / "p"
    (project / "stacks").mkdir(parents=True)
    shutil.copy(ROOT / "Pulumi.yaml", project)
    document = yaml.safe_load((ROOT / "stacks" / f"Pulumi.{name}.yaml").read_text())
    document["config"]["trainstack:cluster"].update(cluster_changes)
    document["config"].update(config_changes)
    (project / "stacks" / f"Pulumi.{name}.yaml").write_text(yaml.safe_dump(document))
    return project


def test_check_does_not_vouch_for_a_typed_price_and_refuses_a_bad_budget(tmp_path, monkeypatch):
    project = _edited_project(tmp_path, "training-a100-huaweicloud", {"usd_per_hour": 1.0}, {})
    monkeypatch.chdir(project)
    result = run("check", "-s", "training-a100-huaweicloud")
    assert result.exit_code == 0, result.output
    assert (
        f"  ? catalog: stack records a compute price of $1.00/hour for its nodes, which catalog {load_catalog().version} cannot confirm"
        in result.stdout
    )
    bad = _edited_project(tmp_path / "b", "training-a100-huaweicloud", {}, {"trainstack:max_usd_per_hour": "abc"})
    monkeypatch.chdir(bad)
    refused = run("check", "-s", "training-a100-huaweicloud")
    assert refused.exit_code == 2 and refused.stderr.count("\n") == 1
    assert "trainstack:max_usd_per_hour: 'abc' is not a positive number of USD/hour" in refused.stderr


def test_a_cloud_without_priced_rows_prices_its_file_system_at_the_catalogs_rate(rated, monkeypatch):
    """Huawei has no priced compute rows; its SFS Turbo list price (1.31 CNY/GB-month at 250
    MB/s/TiB, clouds/huaweicloud/storage_prices.py) converts at the catalog's recorded rate."""
    import profiles.catalog.loader as loader
    from profiles.stack.price import price_from_catalog

    monkeypatch.setattr(loader, "load_catalog", lambda providers=None: rated)
    config = cluster("training-a100-huaweicloud")
    price = price_from_catalog(config)
    assert price.cost is not None and config.file_system is not None
    gb = 4915 * 1.073741824  # the 4,800 GiB asked, created as 4,915 GiB (the next size SFS Turbo takes)
    assert price.cost.storage_usd_per_hour == pytest.approx(gb * 1.31 / 7.0 / 730, rel=1e-3)
    assert not any("no USD/CNY rate" in c or "estimate" in c for c in price.caveats)
