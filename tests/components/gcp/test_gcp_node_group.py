"""The GCP node group under mocks: a zonal MIG that recreates lost VMs and never rolls on its own."""

from __future__ import annotations

from typing import Any

import pytest

from clouds.gcp.group import group_scheduling, update_policy
from clouds.gcp.machine import scheduling
from tests.components.gcp.gcp_harness import TPU_EXAMPLE, build, make_config

GROUP = "gcp:compute/instanceGroupManager:InstanceGroupManager"
TEMPLATE = "gcp:compute/instanceTemplate:InstanceTemplate"
HEALTH = "gcp:compute/healthCheck:HealthCheck"


@pytest.mark.parametrize("nodes", [pytest.param(2, id="two"), pytest.param(5, id="five")])
def test_group_keeps_the_size_in_the_clusters_zone_from_the_template(nodes: int) -> None:
    plan = build(make_config(nodes=nodes, zone="us-central1-c"))
    [group] = plan.of_type(GROUP)
    inputs = group["inputs"]
    assert group["name"] == "train-nodes" and group["parent"] == "train"
    assert inputs["zone"] == "us-central1-c"  # zonal: compact placement is per zone
    assert inputs["targetSize"] == nodes
    assert inputs["baseInstanceName"] == "train-node"
    [template] = plan.of_type(TEMPLATE)
    # the template's unique self link, so a new template is a new version of the group
    assert [v["instanceTemplate"] for v in inputs["versions"]] == [
        "https://www.googleapis.com/compute/v1/projects/mock-project/train-template?uniqueId=1"
    ]
    assert template["inputs"]["resourcePolicies"].endswith("/train-placement")


def test_a_template_change_is_applied_only_when_a_vm_is_recreated() -> None:
    plan = build(make_config(nodes=3))
    inputs = plan.named("train-nodes")["inputs"]
    assert inputs["updatePolicy"] == {
        "type": "OPPORTUNISTIC",  # nothing proactive: running VMs keep their template
        "minimalAction": "REPLACE",
        "mostDisruptiveAllowedAction": "REPLACE",
        "replacementMethod": "RECREATE",
        "maxSurgeFixed": 0,
        "maxUnavailableFixed": 3,  # an explicit rollout replaces all at once, like AWS
    }
    assert inputs["instanceLifecyclePolicy"] == {"defaultActionOnFailure": "REPAIR", "forceUpdateOnRepair": "YES"}
    assert inputs["waitForInstances"] is False


def test_auto_healing_on_sshd_after_the_boot_delay_probes_admitted() -> None:
    plan = build(make_config())
    [health] = plan.of_type(HEALTH)
    assert health["inputs"]["tcpHealthCheck"] == {"port": 22}
    assert (health["inputs"]["checkIntervalSec"], health["inputs"]["unhealthyThreshold"]) == (30, 4)
    healing = plan.named("train-nodes")["inputs"]["autoHealingPolicies"]
    assert healing == {"healthCheck": "train-health-id", "initialDelaySec": 900}
    probe = plan.named("train-fw-health")["inputs"]
    assert probe["sourceRanges"] == ["35.191.0.0/16", "130.211.0.0/22"]
    assert probe["allows"] == [{"protocol": "tcp", "ports": ["22"]}]


@pytest.mark.parametrize(
    ("purchase", "action"),
    [pytest.param("spot", "DELETE", id="spot-deleted-then-recreated"), pytest.param("on-demand", None, id="on-demand")],
)
def test_group_scheduling(purchase: str, action: str | None) -> None:
    result = group_scheduling(scheduling(purchase))
    assert result.get("instance_termination_action") == action
    assert result["on_host_maintenance"] == "TERMINATE"
    assert result["provisioning_model"] == ("SPOT" if purchase == "spot" else "STANDARD")


def test_rollout_size_follows_the_node_count() -> None:
    assert update_policy(1)["max_unavailable_fixed"] == 1
    assert update_policy(64)["max_unavailable_fixed"] == 64
    assert {update_policy(n)["type"] for n in (1, 8)} == {"OPPORTUNISTIC"}


def test_tpu_slices_get_no_group_template_or_probe_rule() -> None:
    plan = build(make_config(TPU_EXAMPLE))
    assert plan.of_type(GROUP) == plan.of_type(TEMPLATE) == plan.of_type(HEALTH) == []
    assert not [r for r in plan.records if r["name"] == "train-fw-health"]


def _group_and_template(plan: Any) -> tuple[dict, dict]:
    return plan.named("train-nodes")["inputs"], plan.named("train-template")["inputs"]


@pytest.mark.parametrize(
    "changes",
    [
        pytest.param({"tags": {"team": "vision"}}, id="labels"),
        pytest.param({"purchase": "on-demand"}, id="purchase"),
        pytest.param({"instance_type": "a3-megagpu-8g", "accelerator": "H100-MEGA"}, id="machine-type"),
    ],
)
def test_template_changes_leave_the_group_policies_alone(changes: dict[str, Any]) -> None:
    """A changed template is a new template; the group's own inputs (size, zone, policies)
    are the same, so nothing but its version changes and no VM is recreated by it."""
    group_before, template_before = _group_and_template(build(make_config()))
    group_after, template_after = _group_and_template(build(make_config(**changes)))
    assert template_before != template_after
    for key in ("zone", "targetSize", "updatePolicy", "instanceLifecyclePolicy", "autoHealingPolicies"):
        assert group_before[key] == group_after[key], key


REGIONAL = "gcp:compute/regionInstanceGroupManager:RegionInstanceGroupManager"


def test_fallback_types_make_a_one_zone_regional_group_that_ranks_them() -> None:
    """A100 40 GB then 80 GB: a2-highgpu-8g and a2-ultragpu-8g share the template (GPUs built
    in, no GPUDirect NICs), so the group lists both, the stack's type at rank 0."""
    config = make_config(
        instance_type="a2-highgpu-8g",
        accelerator="A100",
        zone="us-central1-c",
        interconnect="none",
        fallback_types=["a2-ultragpu-8g"],
    )
    plan = build(config)
    assert plan.of_type(GROUP) == []
    [group] = plan.of_type(REGIONAL)
    inputs = group["inputs"]
    assert inputs["region"] == "us-central1" and inputs["distributionPolicyZones"] == ["us-central1-c"]
    assert inputs["distributionPolicyTargetShape"] == "ANY_SINGLE_ZONE"
    assert inputs["instanceFlexibilityPolicy"]["instanceSelections"] == [
        {"name": "rank-0", "rank": 0, "machineTypes": ["a2-highgpu-8g"]},
        {"name": "rank-1", "rank": 1, "machineTypes": ["a2-ultragpu-8g"]},
    ]
    assert inputs["updatePolicy"]["instanceRedistributionType"] == "NONE"
    assert inputs["waitForInstances"] is False and inputs["targetSize"] == config.nodes
    # a regional group takes no labels (pulumi-gcp RegionInstanceGroupManager: only its VMs'
    # all_instances_config.labels), so cost-tags must not fail it: `resolve --write-stack` of
    # profiles/workloads/resnet50-imagenet.yaml writes such a stack
    from policies import evaluate

    (cost_tags,) = [r for r in evaluate(plan.records) if r.rule == "cost-tags"]
    assert cost_tags.violations == ()


@pytest.mark.parametrize(
    ("first", "other", "why"),
    [
        pytest.param("a3-highgpu-8g", "a3-megagpu-8g", "GPUDirect network layouts differ", id="tcpx-vs-tcpxo"),
        pytest.param("a3-ultragpu-8g", "a3-megagpu-8g", "layouts differ", id="rdma-vs-tcpxo"),
        pytest.param("a2-highgpu-8g", "n1-standard-96", "attaches its GPUs from the template", id="n1"),
    ],
)
def test_types_a_flexibility_policy_cannot_carry_are_refused(first: str, other: str, why: str) -> None:
    from clouds.gcp.capacity import group_type_problem

    problem = group_type_problem(first, other, "rdma")
    assert problem is not None and why in problem
    assert group_type_problem("a4-highgpu-8g", "a3-ultragpu-8g", "rdma") is None  # same RDMA layout and disk
