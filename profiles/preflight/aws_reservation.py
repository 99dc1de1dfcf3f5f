"""Preflight of an AWS stack's held capacity: is the reservation what the stack says it is?

EC2 DescribeCapacityReservations (by id) reports the reservation's instance type, zone
(`AvailabilityZoneId`), size (`TotalInstanceCount`, `AvailableInstanceCount`), `State`,
`ReservationType` (`default` or `capacity-block`), `PlacementGroupArn` and `StartDate`/
`EndDate`. Each is held against the stack: a launch into a reservation of another instance
type or zone, or a Capacity Block launched without its market type, never reaches the
reservation; a reservation made in a placement group takes only instances launched into it.
A Capacity Reservation resource group ARN is not looked up (its members may differ).
"""

from __future__ import annotations

from typing import Any

from clouds.aws.reservation import placement_group_name
from clouds.contract import ClusterConfig
from profiles.preflight.aws_api import aws_errors
from profiles.preflight.finding import RETRY_HINT, Finding, PreflightError

# States in which instances can launch now, and in which they will once it starts.
_LAUNCHABLE = {"active"}
_LATER = {"scheduled", "payment-pending", "pending", "assessing", "delayed"}


def reservation_findings(ec2: Any, cluster: ClusterConfig) -> list[Finding]:
    """One `reservation` finding for the stack's reservation, from EC2 (see module docstring).

    Args:
        ec2: a boto3 EC2 client in the stack's region.
        cluster: the stack's cluster; nothing is checked without a `reservation`.

    Raises:
        PreflightError: the API call failed for another reason than an unknown id.
    """
    held = cluster.reservation
    if held is None:
        return []
    if held.is_group_arn:
        return [Finding("reservation", "info", f"resource group {held.id}: its reservations are not looked up")]
    found = _describe(ec2, cluster.region, held.id)
    if found is None:
        return [
            Finding(
                "reservation",
                "fail",
                f"{held.id} is not a capacity reservation of this account in {cluster.region}",
                "check reservation.id (`aws ec2 describe-capacity-reservations`) and the stack's region",
            )
        ]
    problems = _mismatches(found, cluster)
    if problems:
        return [Finding("reservation", "fail", f"{held.label}: {'; '.join(p for p, _ in problems)}", problems[0][1])]
    state = found.get("State", "")
    detail = (
        f"{held.label}: {found.get('TotalInstanceCount')} x {found.get('InstanceType')} in "
        f"{found.get('AvailabilityZoneId')}, {found.get('AvailableInstanceCount')} available, {state}"
    )
    if state in _LAUNCHABLE:
        return [Finding("reservation", "ok", detail)]
    if state in _LATER:
        start = found.get("StartDate")
        when = f" from {start:%Y-%m-%d %H:%M} UTC" if start is not None else ""
        return [Finding("reservation", "info", detail, f"nodes launch once it is active{when}")]
    return [Finding("reservation", "fail", detail, "the reservation cannot be used: hold another and update the stack")]


def _describe(ec2: Any, region: str, reservation_id: str) -> dict | None:
    from botocore.exceptions import ClientError

    with aws_errors("ec2:DescribeCapacityReservations", region, PreflightError, RETRY_HINT):
        try:
            answer = ec2.describe_capacity_reservations(CapacityReservationIds=[reservation_id])
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code", "").startswith("InvalidCapacityReservationId"):
                return None
            raise
    listed = answer.get("CapacityReservations", [])
    return listed[0] if listed else None


def _mismatches(found: dict, cluster: ClusterConfig) -> list[tuple[str, str]]:
    """(what differs, the fix) for each field of the reservation the stack contradicts."""
    held = cluster.reservation
    assert held is not None
    problems = []
    if found.get("InstanceType") != cluster.instance_type:
        problems.append(
            (
                f"reserves {found.get('InstanceType')}, the stack launches {cluster.instance_type}",
                f"set instance_type: {found.get('InstanceType')} or target another reservation",
            )
        )
    if found.get("AvailabilityZoneId") != cluster.zone:
        zone = found.get("AvailabilityZoneId")
        problems.append(
            (
                f"is in {zone}, the nodes' zone is {cluster.zone}",
                f"set zone: {zone} (and a subnet_id in it); instances use a reservation only in its zone",
            )
        )
    kind = "capacity-block" if found.get("ReservationType") == "capacity-block" else "capacity-reservation"
    if kind != held.kind:
        problems.append((f"is a {kind}, the stack says {held.kind}", f"set reservation.kind: {kind}"))
    group_arn = found.get("PlacementGroupArn")
    group = group_arn.rsplit("/", 1)[-1] if group_arn else None
    if group != placement_group_name(held):
        problems.append(
            (
                f"is in placement group {group or 'none'}, the stack says {placement_group_name(held) or 'none'}",
                f"set reservation.placement_group: {group}" if group else "remove reservation.placement_group",
            )
        )
    total = found.get("TotalInstanceCount")
    if isinstance(total, int) and cluster.nodes > total:
        problems.append((f"holds {total} instances, the stack has {cluster.nodes} nodes", f"set nodes: {total}"))
    return problems
