"""Held capacity a cluster launches into: what kind of reservation it is, and its limits.

A stack's `reservation:` says what the held capacity IS, because the launch differs by kind
(AWS EC2 user guide, "Capacity Reservations" and "Capacity Blocks for ML"; EC2 Auto Scaling
user guide, "Use Capacity Blocks for machine learning workloads"):

- `capacity-reservation`: an On-Demand Capacity Reservation (AWS, `cr-...`, or a Capacity
  Reservation resource group ARN) or a GCP reservation (its name). Instances reach it only
  as a targeted launch: the launch template's capacity reservation target (AWS) or the
  instance's specific reservation affinity (GCP). On-demand instances only.
- `capacity-block`: an AWS Capacity Block for ML (`cr-...`). Instances launch with market
  type `capacity-block` and target the block's id; never spot, and an Auto Scaling group
  that uses one cannot be a mixed instances group ("Mixed instances groups and warm pools are
  not supported"; "You can only target one Capacity Block at a time").

A reservation made inside an existing cluster placement group names it (`placement_group`):
its instances must launch into that group, so the cluster creates no placement group of its
own. `nodes` and `zone`, when given, are checked against the cluster's.
"""

from __future__ import annotations

from typing import Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

ReservationKind = Literal["capacity-reservation", "capacity-block"]
KINDS: tuple[str, ...] = ("capacity-reservation", "capacity-block")
# What each kind is called in messages and plans.
KIND_NAMES: dict[str, str] = {
    "capacity-reservation": "capacity reservation",
    "capacity-block": "Capacity Block for ML",
}


class ReservationConfig(BaseModel):
    """Capacity the cluster's nodes launch into.

    Attributes:
        kind: `capacity-reservation` (an On-Demand Capacity Reservation or a GCP
            reservation, targeted) or `capacity-block` (an AWS Capacity Block for ML).
        id: the reservation: AWS `cr-...` or (capacity-reservation only) a Capacity
            Reservation resource group ARN; GCP the reservation's name.
        placement_group: name of the existing cluster placement group the reservation was
            made in; the nodes launch into it and the cluster creates none. None: the
            reservation is in no placement group (the cluster creates its own).
        nodes: instances the reservation holds, or None when not given (then unchecked).
        zone: zone the reservation is in (AWS: availability-zone ID), or None (unchecked).
        ends: a Capacity Block's end time (timezone-aware), or None. AWS terminates the
            block's instances 30 minutes before it; the AWS component then scales the node
            group to zero beforehand (`clouds.aws.reservation.scale_in_time`).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: ReservationKind = Field(default="capacity-reservation", description="Reservation kind.")
    id: str = Field(min_length=1, pattern=r"^\S+$", description="Reservation id, group ARN or name.")
    placement_group: str | None = Field(
        default=None, min_length=1, pattern=r"^\S+$", description="Existing placement group of the reservation."
    )
    nodes: int | None = Field(default=None, ge=1, description="Instances the reservation holds.")
    zone: str | None = Field(default=None, min_length=1, description="Zone of the reservation.")
    ends: AwareDatetime | None = Field(default=None, description="End time of a Capacity Block, ISO 8601 with a zone.")

    def model_post_init(self, __context: object) -> None:
        if self.ends is not None and self.kind != "capacity-block":
            raise ValueError(
                "reservation.ends: only a Capacity Block ends by itself (a capacity reservation's instances keep "
                "running on-demand after it); remove ends or set kind: capacity-block"
            )

    @property
    def is_group_arn(self) -> bool:
        """Whether `id` is an AWS Capacity Reservation resource group ARN."""
        return self.id.startswith("arn:")

    @property
    def label(self) -> str:
        """`Capacity Block for ML cr-0abc` / `capacity reservation cr-0abc`: for messages."""
        return f"{KIND_NAMES[self.kind]} {self.id}"


def reservation_problem(reservation: ReservationConfig, purchase: str, nodes: int, zone: str) -> str | None:
    """What no cloud can launch: spot into held capacity, more nodes than it holds, or a
    reservation in another zone than the nodes. One line naming the field and the fix, or None.

    Args:
        reservation: the stack's reservation.
        purchase: the cluster's `purchase` (`spot` or `on-demand`).
        nodes: the cluster's node count.
        zone: the cluster's zone.
    """
    if purchase == "spot":
        how = (
            "launches with market type capacity-block"
            if reservation.kind == "capacity-block"
            else "holds on-demand capacity"
        )
        beside = "; or block_nodes: N to run N nodes in the block and the rest as spot beside it"
        return (
            f"reservation: a {KIND_NAMES[reservation.kind]} {how}, never spot; "
            "set purchase: on-demand or remove reservation" + (beside if reservation.kind == "capacity-block" else "")
        )
    if reservation.nodes is not None and nodes > reservation.nodes:
        return (
            f"nodes: {nodes} is more than the {reservation.nodes} instances {reservation.label} holds "
            f"(reservation.nodes); set nodes: {reservation.nodes} or less, or hold a larger reservation"
            + (
                f", or block_nodes: {reservation.nodes} to run the rest beside the block"
                if reservation.kind == "capacity-block"
                else ""
            )
        )
    if reservation.zone is not None and reservation.zone != zone:
        return (
            f"reservation.zone: {reservation.label} is in {reservation.zone} but the nodes' zone is {zone}; "
            "instances launch into a reservation only in its own zone: set zone and reservation.zone to the "
            "reservation's zone (on AWS its AZ ID, e.g. use1-az4)"
        )
    return None


def reservation_shorthand(data: dict) -> dict:
    """`capacity_reservation_id: X` -> `reservation: {id: X}` (None/empty: no reservation), and
    `reservations: [one]` (the workload spec's spelling) -> `reservation: one`.

    Raises:
        ValueError: the reservation given twice, or several: the nodes launch into one.
    """
    data = dict(data)
    given = []
    if "capacity_reservation_id" in data:
        value = data.pop("capacity_reservation_id")
        if value not in (None, ""):
            given.append(("capacity_reservation_id", {"id": value}))
    if "reservations" in data:
        listed = data.pop("reservations") or []
        if not isinstance(listed, list | tuple):
            listed = [listed]
        if len(listed) > 1:
            raise ValueError(
                f"reservations: {len(listed)} given; a cluster launches into one reservation (an Auto Scaling "
                "group targets one Capacity Block; several capacity reservations go in one Capacity Reservation "
                "resource group, whose ARN is the id): keep one, as reservation: {kind: ..., id: ...}"
            )
        given += [("reservations", item) for item in listed]
    if data.get("reservation") is not None:
        given.append(("reservation", data["reservation"]))
    if len(given) > 1:
        raise ValueError(f"{given[0][0]}: give the reservation once, as reservation: {{id: ..., kind: ...}}")
    if given:
        data["reservation"] = given[0][1]
    return data
