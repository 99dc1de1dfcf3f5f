"""The AWS group when there is no capacity: a capacity reservation used first, then the
fallback types on-demand; a cluster with no placement group spread over several zones; and
what the contract refuses (a Capacity Block beside fallback types, zones for an RDMA cluster
or one with a file system)."""

from __future__ import annotations

import pytest

from clouds.contract import ClusterConfig
from components.aws.cluster import AwsGpuCluster
from components.aws.nodes import group_capacity
from tests.clusters import example_config
from tests.components.harness import build_plan

GROUP = "aws:autoscaling/group:Group"
NAMES = ("node_ids",)
RESERVED = {"purchase": "on-demand", "reservation": {"id": "cr-0a1b2c3d4e5f60718"}}


def test_a_capacity_reservation_is_taken_first_then_the_fallback_types_on_demand() -> None:
    config = example_config("aws", **RESERVED, fallback_types=["p4de.24xlarge"])
    settings = group_capacity(config, "lt-1")
    assert settings["capacity_reservation_specification"] == {
        "capacity_reservation_preference": "capacity-reservations-first",
        "capacity_reservation_target": {"capacity_reservation_ids": ["cr-0a1b2c3d4e5f60718"]},
    }
    policy = settings["mixed_instances_policy"]
    assert [o["instance_type"] for o in policy["launch_template"]["overrides"]] == ["p4d.24xlarge", "p4de.24xlarge"]
    assert policy["instances_distribution"]["on_demand_allocation_strategy"] == "prioritized"


def test_a_reservation_resource_group_is_targeted_by_its_arn() -> None:
    arn = "arn:aws:resource-groups:us-east-1:123456789012:group/trainstack-held"
    config = example_config("aws", purchase="on-demand", reservation={"id": arn}, fallback_types=["p4de.24xlarge"])
    target = group_capacity(config, "lt-1")["capacity_reservation_specification"]["capacity_reservation_target"]
    assert target == {"capacity_reservation_resource_group_arns": [arn]}


def test_with_fallback_types_the_template_does_not_pin_the_reservation() -> None:
    plan = build_plan(AwsGpuCluster, example_config("aws", **RESERVED, fallback_types=["p4de.24xlarge"]), NAMES)
    template = plan.named("c-lt")["inputs"]
    assert "capacityReservationSpecification" not in template  # the group targets it, for the first type only
    (group,) = plan.of_type(GROUP)
    assert group["inputs"]["capacityReservationSpecification"]["capacityReservationTarget"] == {
        "capacityReservationIds": ["cr-0a1b2c3d4e5f60718"]
    }


def test_a_group_without_a_placement_group_spans_its_fallback_zones() -> None:
    config = example_config(
        "aws", interconnect="none", file_system=None, nodes=3, fallback_zones=["use1-az6", "use1-az2"]
    )
    plan = build_plan(AwsGpuCluster, config, NAMES)
    assert not plan.of_type("aws:ec2/placementGroup:PlacementGroup")
    subnets = {s["name"]: s["inputs"] for s in plan.of_type("aws:ec2/subnet:Subnet")}
    assert subnets["c-subnet-use1-az6"]["availabilityZoneId"] == "use1-az6"
    assert subnets["c-subnet-use1-az2"]["cidrBlock"] == "10.0.160.0/20"
    (group,) = plan.of_type(GROUP)
    inputs = group["inputs"]
    assert len(inputs["vpcZoneIdentifiers"]) == 3 and "placementGroup" not in inputs
    assert inputs["capacityRebalance"] is True  # one type in three zones: three spot pools
    nics = plan.named("c-lt")["inputs"]["networkInterfaces"]
    assert all("subnetId" not in nic for nic in nics)  # the group picks each node's subnet
    routed = {r["inputs"]["subnetId"] for r in plan.of_type("aws:ec2/routeTableAssociation:RouteTableAssociation")}
    assert len(routed) >= 3  # every node subnet reaches the NAT gateway


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        pytest.param({"fallback_zones": ["use1-az6"]}, "RDMA cluster stays in one placement group", id="rdma"),
        pytest.param(
            {"interconnect": "none", "fallback_zones": ["use1-az6"]}, "file system is in one zone", id="file-system"
        ),
        pytest.param(
            {"interconnect": "none", "file_system": None, "fallback_zones": ["use1-az4"]}, "without zone", id="own"
        ),
        pytest.param(
            {
                "purchase": "on-demand",
                "reservation": {"kind": "capacity-block", "id": "cr-0a1b"},
                "fallback_types": ["p4de.24xlarge"],
            },
            "capacity block take its one instance type",
            id="capacity-block",
        ),
    ],
)
def test_the_contract_refuses_what_the_group_cannot_do(changes: dict, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        ClusterConfig.model_validate({**example_config("aws").model_dump(exclude_none=True), **changes})


def test_zones_are_refused_on_a_cloud_whose_group_stays_in_one_zone() -> None:
    base = example_config("gcp").model_dump(exclude_none=True)
    changes = {"interconnect": "none", "file_system": None, "job": None, "fallback_zones": ["us-central1-b"]}
    with pytest.raises(ValueError, match="node group stays in one zone"):
        ClusterConfig.model_validate({**base, **changes})


def test_a_spot_group_keeps_its_on_demand_nodes_first() -> None:
    config = example_config("aws", nodes=4, on_demand_nodes=1)
    distribution = group_capacity(config, "lt-1")["mixed_instances_policy"]["instances_distribution"]
    assert (distribution["on_demand_base_capacity"], distribution["on_demand_percentage_above_base_capacity"]) == (1, 0)
