"""How AWS nodes launch into held capacity: the launch template's reservation target and
market type, and the placement group, for each kind of reservation (`clouds.block_end`).

Sources (AWS documentation, read through the docs index this session):
- EC2 launch template `CapacityReservationSpecification.CapacityReservationTarget` takes a
  `CapacityReservationId` or a `CapacityReservationResourceGroupArn`; `InstanceMarketOptions.
  MarketType` is `spot` or `capacity-block` (CloudFormation AWS::EC2::LaunchTemplate).
- EC2 Auto Scaling, "Use Capacity Blocks for machine learning workloads": the launch template
  gives market type `capacity-block` and the block's reservation id; "Mixed instances groups
  and warm pools are not supported"; "You can only target one Capacity Block at a time";
  EC2 terminates the block's instances 30 minutes before it ends.
- EC2, "Launch instances using Capacity Blocks": an instance "can't launch in a subnet in a
  different Availability Zone" from the block's.
- EC2 `CreateCapacityReservation` / `CapacityBlockReservation` take a `PlacementGroupArn`:
  a reservation can be made inside an existing cluster placement group, whose instances
  must launch into that group.
"""

from __future__ import annotations

import re
from datetime import datetime

from clouds.block_end import BLOCK_SCALE_IN_MINUTES, block_end_problem, block_scale_in
from clouds.clock import now as clock_now
from clouds.reservation import ReservationConfig

# Minutes before a Capacity Block's end the node group scales to zero (`clouds.block_end`).
SCALE_IN_MINUTES_BEFORE_END = BLOCK_SCALE_IN_MINUTES

# `cr-` and hex digits (EC2 ids carry 8 or 17; shorter ones are accepted for examples).
_RESERVATION_ID = re.compile(r"^cr-[0-9a-f]+$")
# arn:<partition>:resource-groups:<region>:<account>:group/<name>
_GROUP_ARN = re.compile(r"^arn:aws[a-z-]*:resource-groups:([a-z0-9-]+):\d{12}:group/[A-Za-z0-9_.-]+$")
# arn:<partition>:ec2:<region>:<account>:placement-group/<name>
_PLACEMENT_GROUP_ARN = re.compile(r"^arn:aws[a-z-]*:ec2:[a-z0-9-]+:\d{12}:placement-group/(.+)$")


def placement_group_name(reservation: ReservationConfig | None) -> str | None:
    """The existing placement group the nodes must launch into (a name; an ARN gives its
    name), or None when the cluster should create its own."""
    if reservation is None or reservation.placement_group is None:
        return None
    match = _PLACEMENT_GROUP_ARN.match(reservation.placement_group)
    return match.group(1) if match else reservation.placement_group


def launch_options(reservation: ReservationConfig | None) -> dict:
    """Launch template arguments that put the nodes into the reservation.

    Returns:
        `{}` without a reservation; else `capacity_reservation_specification` targeting the
        reservation id (or resource group ARN) and, for a Capacity Block,
        `instance_market_options` with market type `capacity-block`.
    """
    if reservation is None:
        return {}
    key = "capacity_reservation_resource_group_arn" if reservation.is_group_arn else "capacity_reservation_id"
    options: dict = {"capacity_reservation_specification": {"capacity_reservation_target": {key: reservation.id}}}
    if reservation.kind == "capacity-block":
        options["instance_market_options"] = {"market_type": "capacity-block"}
    return options


def check_reservation(
    reservation: ReservationConfig | None, region: str, commitment: str, now: datetime | None = None
) -> None:
    """Refuse a reservation AWS cannot launch into as written.

    The contract already refuses spot, more nodes than the reservation holds and a
    reservation in another zone (`clouds.reservation.reservation_problem`); this checks the
    AWS shapes: a `cr-` id or a resource group ARN in the stack's region, a Capacity Block
    targeted by its own id and not priced as a reserved term, and one whose scale-in
    (`scale_in_time`) is still ahead: AWS refuses a scheduled action in the past.

    Args:
        now: the current time; default the clock (`clouds.clock.now`).

    Raises:
        ValueError: one line naming the field and the fix.
    """
    if reservation is None:
        return
    if reservation.is_group_arn:
        match = _GROUP_ARN.match(reservation.id)
        if match is None:
            raise ValueError(
                f"reservation.id: '{reservation.id}' is not a Capacity Reservation resource group ARN "
                "(arn:aws:resource-groups:REGION:ACCOUNT:group/NAME)"
            )
        if match.group(1) != region:
            raise ValueError(
                f"reservation.id: the resource group is in {match.group(1)}, the cluster in {region}; "
                "use a group in the cluster's region"
            )
        if reservation.kind == "capacity-block":
            raise ValueError(
                "reservation.id: an Auto Scaling group targets one Capacity Block at a time, by its own id "
                "(cr-...), not a resource group; give the block's id"
            )
    elif not _RESERVATION_ID.match(reservation.id):
        raise ValueError(
            f"reservation.id: '{reservation.id}' is not an EC2 capacity reservation id (cr- and hex digits) "
            "or a resource group ARN; copy it from `aws ec2 describe-capacity-reservations`"
        )
    if reservation.kind == "capacity-block" and commitment != "none":
        raise ValueError(
            f"commitment: a Capacity Block is paid up front for its whole block, not a {commitment} reserved "
            "term; set commitment: none"
        )
    if reservation.ends is not None:
        problem = block_end_problem(reservation.ends, now or clock_now(), "reservation.ends")
        if problem:
            raise ValueError(problem)


def scale_in_time(reservation: ReservationConfig | None) -> str | None:
    """When the node group scales to zero before a Capacity Block ends, as the Auto Scaling
    scheduled action takes it (`YYYY-MM-DDThh:mm:ssZ`, UTC); None without an end time."""
    if reservation is None or reservation.ends is None:
        return None
    return block_scale_in(reservation.ends).strftime("%Y-%m-%dT%H:%M:%SZ")
