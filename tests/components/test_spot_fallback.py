"""Spot that falls back to on-demand plans the on-demand side on GCP (an empty on-demand MIG, its
template, the head's watcher and its narrow role) and Alibaba (the scaling group's own
compensation), and several types ride in Alibaba's scaling configuration."""

from __future__ import annotations

from tests.components.alicloud.alicloud_harness import build as build_alicloud
from tests.components.alicloud.alicloud_harness import make_config as alicloud_config
from tests.components.gcp.gcp_harness import build as build_gcp
from tests.components.gcp.gcp_harness import make_config as gcp_config

JOB = {"command": "/mnt/shared/train.py"}
GCP_GROUP = "gcp:compute/instanceGroupManager:InstanceGroupManager"
TEMPLATE = "gcp:compute/instanceTemplate:InstanceTemplate"
ALI_GROUP = "alicloud:ess/scalingGroup:ScalingGroup"
ALI_CONFIGURATION = "alicloud:ess/scalingConfiguration:ScalingConfiguration"


def test_gcp_plans_an_empty_on_demand_group_and_the_heads_watcher() -> None:
    plan = build_gcp(gcp_config(job=JOB, on_demand_after_minutes=45))
    groups = {g["name"]: g["inputs"] for g in plan.of_type(GCP_GROUP)}
    assert set(groups) == {"train-nodes", "train-nodes-on-demand"}
    spot, on_demand = groups["train-nodes"], groups["train-nodes-on-demand"]
    assert (spot["targetSize"], on_demand["targetSize"]) == (2, 0)
    assert on_demand["name"] == "train-nodes-on-demand" and on_demand["zone"] == "us-central1-a"
    templates = {t["name"]: t["inputs"] for t in plan.of_type(TEMPLATE)}
    assert templates["train-template"]["scheduling"]["provisioningModel"] == "SPOT"
    assert templates["train-template-on-demand"]["scheduling"]["provisioningModel"] == "STANDARD"
    assert on_demand["versions"][0]["instanceTemplate"] != spot["versions"][0]["instanceTemplate"]
    head = plan.named("train-head")["inputs"]["metadata"]["startup-script"]
    assert "trainstack-fill.service" in head and '"after_seconds": 2700' in head
    assert '"location": "zones/us-central1-a"' in head and '"cloud": "gcp"' in head
    assert '"spot_group": "train-nodes"' in head  # read by name: the watcher holds no list
    where = "projects/mock-project/zones/us-central1-a/instanceGroupManagers"
    grants = {m["name"]: m["inputs"] for m in plan.of_type("gcp:projects/iAMMember:IAMMember") if "fill" in m["name"]}
    resize, read = grants["train-fill"]["condition"]["expression"], grants["train-fill-read"]["condition"]["expression"]
    assert resize == (
        'resource.type == "compute.googleapis.com/InstanceGroupManager" && '
        f'(resource.name == "{where}/train-nodes-on-demand")'
    )
    assert f'resource.name == "{where}/train-nodes"' in read and f"{where}/train-nodes-on-demand" in read
    assert plan.named("train-fill-role")["inputs"]["permissions"] == ["compute.instanceGroupManagers.update"]
    assert plan.named("train-fill-read-role")["inputs"]["permissions"] == ["compute.instanceGroupManagers.get"]


def test_gcp_spot_without_the_fallback_has_one_group() -> None:
    plan = build_gcp(gcp_config(job=JOB))
    assert [g["name"] for g in plan.of_type(GCP_GROUP)] == ["train-nodes"]
    assert "trainstack-fill" not in plan.named("train-head")["inputs"]["metadata"]["startup-script"]


def test_alicloud_spot_compensates_with_on_demand_in_its_own_group() -> None:
    plan = build_alicloud(alicloud_config(purchase="spot", on_demand_after_minutes=30))
    (group,) = plan.of_type(ALI_GROUP)
    inputs = group["inputs"]
    assert inputs["multiAzPolicy"] == "COST_OPTIMIZED" and inputs["compensateWithOnDemand"] is True
    assert (inputs["onDemandBaseCapacity"], inputs["onDemandPercentageAboveBaseCapacity"]) == (0, 0)
    plain = build_alicloud(alicloud_config(purchase="spot")).of_type(ALI_GROUP)[0]["inputs"]
    assert "compensateWithOnDemand" not in plain and "multiAzPolicy" not in plain


def test_alicloud_lists_the_types_in_rank_order_in_one_configuration() -> None:
    plan = build_alicloud(alicloud_config(interconnect="none", fallback_types=["ecs.gn7e-c16g1.32xlarge"]))
    (configuration,) = plan.of_type(ALI_CONFIGURATION)
    inputs = configuration["inputs"]
    assert inputs["instanceTypes"] == ["ecs.ebmgn7ex.32xlarge", "ecs.gn7e-c16g1.32xlarge"]
    assert "instanceType" not in inputs
