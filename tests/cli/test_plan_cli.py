"""`trainstack plan` end to end: the committed training-a100 stack, JSON shape, bad stacks."""

import json
import shutil

import pytest

from tests.cli.helpers import ROOT, documented_keys, one_error_line, run


@pytest.fixture()
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_plan_of_committed_stack_prints_tree_and_cost(at_root):
    result = run("plan", "-s", "training-a100")
    assert result.exit_code == 0, result.output
    assert "trainstack:aws:GpuCluster training-a100" in result.stdout
    assert "aws:fsx/lustreFileSystem:LustreFileSystem training-a100-fsx (protected)" in result.stdout
    assert "cluster: $" in result.stdout and "/hour" in result.stdout


def test_plan_json_matches_the_stack_price(at_root):
    import yaml

    cluster = yaml.safe_load((ROOT / "stacks" / "Pulumi.training-a100.yaml").read_text())["config"][
        "trainstack:cluster"
    ]
    data = json.loads(run("plan", "-s", "training-a100", "--json").stdout)
    assert set(data) == {
        "stack",
        "provider",
        "region",
        "zone",
        "instance_type",
        "accelerator",
        "accelerator_count",
        "nodes",
        "purchase",
        "flex_start",
        "usd_per_job",
        "hours",
        "resources",
        "usd_per_hour",
        "usd_total",
        "usd_storage",
        "usd_compute_per_hour",
        "usd_requests",
        "recorded_usd_per_hour",
        "price_note",
        "price_caveats",
        "deadline_hours",
        "deadline_note",
        "healing",
        "runtime",
        "notes",
        "policies",
        "warnings",
    }
    # the lines the tree prints under the cost, for scripts too: what replaces a lost node, the
    # job's torch, and (none here: FSx takes 4,800 GiB as asked) a file system created larger
    assert data["healing"].startswith("nodes are an Auto Scaling group: a lost node is replaced and rejoins the job")
    assert data["runtime"].startswith("job runtime: torch ") and data["notes"] == []
    assert data["flex_start"] is False  # an AWS stack: nodes from its group, not a flex-start request
    assert data["warnings"] == []  # sizes in proportion: no sanity warning
    assert (data["deadline_hours"], data["deadline_note"]) == (None, "")  # the workload sets no deadline
    # the summary a script reads first: the stack's placement and size, the plan's cost
    summary = {k: data[k] for k in ("zone", "instance_type", "accelerator", "accelerator_count", "nodes", "purchase")}
    assert summary == {k: cluster[k] for k in summary}
    assert data["usd_per_job"] == data["usd_total"] == pytest.approx(data["usd_per_hour"] * data["hours"], abs=0.01)
    assert len(data["policies"]) == 10
    # a rule that checked nothing is neither passed nor failed: null, with its reason
    budget = next(p for p in data["policies"] if p["rule"] == "budget")
    assert (budget["passed"], budget["status"], budget["reason"]) == (
        None,
        "n/a",
        "no budget set (trainstack:max_usd_per_hour)",
    )
    assert all(p["passed"] is True and p["reason"] is None for p in data["policies"] if p is not budget)
    # docs/cli.md names every key a script can read
    assert set(data) | set(budget) | set(data["resources"][0]) <= documented_keys()
    assert data["usd_compute_per_hour"] == data["recorded_usd_per_hour"] == cluster["usd_per_hour"]
    # + FSx 4,800 GiB at 250 MB/s/TiB: 4,800 x 1.0737 GB x $0.145 x 3.71/2.48 / 730 h = $1.5315/hour
    assert data["usd_per_hour"] == pytest.approx(cluster["usd_per_hour"] + 1.53147, abs=1e-5)
    assert data["usd_requests"] is None  # the stack has no data
    assert data["price_note"] == ""  # the committed stack's price is current
    # A SkyPilot list price and FSx storage priced; the snapshot is undated, which plan says once;
    # the NAT gateway and its address bill by the hour with no recorded price: named as unpriced
    assert data["price_caveats"] == [
        "aws prices are of unknown date (1995 of 1995 rows; source snapshot undated, extracted on 2026-12-01), "
        "older than 90 days or of unknown age; refresh with `trainstack catalog refresh --provider aws`",
        "NAT gateway training-a100-nat (aws:ec2/natGateway:NatGateway; also billed per GB processed); public IPv4 address "
        "training-a100-nat-ip (aws:ec2/eip:Eip; Elastic IP) bill by the hour and are not in USD/hour "
        "or USD/job: unpriced, no sourced and dated price is recorded; add their eu-north-1 price from the "
        "cloud's pricing page",
    ]
    assert data["usd_total"] == round(cluster["usd_per_hour"] * cluster["hours"] + data["usd_storage"], 2)
    group = next(r for r in data["resources"] if r["type"] == "aws:autoscaling/group:Group")
    assert group["inputs"]["desiredCapacity"] == cluster["nodes"]
    assert all(set(r) == {"type", "name", "parent", "protect", "inputs"} for r in data["resources"])
    (lt,) = [r for r in data["resources"] if r["type"] == "aws:ec2/launchTemplate:LaunchTemplate"]
    assert lt["inputs"]["instanceType"] == cluster["instance_type"]


@pytest.mark.parametrize(
    ("stack_text", "message"),
    [
        pytest.param(None, "Pulumi.broken.yaml", id="missing"),
        pytest.param("config:\n  trainstack:cluster:\n    provider: aws\n", "trainstack:cluster", id="incomplete"),
        pytest.param("config: [", "Pulumi.broken.yaml", id="not-yaml"),
        pytest.param(
            "a: &a [x,x,x,x,x,x,x,x,x]\n"
            + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)),
            "expands to more than 200000 values through aliases",
            id="alias-bomb",
        ),
        pytest.param("config: " + "[" * 5000 + "]" * 5000, "nested more than 64 levels", id="deep"),
    ],
)
def test_bad_stack_is_one_line_exit_2(tmp_path, monkeypatch, stack_text, message):
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path)
    shutil.copy(ROOT / "__main__.py", tmp_path)
    if stack_text is not None:
        (tmp_path / "stacks").mkdir()
        (tmp_path / "stacks" / "Pulumi.broken.yaml").write_text(stack_text)
    monkeypatch.chdir(tmp_path)
    result = run("plan", "-s", "broken")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_plan_tree_ends_with_the_policy_results(tmp_path, monkeypatch):
    import yaml

    shutil.copy(ROOT / "Pulumi.yaml", tmp_path)
    shutil.copy(ROOT / "__main__.py", tmp_path)
    config = yaml.safe_load((ROOT / "stacks" / "Pulumi.training-a100.yaml").read_text())
    (tmp_path / "stacks").mkdir()
    (tmp_path / "stacks" / "Pulumi.good.yaml").write_text(yaml.safe_dump(config))
    del config["config"]["trainstack:cluster"]["file_system"]  # spot with nowhere to checkpoint
    config["config"]["trainstack:max_usd_per_hour"] = 1
    (tmp_path / "stacks" / "Pulumi.bad.yaml").write_text(yaml.safe_dump(config))
    monkeypatch.chdir(tmp_path)
    assert (
        run("plan", "-s", "good")
        .stdout.rstrip()
        .endswith("policies: 9 passed, 1 n/a\n  - budget: n/a: no budget set (trainstack:max_usd_per_hour)")
    )
    bad = run("plan", "-s", "bad")
    assert bad.exit_code == 0
    assert "policies: 2 of 10 failed" in bad.stdout
    assert "x spot-needs-checkpoint-storage:" in bad.stdout and "x budget:" in bad.stdout


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        pytest.param({"trainstack:max_usd_per_hr": 5}, "trainstack:max_usd_per_hr: unknown key", id="budget-typo"),
        pytest.param({"trainstack:max_usd_per_hour": ".nan"}, "is not a positive number of USD/hour", id="nan-budget"),
        pytest.param({"trainstack:max_usd_per_hour": "abc"}, "is not a positive number of USD/hour", id="text-budget"),
        pytest.param({"trainstack:previous_names": "old"}, "is not a list of stack names", id="previous-text"),
        pytest.param({"trainstack:previous_names": ["Old Name"]}, "is not a list of stack names", id="previous-bad"),
    ],
)
def test_bad_stack_keys_fail_before_anything_is_printed(tmp_path, monkeypatch, extra, message):
    import yaml

    shutil.copy(ROOT / "Pulumi.yaml", tmp_path)
    shutil.copy(ROOT / "__main__.py", tmp_path)
    config = yaml.safe_load((ROOT / "stacks" / "Pulumi.training-a100.yaml").read_text())
    config["config"].update(extra)
    (tmp_path / "stacks").mkdir()
    text = yaml.safe_dump(config).replace("'.nan'", ".nan")
    (tmp_path / "stacks" / "Pulumi.x.yaml").write_text(text)
    monkeypatch.chdir(tmp_path)
    result = run("plan", "-s", "x")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: ") and message in result.stderr


def test_a_stack_name_too_long_for_a_file_name_is_one_line(at_root):
    result = run("plan", "-s", "a" * 300)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "a stack name is 1-40 lowercase letters" in result.stderr


def test_empty_against_is_an_error(at_root):
    result = run("plan", "-s", "training-a100", "--against", "")
    assert result.exit_code == 2 and result.stderr.startswith("error: --against: give a git revision")


def test_plan_counts_an_estimated_file_system_price_as_resolve_does_and_labels_it(at_root):
    # AMLFS 8,192 GiB has no recorded Azure price: resolve ranks it at the dearest recorded
    # 250 MB/s/TiB price, $0.217/GB-month (8,192 x 1.0737 GB x 0.21691 / 730 = $2.6137/h), and
    # plan counts the same figure, labelled: 72 h x $2.6137 = $188.19.
    data = json.loads(run("plan", "-s", "training-h100-azure", "--json").stdout)
    assert data["usd_storage"] == pytest.approx(72 * 8192 * 2**30 / 1e9 * 0.145 * 3.71 / 2.48 / 730, abs=0.01)
    assert data["usd_total"] == pytest.approx(data["usd_compute_per_hour"] * 72 + data["usd_storage"], abs=0.01)
    assert data["price_caveats"] == [
        "the file system's price on azure is an estimate (no azure price; at the dearest recorded 250 MB/s/TiB "
        "price, $0.217/GB-month), counted as resolve ranked it",
        "azure prices are of unknown date (183 of 183 rows; source snapshot undated, extracted on 2026-11-29), "
        "older than 90 days or of unknown age; refresh with `trainstack catalog refresh --provider azure`",
        "NAT gateway training-h100-azure-nat (azure-native:network:NatGateway; also billed per GB processed); public IP address "
        "training-h100-azure-nat-ip (azure-native:network:PublicIPAddress) bill by the hour "
        "and are not in USD/hour or USD/job: unpriced, no sourced and dated price is recorded; add their eastus "
        "price from the cloud's pricing page",
    ]
    tree = run("plan", "-s", "training-h100-azure").stdout
    assert "file system $2.6137 (estimate)" in tree


def test_plan_and_check_warn_of_a_fat_fingered_stack(tmp_path, monkeypatch):
    """10 PB of FSx beside $12.33/hour of GPUs; 5,000 nodes: priced, and warned about."""
    (tmp_path / "stacks").mkdir()
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path)
    shutil.copy(ROOT / "__main__.py", tmp_path)
    text = (ROOT / "stacks" / "Pulumi.training-a100.yaml").read_text()
    (tmp_path / "stacks" / "Pulumi.fat.yaml").write_text(text.replace("capacity_gib: 4800", "capacity_gib: 9536743"))
    (tmp_path / "stacks" / "Pulumi.big.yaml").write_text(text.replace("nodes: 2", "nodes: 5000"))
    monkeypatch.chdir(tmp_path)
    data = json.loads(run("plan", "-s", "fat", "--json").stdout)
    assert len(data["warnings"]) == 1 and data["warnings"][0].startswith("warning: file_system: 9,536,743 GiB costs $")
    assert "more than the 2 x 8 GPUs it feeds ($12.33/hour)" in data["warnings"][0]
    checked = run("check", "-s", "big")  # the live checks need credentials; the warnings do not
    assert "warning: nodes: 5,000 is far beyond the 64 nodes trainstack ever picks" in checked.stderr
    review = run("plan", "-s", "big", "--markdown").stdout  # the pull-request comment says it too
    assert review.count("⚠️ Size: nodes: 5,000 is far beyond the 64 nodes trainstack ever picks") == 1


def test_a_stack_that_sets_refuse_oversized_is_refused_by_the_budget_rule(tmp_path, monkeypatch):
    """`trainstack:refuse_oversized: true`: plan's budget rule (as the policy pack's) fails on the
    size warning, `check` says `error:` and exits 1; a value that is not a boolean is one line, exit 2."""
    (tmp_path / "stacks").mkdir()
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path)
    shutil.copy(ROOT / "__main__.py", tmp_path)
    text = (ROOT / "stacks" / "Pulumi.training-a100.yaml").read_text()
    asked = text.replace("config:\n", 'config:\n  trainstack:refuse_oversized: "true"\n', 1)
    (tmp_path / "stacks" / "Pulumi.big.yaml").write_text(asked.replace("nodes: 2", "nodes: 5000"))
    (tmp_path / "stacks" / "Pulumi.typo.yaml").write_text(
        text.replace("config:\n", "config:\n  trainstack:refuse_oversized: sure\n", 1)
    )
    monkeypatch.chdir(tmp_path)
    data = json.loads(run("plan", "-s", "big", "--json").stdout)
    (budget,) = [p for p in data["policies"] if p["rule"] == "budget"]
    assert budget["passed"] is False and len(budget["violations"]) == 1
    assert budget["violations"][0]["message"].startswith("nodes: 5,000 is far beyond the 64 nodes")
    assert budget["violations"][0]["message"].endswith("(refused: trainstack:refuse_oversized is true)")
    tree = run("plan", "-s", "big").stdout  # said once: as the budget policy's failure, not again as a warning
    assert tree.count("is far beyond the 64 nodes") == 1 and "x budget: nodes: 5,000 is far beyond" in tree
    review = run("plan", "-s", "big", "--markdown").stdout  # the review, the same: the budget row only
    assert "far beyond the 64 nodes" in review and "⚠️ Size:" not in review
    checked = run("check", "-s", "big")
    assert checked.exit_code == 1 and "error: nodes: 5,000 is far beyond the 64 nodes" in checked.stderr
    assert "warning: nodes" not in checked.stderr
    for command in (["plan", "-s", "typo"], ["check", "-s", "typo"]):
        one_error_line(run(*command), "trainstack:refuse_oversized: 'sure' is not true or false")


def test_a_file_system_created_larger_than_asked_is_a_plan_note():
    # GCP Filestore zonal grows in 256 GiB steps: 4,800 GiB asked is 4,864 GiB created (plan
    # prints it under the tree, and `plan --json` gives it in `notes`)
    from tests.clusters import example_config
    from trainstack.cli.render import rounding_line

    gcp = example_config("gcp")
    assert gcp.file_system is not None and gcp.file_system.capacity_gib == 4800
    assert rounding_line(gcp) == (
        "file_system: 4,800 GiB asked; gcp creates 4,864 GiB, the next size its file system accepts "
        "(priced and provisioned at that size)"
    )
    assert rounding_line(example_config("aws")) == ""  # FSx takes 4,800 GiB (a multiple of 2,400)
