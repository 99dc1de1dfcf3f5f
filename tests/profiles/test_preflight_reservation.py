"""Preflight of a stack's reservation against EC2 DescribeCapacityReservations, answered in the
API's documented shape through botocore's Stubber (moto implements no capacity reservations)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from clouds.contract import ClusterConfig
from profiles.preflight.aws_reservation import reservation_findings
from tests.aws_live import stubbed
from tests.clusters import BASE_CLUSTER

CR = "cr-0123456789abcdef0"
GROUP = "arn:aws:ec2:us-east-1:123456789012:placement-group/team-pg"


def _answer(**changes) -> dict:
    """One reservation as DescribeCapacityReservations reports it (fields of the EC2 API reference)."""
    reservation = {
        "CapacityReservationId": CR,
        "OwnerId": "123456789012",
        "InstanceType": "p4d.24xlarge",
        "InstancePlatform": "Linux/UNIX",
        "AvailabilityZone": "us-east-1a",
        "AvailabilityZoneId": "use1-az4",
        "Tenancy": "default",
        "TotalInstanceCount": 2,
        "AvailableInstanceCount": 2,
        "State": "active",
        "StartDate": datetime(2026, 12, 10, 11, 30, tzinfo=timezone.utc),
        "EndDate": datetime(2026, 12, 17, 11, 30, tzinfo=timezone.utc),
        "EndDateType": "limited",
        "InstanceMatchCriteria": "targeted",
        "ReservationType": "capacity-block",
        "PlacementGroupArn": GROUP,
        **changes,
    }
    return {"CapacityReservations": [{k: v for k, v in reservation.items() if v is not None}]}


def _check(answer: dict | None, reservation: dict, **cluster) -> list:
    ec2, stub = stubbed("ec2")
    expected = {"CapacityReservationIds": [reservation["id"]]}
    if answer is None:
        stub.add_client_error(
            "describe_capacity_reservations",
            service_error_code="InvalidCapacityReservationId.NotFound",
            http_status_code=400,
            expected_params=expected,
        )
    else:
        stub.add_response("describe_capacity_reservations", answer, expected)
    config = ClusterConfig.model_validate(
        {**BASE_CLUSTER, "purchase": "on-demand", "reservation": reservation, **cluster}
    )
    found = reservation_findings(ec2, config)
    stub.assert_no_pending_responses()
    return found


BLOCK = {"id": CR, "kind": "capacity-block", "placement_group": "team-pg"}


def test_a_matching_active_block_is_ok():
    [finding] = _check(_answer(), BLOCK)
    assert (finding.check, finding.status) == ("reservation", "ok")
    assert finding.detail == (f"Capacity Block for ML {CR}: 2 x p4d.24xlarge in use1-az4, 2 available, active")


def test_a_block_not_started_says_when():
    [finding] = _check(_answer(State="scheduled"), BLOCK)
    assert finding.status == "info" and finding.fix == "nodes launch once it is active from 2026-12-10 11:30 UTC"


@pytest.mark.parametrize(
    ("answer", "reservation", "cluster", "says", "fix"),
    [
        pytest.param(
            _answer(AvailabilityZoneId="use1-az2"),
            BLOCK,
            {},
            "is in use1-az2, the nodes' zone is use1-az4",
            "set zone: use1-az2",
            id="other-zone",
        ),
        pytest.param(
            _answer(InstanceType="p5.48xlarge"),
            BLOCK,
            {},
            "reserves p5.48xlarge, the stack launches p4d.24xlarge",
            "set instance_type: p5.48xlarge",
            id="other-type",
        ),
        pytest.param(
            _answer(),
            {**BLOCK, "kind": "capacity-reservation"},
            {},
            "is a capacity-block, the stack says capacity-reservation",
            "set reservation.kind: capacity-block",
            id="is-a-block",
        ),
        pytest.param(
            _answer(PlacementGroupArn=None),
            BLOCK,
            {},
            "is in placement group none, the stack says team-pg",
            "remove reservation.placement_group",
            id="no-placement-group",
        ),
        pytest.param(
            _answer(),
            {"id": CR, "kind": "capacity-block"},
            {},
            "is in placement group team-pg, the stack says none",
            "set reservation.placement_group: team-pg",
            id="unnamed-placement-group",
        ),
        pytest.param(
            _answer(TotalInstanceCount=1, AvailableInstanceCount=1),
            BLOCK,
            {},
            "holds 1 instances, the stack has 2",
            "set nodes: 1",
            id="too-small",
        ),
        pytest.param(
            _answer(State="expired"),
            BLOCK,
            {},
            "expired",
            "cannot be used",
            id="expired",
        ),
        pytest.param(
            None,
            BLOCK,
            {},
            f"{CR} is not a capacity reservation of this account in us-east-1",
            "check reservation.id",
            id="unknown-id",
        ),
    ],
)
def test_a_reservation_the_stack_contradicts_fails_naming_the_fix(answer, reservation, cluster, says, fix):
    [finding] = _check(answer, reservation, **cluster)
    assert finding.status == "fail"
    assert says in finding.detail and fix in finding.fix


def test_a_resource_group_is_not_looked_up():
    ec2, stub = stubbed("ec2")
    config = ClusterConfig.model_validate(
        {
            **BASE_CLUSTER,
            "purchase": "on-demand",
            "reservation": {"id": "arn:aws:resource-groups:us-east-1:123456789012:group/crs"},
        }
    )
    [finding] = reservation_findings(ec2, config)
    assert finding.status == "info" and "not looked up" in finding.detail
    stub.assert_no_pending_responses()
