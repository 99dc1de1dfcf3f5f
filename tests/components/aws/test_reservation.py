"""Held capacity on AWS: each reservation kind's launch (template target, market type, group
shape, placement group), the one-line refusals, and the plan's inputs against pulumi_aws."""

from __future__ import annotations

import shutil
from datetime import datetime, timezone
from pathlib import Path

import pulumi
import pytest
import yaml

from clouds.aws.reservation import check_reservation, launch_options, placement_group_name
from clouds.contract import ClusterConfig
from clouds.reservation import ReservationConfig
from components.aws.cluster import AwsGpuCluster
from profiles.stack.file import ConfigError, validate_cluster
from tests.clusters import BASE_CLUSTER
from tests.components.test_input_shapes import args_class, problems
from trainstack.plan.runner import run_plan

ROOT = Path(__file__).resolve().parents[3]
CR = "cr-0123456789abcdef0"
GROUP_ARN = "arn:aws:resource-groups:us-east-1:123456789012:group/train-crs"
ON_DEMAND = {**BASE_CLUSTER, "purchase": "on-demand"}
ENDS = datetime(2026, 12, 17, 11, 30, tzinfo=timezone.utc)  # a YAML timestamp reads as this


def _config(reservation: dict, **overrides) -> ClusterConfig:
    return ClusterConfig.model_validate({**ON_DEMAND, "reservation": reservation, **overrides})


@pytest.mark.parametrize(
    ("reservation", "expected"),
    [
        pytest.param(
            {"id": CR},
            {"capacity_reservation_specification": {"capacity_reservation_target": {"capacity_reservation_id": CR}}},
            id="odcr-by-id",
        ),
        pytest.param(
            {"id": GROUP_ARN},
            {
                "capacity_reservation_specification": {
                    "capacity_reservation_target": {"capacity_reservation_resource_group_arn": GROUP_ARN}
                }
            },
            id="odcr-resource-group",
        ),
        pytest.param(
            {"id": CR, "kind": "capacity-block"},
            {
                "capacity_reservation_specification": {"capacity_reservation_target": {"capacity_reservation_id": CR}},
                "instance_market_options": {"market_type": "capacity-block"},
            },
            id="capacity-block",
        ),
    ],
)
def test_launch_options_follow_the_kind(reservation, expected):
    assert launch_options(ReservationConfig.model_validate(reservation)) == expected


def test_no_reservation_adds_no_launch_option():
    assert launch_options(None) == {}


@pytest.mark.parametrize(
    ("placement_group", "expected"),
    [
        pytest.param(None, None, id="none"),
        pytest.param("team-pg", "team-pg", id="name"),
        pytest.param("arn:aws:ec2:us-east-1:123456789012:placement-group/team-pg", "team-pg", id="arn"),
    ],
)
def test_placement_group_name(placement_group, expected):
    assert placement_group_name(ReservationConfig(id=CR, placement_group=placement_group)) == expected


@pytest.mark.parametrize(
    ("reservation", "overrides", "start", "hint"),
    [
        pytest.param(
            {"id": CR, "kind": "capacity-block"}, {"purchase": "spot"}, "reservation:", "capacity-block", id="cb-spot"
        ),
        pytest.param({"id": CR}, {"purchase": "spot"}, "reservation:", "purchase: on-demand", id="odcr-spot"),
        pytest.param({"id": CR, "nodes": 4}, {"nodes": 8}, "nodes:", "set nodes: 4", id="more-nodes-than-held"),
        pytest.param(
            {"id": CR, "zone": "use1-az2"},
            {},
            "reservation.zone:",
            "in use1-az2 but the nodes' zone is use1-az4",
            id="other-zone",
        ),
    ],
)
def test_impossible_reservations_refused_in_one_line(mocks, reservation, overrides, start, hint):
    with pytest.raises(ValueError) as err:
        AwsGpuCluster("refused", _config(reservation, **overrides))
    message = str(err.value)
    assert message.startswith(start) and hint in message and "\n" not in message
    assert not [urn for urn in pulumi.runtime.settings.get_monitor().resources if "::refused" in urn]


def test_an_unknown_kind_is_refused_naming_the_kinds():
    with pytest.raises(ConfigError) as err:
        validate_cluster({**ON_DEMAND, "reservation": {"id": CR, "kind": "spot-block"}}, "us-east-1")
    message = str(err.value)
    assert message.startswith("trainstack:cluster.reservation.kind: 'spot-block' is not a valid reservation kind")
    assert "capacity-reservation, capacity-block" in message and "\n" not in message


@pytest.mark.parametrize(
    ("reservation", "commitment", "start", "hint"),
    [
        pytest.param({"id": "crx-12"}, "none", "reservation.id:", "cr- and hex digits", id="not-an-id"),
        pytest.param(
            {"id": GROUP_ARN.replace("us-east-1", "us-west-2")}, "none", "reservation.id:", "us-west-2", id="arn-region"
        ),
        pytest.param(
            {"id": GROUP_ARN, "kind": "capacity-block"}, "none", "reservation.id:", "one Capacity Block", id="cb-group"
        ),
        pytest.param({"id": CR, "kind": "capacity-block"}, "1y", "commitment:", "up front", id="cb-commitment"),
        pytest.param({"id": "arn:aws:resource-groups:oops"}, "none", "reservation.id:", "group/NAME", id="bad-arn"),
    ],
)
def test_aws_shapes_refused_in_one_line(reservation, commitment, start, hint):
    with pytest.raises(ValueError) as err:
        check_reservation(ReservationConfig.model_validate(reservation), "us-east-1", commitment)
    assert str(err.value).startswith(start) and hint in str(err.value) and "\n" not in str(err.value)


def test_shorthand_and_full_form_are_one_reservation():
    short = ClusterConfig.model_validate({**ON_DEMAND, "capacity_reservation_id": CR})
    assert short.reservation == ReservationConfig(id=CR, kind="capacity-reservation")
    assert short.capacity_reservation_id == CR
    assert "capacity_reservation_id" not in short.model_dump(exclude_none=True)
    with pytest.raises(ValueError, match="give the reservation once"):
        ClusterConfig.model_validate({**ON_DEMAND, "capacity_reservation_id": CR, "reservation": {"id": CR}})


@pulumi.runtime.test
def test_capacity_block_launches_from_the_template_with_its_market_type(mocks):
    cluster = AwsGpuCluster("c", _config({"id": CR, "kind": "capacity-block", "nodes": 2}))
    lt, group = cluster.launch_template, cluster.node_group

    def check(args):
        market, target, template, policy, rebalance, lt_id = args
        assert market == {"market_type": "capacity-block"}
        assert target == {"capacity_reservation_target": {"capacity_reservation_id": CR}}
        assert template == {"id": lt_id, "version": "$Latest"}
        assert policy is None and rebalance is False

    return pulumi.Output.all(
        lt.instance_market_options,
        lt.capacity_reservation_specification,
        group.launch_template,
        group.mixed_instances_policy,
        group.capacity_rebalance,
        lt.id,
    ).apply(check)


@pulumi.runtime.test
def test_targeted_reservation_keeps_the_on_demand_group(mocks):
    cluster = AwsGpuCluster("c", _config({"id": GROUP_ARN}))
    lt, group = cluster.launch_template, cluster.node_group

    def check(args):
        market, target, policy, template = args
        assert market is None and template is None
        assert target == {"capacity_reservation_target": {"capacity_reservation_resource_group_arn": GROUP_ARN}}
        assert policy["instances_distribution"]["on_demand_percentage_above_base_capacity"] == 100

    return pulumi.Output.all(
        lt.instance_market_options,
        lt.capacity_reservation_specification,
        group.mixed_instances_policy,
        group.launch_template,
    ).apply(check)


@pulumi.runtime.test
def test_reservation_in_an_existing_placement_group_creates_none(mocks):
    cluster = AwsGpuCluster("c", _config({"id": CR, "kind": "capacity-block", "placement_group": "team-pg"}))
    assert cluster.placement is None

    def check(args):
        group_pg, output = args
        assert group_pg == output == "team-pg"

    return pulumi.Output.all(cluster.node_group.placement_group, cluster.placement_group).apply(check)


def test_capacity_block_plan_inputs_match_pulumi_aws(tmp_path):
    """The whole Capacity Block plan (own placement group left out) against pulumi_aws's *Args."""
    for name in ("__main__.py", "Pulumi.yaml"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / "stacks").mkdir()
    block = {"kind": "capacity-block", "id": CR, "nodes": 2, "placement_group": "pg", "ends": ENDS}
    cluster = {**ON_DEMAND, "reservation": block}
    stack = {"config": {"aws:region": "us-east-1", "trainstack:cluster": cluster}}
    (tmp_path / "stacks" / "Pulumi.cb.yaml").write_text(yaml.safe_dump(stack))
    resources = run_plan("cb", tmp_path, priced=False).resources
    types = [r["type"] for r in resources]
    assert "aws:ec2/placementGroup:PlacementGroup" not in types
    lt = next(r for r in resources if r["type"] == "aws:ec2/launchTemplate:LaunchTemplate")
    assert lt["inputs"]["instanceMarketOptions"] == {"marketType": "capacity-block"}
    group = next(r for r in resources if r["type"] == "aws:autoscaling/group:Group")
    [schedule] = [r for r in resources if r["type"] == "aws:autoscaling/schedule:Schedule"]
    assert schedule["inputs"]["startTime"] == "2026-12-17T10:50:00Z"
    assert group["inputs"]["placementGroup"] == "pg" and "mixedInstancesPolicy" not in group["inputs"]
    found = [
        f"{r['name']}: {p}"
        for r in resources
        if not r["type"].startswith("trainstack:")
        for p in problems(args_class(r["type"]), r["inputs"], r["type"])
    ]
    assert found == []


def test_reservations_list_of_one_is_the_reservation_and_several_are_refused():
    listed = ClusterConfig.model_validate({**ON_DEMAND, "reservations": [{"id": CR, "kind": "capacity-block"}]})
    assert listed.reservation == ReservationConfig(id=CR, kind="capacity-block")
    with pytest.raises(ValueError, match=r"reservations: 2 given; a cluster launches into one reservation"):
        ClusterConfig.model_validate({**ON_DEMAND, "reservations": [{"id": CR}, {"id": "cr-0def"}]})
    with pytest.raises(ValueError, match="give the reservation once"):
        ClusterConfig.model_validate({**ON_DEMAND, "reservations": [{"id": CR}], "reservation": {"id": CR}})


@pulumi.runtime.test
def test_a_block_with_an_end_scales_the_group_to_zero_forty_minutes_before(mocks):
    ends = "2026-12-17T13:30:00+02:00"  # 11:30 UTC
    cluster = AwsGpuCluster("c", _config({"id": CR, "kind": "capacity-block", "ends": ends}))
    schedule = cluster.block_end
    assert schedule is not None

    def check(args):
        start, sizes, group, group_name = args
        assert start == "2026-12-17T10:50:00Z"
        assert sizes == [0, 0, 0] and group == group_name

    return pulumi.Output.all(
        schedule.start_time,
        pulumi.Output.all(schedule.min_size, schedule.max_size, schedule.desired_capacity),
        schedule.autoscaling_group_name,
        cluster.node_group.name,
    ).apply(check)


def test_no_end_no_schedule(mocks):
    assert AwsGpuCluster("c", _config({"id": CR, "kind": "capacity-block"})).block_end is None


@pytest.mark.parametrize(
    ("reservation", "message"),
    [
        pytest.param({"id": CR, "ends": "2026-12-17T11:30:00Z"}, "only a Capacity Block ends by itself", id="odcr"),
        pytest.param(
            {"id": CR, "kind": "capacity-block", "ends": "2026-12-17T11:30:00"}, "has no time zone", id="no-timezone"
        ),
    ],
)
def test_end_times_refused(reservation, message):
    with pytest.raises(ConfigError, match=message) as err:
        validate_cluster({**ON_DEMAND, "reservation": reservation}, "us-east-1")
    assert "\n" not in str(err.value)
