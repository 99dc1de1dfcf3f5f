"""`trainstack resolve` end to end through the real CLI entry point (typer's runner)."""

import json
import shutil

import pytest
import yaml

from profiles.catalog.offering import COLUMNS
from tests.cases import cases
from tests.cli.helpers import WORKLOAD, documented_keys, run


def test_resolve_json_shape_and_choice(project):
    result = run("resolve", str(WORKLOAD), "--json", "--top", "3")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= {"choice", "alternatives"}
    choice = data["choice"]
    identity = COLUMNS[: COLUMNS.index("accelerator_count") + 1]  # provider, region, zone, type, GPU, count
    assert set(choice) >= {*identity, "nodes", "purchase", "usd_per_hour", "usd_total"}
    assert choice["provider"] == "aws" and choice["nodes"] == 2 and choice["accelerator_count"] == 8
    assert choice["instance_type"] in ("p4d.24xlarge", "p4de.24xlarge")
    assert choice["hours"] == pytest.approx(72, abs=0.1)  # 72 h plus the expected spot overhead
    assert choice["usd_total"] == pytest.approx(
        choice["usd_compute_per_hour"] * choice["hours"] + choice["usd_storage"], abs=0.01
    )
    assert choice["usd_storage"] > 0
    # USD/hour is everything the job pays per hour of its run, as `plan --json` states it
    assert choice["usd_per_hour"] == pytest.approx(choice["usd_total"] / choice["hours"], abs=1e-4)
    assert choice["usd_per_hour"] > choice["usd_compute_per_hour"]
    assert len(data["alternatives"]) == 2
    # the lines printed beside the result are in it too: here the undated AWS snapshot's warning
    assert data["warnings"] == result.stderr.splitlines() and "aws prices are of unknown date" in data["warnings"][0]
    assert set(data) | set(choice) | set(choice["file_system"]) <= documented_keys()  # docs/cli.md names each
    assert all(a["usd_total"] >= choice["usd_total"] for a in data["alternatives"])


def test_resolve_table_names_the_choice(project):
    result = run("resolve", str(WORKLOAD))
    assert result.exit_code == 0
    assert "cheapest job of" in result.stdout and "p4d.24xlarge" in result.stdout


def test_write_stack_then_refuse_hand_edit(project):
    result = run("resolve", str(WORKLOAD), "--write-stack", "training-a100")
    assert result.exit_code == 0
    path = project / "stacks" / "Pulumi.training-a100.yaml"
    cluster = yaml.safe_load(path.read_text())["config"]["trainstack:cluster"]
    assert cluster["nodes"] == 2 and cluster["file_system"]["capacity_gib"] == 4800
    path.write_text(path.read_text().replace("nodes: 2", "nodes: 5"))
    refused = run("resolve", str(WORKLOAD), "--write-stack", "training-a100")
    assert refused.exit_code == 2
    assert "edited by hand" in refused.stderr and "Traceback" not in refused.output
    assert "nodes: 5" in path.read_text()


def test_a_forced_rewrite_keeps_the_users_cluster_settings_and_says_so(project):
    assert run("resolve", str(WORKLOAD), "--write-stack", "training-a100").exit_code == 0
    path = project / "stacks" / "Pulumi.training-a100.yaml"
    path.write_text(
        path.read_text()
        .replace("ssh_cidrs: []", "ssh_cidrs: [10.1.0.0/16]")
        .replace("tags: {}", "tags: {team: ml}\n    job: {command: /fsx/train.py, nproc_per_node: 8}")
    )
    forced = run("resolve", str(WORKLOAD), "--write-stack", "training-a100", "--force")
    assert forced.exit_code == 0, forced.output
    assert "kept its own ssh_cidrs, tags, job; YAML comments are not kept" in forced.stdout
    cluster = yaml.safe_load(path.read_text())["config"]["trainstack:cluster"]
    assert cluster["ssh_cidrs"] == ["10.1.0.0/16"] and cluster["tags"] == {"team": "ml"}
    assert cluster["job"]["command"] == "/fsx/train.py" and cluster["nodes"] == 2


@pytest.mark.parametrize(("content", "message"), cases("resolve_bad_input.yaml", "content", "message"))
def test_bad_input_is_one_line_exit_2(project, content, message):
    spec = project / "bad.yaml"
    spec.write_text(content)
    result = run("resolve", str(spec), "--write-stack", "bad")
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ")
    assert not (project / "stacks").exists()  # nothing half-written


def test_plot_writes_a_png(project):
    result = run("resolve", str(WORKLOAD), "--plot", "chart.png")
    assert result.exit_code == 0, result.output
    data = (project / "chart.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
    assert "training-a100: 73 candidates" in result.stdout  # every matching row of the v8 catalog is plotted
    assert "plot written: chart.png (73 candidates)" in result.stdout


def test_plot_in_svg_is_written_in_svg(project):
    result = run("resolve", str(WORKLOAD), "--plot", "chart.svg")
    assert result.exit_code == 0, result.output
    assert (project / "chart.svg").read_text().lstrip().startswith("<?xml")


def test_plot_to_unwritable_path_is_one_line(project):
    result = run("resolve", str(WORKLOAD), "--plot", "no/such/dir/chart.png")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --plot no/such/dir/chart.png: cannot write")


def test_cny_only_workload_without_a_rate_says_how_to_record_one(project, monkeypatch):
    import json

    import profiles.catalog.loader as loader

    data = project / "data"  # the catalog without its recorded USD/CNY rate
    shutil.copytree(loader.DATA_DIR, data, ignore=shutil.ignore_patterns("snapshots"))
    meta = json.loads((data / "catalog.json").read_text())
    del meta["exchange_rates"]
    (data / "catalog.json").write_text(json.dumps(meta))
    monkeypatch.setattr(loader, "DATA_DIR", data)
    spec = project / "ali.yaml"
    spec.write_text("accelerators: A100-80GB:8\nhours: 10h\nproviders: [alicloud]\njurisdiction: cn-mainland\n")
    result = run("resolve", str(spec))
    assert result.exit_code == 2
    assert result.stderr == (
        "error: catalog: 68 offerings are listed in CNY and left out of USD comparisons: no USD/CNY rate is "
        "recorded; record one with `trainstack catalog refresh-rate CNY` or `trainstack catalog set-rate CNY RATE --as-of YYYY-MM-DD --source TEXT`\n"
    )


def test_set_rate_records_it_and_refuses_bad_input(project, monkeypatch):
    import profiles.catalog.loader as loader

    data = project / "data"
    shutil.copytree(loader.DATA_DIR, data, ignore=shutil.ignore_patterns("snapshots"))
    monkeypatch.setattr(loader, "DATA_DIR", data)
    import datetime as dt

    as_of = (dt.date.today() - dt.timedelta(days=2)).isoformat()
    ok = run("catalog", "set-rate", "CNY", "7.1", "--as-of", as_of, "--source", "CFETS central parity")
    assert ok.exit_code == 0, ok.output
    assert ok.stdout == (
        f"recorded 1 USD = 7.1 CNY as of {as_of} (CFETS central parity)\n"
        "replaced 1 USD = 6.8012 CNY as of 2026-05-08 (ECB euro reference rates, cross rate "
        "7.9989/1.1761 (china-prices.md CP-R1))\n"
    )
    bad = run("catalog", "set-rate", "CNY", "0", "--as-of", as_of, "--source", "x")
    assert bad.exit_code == 2 and bad.stderr.startswith("error: rate: 0.0 must be a positive number")


@pytest.mark.parametrize(
    ("interval", "warned"),
    [
        pytest.param("100h", True, id="longer"),
        pytest.param("3d", True, id="as-long"),
        pytest.param("1h", False, id="1h"),
    ],
)
def test_a_checkpoint_interval_not_shorter_than_the_job_is_warned(project, interval, warned):
    text = WORKLOAD.read_text().replace("checkpoint_interval: 1h", f"checkpoint_interval: {interval}")
    path = project / "w.yaml"
    path.write_text(text)
    result = run("resolve", str(path), "--json")
    assert result.exit_code == 0, result.output
    choice = json.loads(result.stdout)["choice"]
    hours = choice["hours"] - choice["spot_added_hours"]  # the 72 h of work, without interruptions
    lines = [line for line in result.stderr.splitlines() if "checkpoint_interval" in line]
    if not warned:
        assert lines == []
        return
    assert lines == [
        f"warning: spot.checkpoint_interval ({interval.removesuffix('h').replace('3d', '72')} h) is not shorter than "
        f"the job ({hours:,.1f} h on the chosen row): no checkpoint is written before it ends, so an interruption "
        "restarts it from the beginning; checkpoint more often (e.g. checkpoint_interval: 1h)"
    ]
