"""`resolve --write-stack` writes the node group's ranked fallback types and the stack's
fallback rows, and `plan` builds the group that lists them (AWS mixed instances, GCP instance
flexibility), from the committed catalog."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from profiles.stack.file import FALLBACKS_KEY
from tests.cli.helpers import ROOT, run
from trainstack.plan.runner import run_plan

H100_H200_AWS = """name: h100-h200
accelerators: [H100:8, H200:8]
nodes: 2
interconnect: rdma
purchase: on-demand
hours: 10h
providers: [aws]
"""
A100_GCP = """name: a100-gcp
accelerators: [A100:8, A100-80GB:8]
nodes: 1
interconnect: none
purchase: on-demand
hours: 10h
providers: [gcp]
"""


@pytest.fixture()
def project(tmp_path: Path, monkeypatch) -> Path:
    for name in ("__main__.py", "Pulumi.yaml"):
        shutil.copy(ROOT / name, tmp_path)
    (tmp_path / "stacks").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _write(project: Path, text: str) -> dict:
    workload = project / "w.yaml"
    workload.write_text(text)
    result = run("resolve", str(workload), "--write-stack", "cap", "--json")
    assert result.exit_code == 0, result.output
    return yaml.safe_load((project / "stacks" / "Pulumi.cap.yaml").read_text())["config"]


def test_aws_h100_stack_lists_the_h200_type_of_its_zone_in_rank_order(project: Path) -> None:
    config = _write(project, H100_H200_AWS)
    cluster = config["trainstack:cluster"]
    # p5 (H100) costs the same in use1-az1..az6; the stack takes use1-az2, the first of those zones
    # that also sells p5en (H200, 16 EFA) at the same count, so its group has a type to fall back to
    assert (cluster["instance_type"], cluster["zone"]) == ("p5.48xlarge", "use1-az2")
    assert cluster["fallback_types"] == ["p5en.48xlarge"]
    plan = run_plan("cap", project)
    [group] = [r for r in plan.resources if r["type"] == "aws:autoscaling/group:Group"]
    overrides = group["inputs"]["mixedInstancesPolicy"]["launchTemplate"]["overrides"]
    assert [o["instanceType"] for o in overrides] == ["p5.48xlarge", "p5en.48xlarge"]
    assert "launchTemplateSpecification" in overrides[1]  # its own template: 16 EFA, not 32
    assert group["inputs"]["waitForCapacityTimeout"] == "0"


def test_gcp_a100_stack_ranks_the_80gb_type_in_a_one_zone_regional_group(project: Path) -> None:
    config = _write(project, A100_GCP)
    cluster = config["trainstack:cluster"]
    assert cluster["instance_type"] == "a2-highgpu-8g" and cluster["fallback_types"] == ["a2-ultragpu-8g"]
    plan = run_plan("cap", project)
    [group] = [r for r in plan.resources if r["type"].endswith("regionInstanceGroupManager:RegionInstanceGroupManager")]
    selections = group["inputs"]["instanceFlexibilityPolicy"]["instanceSelections"]
    assert [(s["rank"], s["machineTypes"]) for s in selections] == [(0, ["a2-highgpu-8g"]), (1, ["a2-ultragpu-8g"])]
    assert group["inputs"]["distributionPolicyZones"] == [cluster["zone"]]


def test_fallback_rows_are_the_next_rows_of_the_region_priced_like_the_pick(project: Path) -> None:
    config = _write(project, H100_H200_AWS)
    cluster, rows = config["trainstack:cluster"], config[FALLBACKS_KEY]
    assert rows and all(row["region"] == cluster["region"] for row in rows)
    # rank order: each row's job costs at least the one before, and the pick's the least
    costs = [row["usd_job"] for row in rows]
    assert costs == sorted(costs) and costs[0] >= cluster["usd_per_hour"] * cluster["hours"] - 0.01
    assert all(row["usd_job"] == pytest.approx(row["usd_per_hour"] * row["hours"], abs=0.01) for row in rows)


def test_a_stack_with_a_file_system_falls_back_only_within_its_zone(project: Path) -> None:
    config = _write(project, H100_H200_AWS + "file_system:\n  capacity: 1200GiB\n")
    cluster, rows = config["trainstack:cluster"], config.get(FALLBACKS_KEY, [])
    assert all(row["zone"] == cluster["zone"] for row in rows)


SPOT_WITH_FALLBACK = """name: spot-fallback
accelerators: [A100:8, A100-80GB:8]
nodes: 2
interconnect: rdma
purchase: spot
hours: 72h
providers: [aws]
spot:
  checkpoint_interval: 1h
  fallback: on-demand after 30m
file_system:
  capacity: 1200GiB
job:
  command: /fsx/train.py
"""


def test_spot_fallback_in_the_workload_writes_the_minutes_and_plans_the_on_demand_group(project: Path) -> None:
    config = _write(project, SPOT_WITH_FALLBACK)
    assert config["trainstack:cluster"]["on_demand_after_minutes"] == 30
    plan = run_plan("cap", project)
    groups = [r for r in plan.resources if r["type"] == "aws:autoscaling/group:Group"]
    assert sorted(g["name"] for g in groups) == ["cap-nodes", "cap-nodes-on-demand"]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        pytest.param(
            SPOT_WITH_FALLBACK.replace("\njob:\n  command: /fsx/train.py\n", "\n"),
            "spot.fallback: the watcher that fills spot from on-demand runs on the job's head node; add a job or remove spot.fallback",
            id="no-job",
        ),
        pytest.param(
            SPOT_WITH_FALLBACK.replace("on-demand after 30m", "spot forever"),
            "fallback",
            id="bad-syntax",
        ),
    ],
)
def test_spot_fallback_refused_in_one_line(project: Path, text: str, says: str) -> None:
    from tests.cli.helpers import one_error_line

    workload = project / "w.yaml"
    workload.write_text(text)
    one_error_line(run("resolve", str(workload), "--write-stack", "cap"), says)
    assert not (project / "stacks" / "Pulumi.cap.yaml").exists()


H100_AWS_NO_FABRIC = """name: h100-tcp
accelerators: [H100:8]
nodes: 1
interconnect: none
purchase: on-demand
hours: 10h
providers: [aws]
"""


def test_a_cluster_with_no_placement_group_lists_the_zones_selling_its_type_at_its_price(project: Path) -> None:
    """No fabric and no file system: the group may spread over the region's zones that sell the
    pick at its price (p5 on-demand is priced alike in us-east-1's zones)."""
    config = _write(project, H100_AWS_NO_FABRIC)
    cluster = config["trainstack:cluster"]
    zones = cluster["fallback_zones"]
    assert zones and cluster["zone"] not in zones and len(set(zones)) == len(zones) <= 5
    assert all(zone.startswith("use1-az") for zone in zones)
    text = (project / "stacks" / "Pulumi.cap.yaml").read_text()
    assert f"# Fallback: the node group also launches in {', '.join(zones)}." in text


def test_a_cluster_with_a_fabric_keeps_one_zone(project: Path) -> None:
    assert "fallback_zones" not in _write(project, H100_H200_AWS)["trainstack:cluster"]


TPU_DEADLINE = """name: tpu-deadline
accelerators: [tpu-v5p, tpu-v6e, H100:8]
nodes: auto
interconnect: rdma
purchase: any
work: {params: 70B, tokens: 1T, mfu: 0.4}
deadline: 30d
spot: {checkpoint_interval: 2h}
providers: [gcp]
file_system: {capacity: 20TiB}
"""


def test_the_stacks_fallback_rows_meet_the_deadline_its_pick_meets(project: Path) -> None:
    """Finding 1 (session 13): tpu-v6e-8 x64 at 1,860 h was the first fallback of a 720 h job."""
    config = _write(project, TPU_DEADLINE)
    cluster, rows = config["trainstack:cluster"], config[FALLBACKS_KEY]
    assert cluster["hours"] <= cluster["deadline_hours"] == 720
    assert rows and all(row["hours"] <= 720 for row in rows), [(r["instance_type"], r["hours"]) for r in rows]
    header = (project / "stacks" / "Pulumi.cap.yaml").read_text().splitlines()
    [said] = [line for line in header if line.startswith("# Fallback:")]
    assert f"the job takes {rows[-1]['hours']:,.1f} h and its compute costs $" in said
