"""Capacity a workload already holds (`reservations:`), priced for one row: which held
reservations an offering's row can use (`held`), the price of a Capacity Block that ends before
the job would (`block_price`), and the note saying how a held row is priced (`held_price_note`).
"""

from __future__ import annotations

from typing import Any

from clouds.block_end import block_hours_left, block_short_note
from clouds.clock import now as clock_now
from profiles.catalog.offering import Offering
from profiles.spec import WorkloadSpec


def held(spec: WorkloadSpec, offering: Offering, nodes: int) -> list:
    """The spec's reservations of `offering`'s type and zone with at least `nodes` nodes."""
    return [
        r
        for r in spec.reservations
        if (r.provider, r.instance_type, r.zone) == (offering.provider, offering.instance_type, offering.zone)
        and r.nodes >= nodes
    ]


def held_rows(spec: WorkloadSpec, offering: Offering, nodes: int) -> list[tuple[Any, int | None]]:
    """The spec's reservations of `offering`'s type and zone a row of `nodes` nodes can use, each
    with None (every node in it: `held`) or, for a Capacity Block holding fewer, its node count:
    those run in the block's own group and the rest on-demand beside it (`block_nodes`,
    `clouds.capacity.block_problem`)."""
    rows: list[tuple[Any, int | None]] = []
    for r in spec.reservations:
        if (r.provider, r.instance_type, r.zone) != (offering.provider, offering.instance_type, offering.zone):
            continue
        if r.nodes >= nodes:
            rows.append((r, None))
        elif r.kind == "capacity-block":
            rows.append((r, r.nodes))
    return rows


def beside_price(block_usd: float, block: int, nodes: int, offering: Offering) -> tuple[float | None, str]:
    """USD per node-hour of a row with `block` of its `nodes` nodes in a Capacity Block at
    `block_usd` and the rest on-demand beside it (the average over the nodes), and its note;
    None without an on-demand price."""
    on_demand = offering.price("on-demand")
    if on_demand is None:
        return None, ""
    usd = (block * block_usd + (nodes - block) * on_demand) / nodes
    return usd, (
        f"block_nodes: {block} of {nodes} nodes in the Capacity Block's own group, {nodes - block} on-demand beside "
        f"it at ${on_demand:,.2f}/node-hour: ${usd:,.2f}/node-hour on average"
    )


def block_price(r: Any, offering: Offering, hours: float) -> tuple[float | None, tuple[str, ...]]:
    """The held row's USD per node-hour over the whole job, and a note when a Capacity Block
    ends before the job would finish.

    EC2 terminates a block's instances at its end, so a job longer than what is left of the
    block cannot finish on it: the hours the block covers are priced at the spec's
    `usd_per_hour`, the rest at the offering's on-demand price (where the job goes on from
    its last checkpoint once the block ends), blended over the job's hours. Without an
    on-demand price the rest cannot be priced and the row is dropped (None).
    """
    if r.ends is None:
        return r.usd_per_hour, ()
    now = clock_now()
    note = block_short_note(r.ends, now, hours, f"Capacity Block {r.id}")
    if note is None:
        return r.usd_per_hour, ()
    on_demand = offering.on_demand_usd_per_hour
    if on_demand is None:
        return None, ()
    left = block_hours_left(r.ends, now)
    blended = (r.usd_per_hour * left + on_demand * (hours - left)) / hours
    return blended, (
        f"{note}, priced on-demand at ${on_demand:,.2f}/node-hour: ${blended:,.2f}/node-hour over the job; "
        "when the block ends, rerun `trainstack resolve --write-stack` without it to go on from the last checkpoint",
    )


def held_price_note(r: Any) -> str:
    """How a held reservation's row is priced: the spec's own figure, never the catalog's.

    Capacity Blocks are sold per block, paid up front; AWS's price list publishes their
    hourly rate as $0.00 (Price List API, `marketoption` CapacityBlock; see
    `profiles.catalog.fetchers.aws_pricing`), so no catalog row prices one.
    """
    where = f" in placement group {r.placement_group}" if r.placement_group else ""
    if r.kind == "capacity-block":
        return (
            f"Capacity Block {r.id}{where}: priced at the spec's ${r.usd_per_hour:,.2f}/node-hour; Capacity Blocks "
            "are paid up front per block and the catalog holds no price for them (AWS lists $0.00/hour)"
        )
    return (
        f"capacity reservation {r.id}{where}: priced at the spec's ${r.usd_per_hour:,.2f}/node-hour, not the catalog's"
    )
