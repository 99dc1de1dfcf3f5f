"""Every priced way to buy one offering for the job, each costed for the whole job.

For one offering and one node count the job's hours are known (`profiles.cost.estimate`);
this module turns them into candidates per purchase option: on-demand, spot with its
expected interruptions, a reserved term priced as a commitment, capacity already held.
Each carries the file system its cloud creates, priced like for like (`profiles.cost.storage`).
`best_per_purchase` then keeps, per purchase option, the node count a careful engineer
would choose: the cheapest job that meets the deadline, else the fastest.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from clouds.base import Feature, load
from clouds.healing import spot_healing, writes_queued_resource
from clouds.helper_vms import helper_lines
from clouds.registry import CLOUDS
from profiles.candidate import Candidate
from profiles.catalog.offering import Offering
from profiles.catalog.platform_rows import platform_of
from profiles.cost.cluster_cost import usd_per_cny
from profiles.cost.estimate import JobHours
from profiles.cost.held import block_price, held, held_price_note
from profiles.cost.inputs import restart_hours, spot_interruptions
from profiles.cost.pricing import charged_hours, committed_hours, reserved_usd_per_hour, spot_overhead
from profiles.data_path.row import DataRow, data_row
from profiles.short_text import cited
from profiles.spec import WorkloadSpec

# A managed platform's row creates no parallel file system (`clouds.platforms`).
PLATFORM_STORAGE = (
    "file system: none; the platform keeps code, checkpoints and output in its own storage (the pool's bucket "
    "or workspace blob store; storage not priced)"
)
PURCHASES = {"any": ("on-demand", "spot"), "spot": ("spot",), "on-demand": ("on-demand",)}
# Clouds whose component cannot launch spot from a stack file (`Feature.SPOT_FROM_STACK`): a
# spot pick there would write a stack `plan` refuses.
NO_SPOT_FROM_STACK = frozenset(name for name, c in CLOUDS.items() if not c.supports(Feature.SPOT_FROM_STACK))


def _price_notes(offering: Offering) -> tuple[str, ...]:
    """Both currencies for rows listed in another currency, and any estimate flag."""
    notes: tuple[str, ...] = ()
    if offering.currency != "USD" and offering.on_demand_native is not None:
        notes += (f"listed as {offering.on_demand_native:,.2f} {offering.currency}/h per node",)
    return notes + ((cited(offering.price_note),) if offering.price_note else ())


def _usd_per_cny(offering: Offering) -> float | None:
    """The catalog's recorded rate as this row used it (USD per CNY), or None."""
    return usd_per_cny(offering)


def _reserved_price(offering: Offering, on_demand: float, term: str) -> float | None:
    """The live reserved price of the row when a refresh recorded one, else the discount
    estimate from `profiles.cost.pricing` (USD/hour, amortized over the term)."""
    live = offering.reserved_1y_usd_per_hour if term == "1y" else offering.reserved_3y_usd_per_hour
    return live if live is not None else reserved_usd_per_hour(on_demand, offering.provider, term)


def _placement_notes(offering: Offering, purchase: str) -> tuple[str, ...]:
    """Placement limits of a purchase option the component applies (`Feature.SPOT_PLACEMENT`),
    the zone to set on a region-priced row (`Feature.ZONE_PRICES`) and the cloud's capacity
    note for the instance type (`Cloud.capacity_note`), so `resolve` says so when it picks one."""
    found = CLOUDS.get(offering.provider)
    if found is None:
        return ()
    region_priced = found.why_not(Feature.ZONE_PRICES) if offering.zone == offering.region else None
    spot = found.why_not(Feature.SPOT_PLACEMENT) if purchase == "spot" else None
    capacity = load(found.capacity_note)(offering.instance_type, purchase) if found.capacity_note else None
    return tuple(note for note in (region_priced, capacity, spot) if note)


def _spot(spec: WorkloadSpec, offering: Offering, job: JobHours, nodes: int) -> tuple[float, float, str]:
    """(interruptions, added hours, note) of a spot run of `job` on `nodes` nodes."""
    assert spec.spot is not None
    rate, source = spot_interruptions(offering)
    if spec.spot.interruptions_per_node_month is not None:
        rate, source = spec.spot.interruptions_per_node_month, "spec"
    platform = platform_of(offering)  # a managed platform restarts the job its own way
    restart = (
        spec.spot.restart_hours
        if spec.spot.restart_hours is not None
        else platform.restart_hours
        if platform is not None
        else restart_hours(offering.provider, offering.instance_type)
    )
    overhead = spot_overhead(job.hours, nodes, rate, spec.spot.checkpoint_interval_hours, restart)
    note = f"spot: {overhead.interruptions:.2f} interruptions expected, +{overhead.added_hours:.1f} h ({rate:g}/node-month, {source})"
    if spec.spot.restart_hours is None:
        note += f"; {platform.note() if platform else spot_healing(offering.provider, offering.instance_type).summary}"
    return overhead.interruptions, overhead.added_hours, note


def candidates(spec: WorkloadSpec, offering: Offering, job: JobHours, nodes: int | None = None) -> list[Candidate]:
    """Every priced way to buy `offering` on `nodes` nodes (default `spec.nodes`) for the job.

    Each candidate's cost is compute for its hours (spot: plus expected interruptions; a
    commitment: its share of the whole term) plus the file system for those hours (at the
    throughput tier that makes the job cheapest: `profiles.data_path.row.data_row`, the data path's one entry) plus the bucket's
    request charges.
    """
    nodes = spec.nodes if nodes is None else nodes
    platform_storage: tuple[str, ...] = ()
    if offering.platform != "vm" and spec.file_system is not None:  # the platform keeps its own storage
        spec, platform_storage = spec._replace(file_system=None), (PLATFORM_STORAGE,)
    helpers = (
        helper_lines(offering.provider, offering.region, spec.job is not None) if offering.platform == "vm" else ()
    )
    notes = job.notes + _price_notes(offering) + helpers + platform_storage
    usd_per_cny = _usd_per_cny(offering)
    found: list[Candidate] = []
    for purchase in PURCHASES[spec.purchase]:
        price = offering.price(purchase)
        if price is None or (purchase == "spot" and offering.provider in NO_SPOT_FROM_STACK):
            continue
        row = data_row(spec, offering, job.hours, price * nodes, usd_per_cny)
        extra: dict = {}
        row_notes = notes + row.notes
        hours = row.hours
        if purchase == "spot" and spec.spot is not None:
            interruptions, added, note = _spot(spec, offering, job, nodes)
            hours += added
            extra = {"interruptions": interruptions, "added_hours": added}
            row_notes += (note,)
            if writes_queued_resource(offering.provider, offering.instance_type, "spot"):
                row_notes += helper_lines(offering.provider, offering.region, False, queued_resource=True)
        found.append(_candidate(offering, purchase, nodes, hours, price, row, row_notes, speed=job.speed, **extra))
        if purchase == "on-demand" and spec.commitment is not None:
            found.extend(_reserved(spec, offering, price, nodes, hours, row, notes + row.notes, job.speed))
    for r in held(spec, offering, nodes):
        row = data_row(spec, offering, job.hours, r.usd_per_hour * nodes, usd_per_cny)
        price, short = block_price(r, offering, row.hours)
        if price is None:
            continue
        found.append(
            _candidate(
                offering,
                "capacity-block" if r.kind == "capacity-block" else "reservation",
                nodes,
                row.hours,
                price,
                row,
                (*notes, *row.notes, held_price_note(r), *short),
                reservation_id=r.id,
                reservation=r,
            )
        )
    return found


def _reserved(
    spec: WorkloadSpec,
    offering: Offering,
    on_demand: float,
    nodes: int,
    hours: float,
    row: DataRow,
    notes: tuple[str, ...],
    speed: str,
) -> list[Candidate]:
    assert spec.commitment is not None
    term, reuse = spec.commitment.term, spec.commitment.reuse
    rate = _reserved_price(offering, on_demand, term)
    if rate is None:
        return []
    committed = committed_hours(hours, term)
    billed = charged_hours(hours, term, reuse)
    whole = rate * nodes * committed
    note = (
        f"{term} commitment: ${whole:,.0f} for {committed:,.0f} h, bought separately (the stack launches "
        f"on-demand nodes and buys no commitment; without one they bill ${on_demand * nodes:,.2f}/hour); "
        f"this job's share ${rate * nodes * billed:,.0f} ({billed:,.0f} h billed, reuse {reuse:g} of the rest)"
    )
    return [
        _candidate(
            offering,
            f"reserved-{term}",
            nodes,
            hours,
            rate,
            row,
            notes + (note,),
            charged_hours=billed,
            committed_hours=committed,
            speed=speed,
        )
    ]


def _candidate(
    offering: Offering,
    purchase: str,
    nodes: int,
    hours: float,
    price: float,
    row: DataRow,
    notes: tuple[str, ...],
    **extra,
) -> Candidate:
    storage = row.storage
    usd_storage = None if storage is None else storage.usd(hours)
    return Candidate(
        offering,
        purchase,
        nodes,
        hours,
        price,
        usd_storage,
        notes + _placement_notes(offering, purchase),
        storage=storage,
        usd_requests=row.usd_requests,
        throughput=row.throughput,
        fs_capacity_gib=row.capacity_gib,
        io_bound=row.io_bound,
        **extra,
    )


def best_per_purchase(options: Iterable[Candidate], deadline_hours: float | None) -> list[Candidate]:
    """Per purchase option (and held reservation), the node count to use: the cheapest job
    meeting `deadline_hours` (any, without a deadline), else the fastest, then cheapest.

    At the same cost (to the cent) the fewer nodes win: the same job for the same money on
    fewer nodes asks for less capacity and quota. The row then says which larger counts cost
    the same.
    """
    every = list(options)
    best: dict[tuple, Candidate] = {}
    for c in every:
        key = (c.purchase, c.reservation_id)
        if key not in best or _better(c, best[key], deadline_hours):
            best[key] = c
    return [_tie_note(c, every, deadline_hours) for c in best.values()]


def _cost_then_nodes(c: Candidate) -> tuple:
    return (round(c.usd_total, 2), c.nodes, c.sort_key())


def _better(c: Candidate, other: Candidate, deadline: float | None) -> bool:
    if deadline is None:
        return _cost_then_nodes(c) < _cost_then_nodes(other)
    c_on, other_on = c.hours <= deadline, other.hours <= deadline
    if c_on != other_on:
        return c_on
    return _cost_then_nodes(c) < _cost_then_nodes(other) if c_on else c.speed_key() < other.speed_key()


def _tie_note(c: Candidate, every: list[Candidate], deadline: float | None) -> Candidate:
    """`c` with a note naming the larger node counts that cost the same (and meet the
    deadline, when there is one), or `c` unchanged when none does."""
    same = sorted(
        o.nodes
        for o in every
        if (o.purchase, o.reservation_id) == (c.purchase, c.reservation_id)
        and o.nodes > c.nodes
        and round(o.usd_total, 2) == round(c.usd_total, 2)
        and (deadline is None or o.hours <= deadline)
    )
    if not same or c.hours > (deadline if deadline is not None else float("inf")):
        return c
    note = (
        f"nodes: {c.nodes}; {', '.join(map(str, same))} nodes cost the same ${c.usd_total:,.2f} and finish sooner; on a cost tie "
        "the fewest nodes are taken (less capacity and quota to get)"
    )
    return dataclasses.replace(c, notes=(*c.notes, note))
