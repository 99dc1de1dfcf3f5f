"""Every priced way to buy one offering for the job, each costed for the whole job.

For one offering and one node count the job's hours are known (`profiles.cost.estimate`);
this module turns them into candidates per purchase option: on-demand, spot with its
expected interruptions, a reserved term priced as a commitment, capacity already held.
Each carries the file system its cloud creates, priced like for like (`profiles.cost.storage`).
`profiles.choice.nodes` then keeps, per purchase option, the node count a careful engineer
would choose: the fewest nodes that meet the deadline.
"""

from __future__ import annotations

import functools

from clouds.base import Feature, load
from clouds.filesystems import shortfall
from clouds.healing import spot_healing, writes_queued_resource
from clouds.helper_vms import head_tracking_line, helper_lines
from clouds.registry import CLOUDS
from profiles.candidate import Candidate
from profiles.catalog.offering import Offering
from profiles.catalog.platform_rows import job_limit_note, makes_file_system, platform_of
from profiles.cost.checkpoint import checkpoint_hours
from profiles.cost.cluster_cost import usd_per_cny as usd_per_cny_of
from profiles.cost.commitment import rate_basis, row_note
from profiles.cost.estimate import JobHours
from profiles.cost.flex import FLEX, flex, purchase_price
from profiles.cost.held import beside_price, block_price, held_price_note, held_rows
from profiles.cost.inputs import restart_hours, spot_interruptions
from profiles.cost.pricing import (
    charged_hours,
    committed_hours,
    fill_upper_usd,
    reserved_usd_per_hour,
    spot_overhead,
)
from profiles.data_path.row import DataRow, data_row
from profiles.short_text import cited
from profiles.spec import WorkloadSpec

# A managed platform's row creates no parallel file system (`clouds.platforms`).
PLATFORM_STORAGE = (
    "file system: none; the platform keeps code, checkpoints and output in its own storage (the pool's bucket "
    "or workspace blob store; storage not priced)"
)
# What a spot row's hours leave out (docs/self-healing.md, "What the estimate counts").
SPOT_WAIT = "the wait for spot capacity to return after an interruption is not in the hours: no source gives it"
PURCHASES = {
    "any": ("on-demand", "spot", "flex-start"),
    "spot": ("spot",),
    "on-demand": ("on-demand",),
    "flex-start": ("flex-start",),
}
# Clouds whose component cannot launch spot from a stack file (`Feature.SPOT_FROM_STACK`): a
# spot pick there would write a stack `plan` refuses.
NO_SPOT_FROM_STACK = frozenset(name for name, c in CLOUDS.items() if not c.supports(Feature.SPOT_FROM_STACK))


def _price_notes(offering: Offering) -> tuple[str, ...]:
    """Both currencies for rows listed in another currency, and any estimate flag."""
    notes: tuple[str, ...] = ()
    if offering.currency != "USD" and offering.on_demand_native is not None:
        notes += (f"listed as {offering.on_demand_native:,.2f} {offering.currency}/h per node",)
    return notes + ((cited(offering.price_note),) if offering.price_note else ())


def _reserved_price(offering: Offering, on_demand: float, term: str) -> float | None:
    """The live reserved price of the row when a refresh recorded one, else the discount
    estimate from `profiles.cost.pricing` (USD/hour, amortized over the term)."""
    live = offering.reserved_1y_usd_per_hour if term == "1y" else offering.reserved_3y_usd_per_hour
    return live if live is not None else reserved_usd_per_hour(on_demand, offering.provider, term)


def _placement_notes(offering: Offering, purchase: str) -> tuple[str, ...]:
    """Placement limits of a purchase option the component applies (`Feature.SPOT_PLACEMENT`),
    the zone to set on a region-priced row (`Feature.ZONE_PRICES`) and the cloud's capacity
    note for the instance type (`Cloud.capacity_note`), so `resolve` says so when it picks one."""
    region_priced = offering.zone == offering.region and offering.platform == "vm"  # a platform places its own jobs
    return _placement(offering.provider, offering.instance_type, region_priced, purchase)


@functools.lru_cache(maxsize=4096)
def _placement(provider: str, instance_type: str, region_priced: bool, purchase: str) -> tuple[str, ...]:
    found = CLOUDS.get(provider)
    if found is None:
        return ()
    zone = found.why_not(Feature.ZONE_PRICES) if region_priced else None
    spot = found.why_not(Feature.SPOT_PLACEMENT) if purchase == "spot" else None
    capacity = load(found.capacity_note)(instance_type, purchase) if found.capacity_note else None
    return tuple(note for note in (zone, capacity, spot) if note)


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
    if spec.spot.restart_hours is None:  # a restart time the spec gives is the user's, wait included
        healing = platform.note() if platform else spot_healing(offering.provider, offering.instance_type).summary
        note += f"; {healing}; {SPOT_WAIT}"
    return overhead.interruptions, overhead.added_hours, note


def _fill(spec: WorkloadSpec, offering: Offering, nodes: int, hours: float) -> tuple[float, str] | None:
    """(USD, note) of the spot fallback's on-demand gap fill over `hours` (an upper bound,
    `fill_upper_usd`), or None where the cloud has no fallback or no on-demand price."""
    assert spec.spot is not None and spec.spot.on_demand_after_hours is not None
    found = CLOUDS.get(offering.provider)
    on_demand, spot = offering.on_demand_usd_per_hour, offering.spot_usd_per_hour
    if found is None or found.spot_fallback is None or on_demand is None or spot is None:
        return None
    rate = spec.spot.interruptions_per_node_month
    rate = spot_interruptions(offering)[0] if rate is None else rate
    usd = fill_upper_usd(hours, nodes, rate, on_demand, spot)
    after = spec.spot.on_demand_after_hours * 60
    return usd, (
        f"spot fallback: on-demand fills a short spot group after {after:g} min, up to ${usd:,.2f} per job "
        "(an upper bound: each interrupted node's fill is kept to the run's end, as no source gives how long "
        "spot stays short)"
    )


def candidates(spec: WorkloadSpec, offering: Offering, job: JobHours, nodes: int | None = None) -> list[Candidate]:
    """Every priced way to buy `offering` on `nodes` nodes (default `spec.nodes`) for the job.

    Each candidate's cost is compute for its hours (spot: plus expected interruptions; a
    commitment: its share of the whole term) plus the file system for those hours (at the
    throughput tier that makes the job cheapest: `profiles.data_path.row.data_row`, the data path's one entry) plus the bucket's
    request charges.
    """
    nodes = spec.nodes if nodes is None else nodes
    platform_storage: tuple[str, ...] = ()
    if spec.file_system is not None and not makes_file_system(offering):  # the platform keeps its own storage
        spec, platform_storage = spec._replace(file_system=None), (PLATFORM_STORAGE,)
    vm = offering.platform == "vm"
    fs = spec.file_system is not None
    helpers = helper_lines(offering.provider, offering.region, spec.job is not None, file_system=fs) if vm else ()
    if vm and spec.job is not None and spec.job.tracking is not None and spec.job.tracking.mlflow == "managed":
        helpers += (head_tracking_line(spec.data.source if spec.data is not None else None),)
    notes = job.notes + _price_notes(offering) + helpers + platform_storage
    usd_per_cny = usd_per_cny_of(offering)
    found: list[Candidate] = []
    for purchase in PURCHASES[spec.purchase]:
        price = purchase_price(offering, purchase)
        if price is None or (purchase == "spot" and offering.provider in NO_SPOT_FROM_STACK):
            continue
        row = data_row(spec, offering, job.hours, price * nodes, usd_per_cny)
        extra: dict = {"caveats": _caveats(spec, offering, row)}
        row_notes = notes + row.notes
        hours = row.hours
        writes = _checkpoints(spec, offering, row, job.hours)
        if writes is not None:
            hours += writes[0]
            row_notes += (writes[1],)
        if purchase == "spot" and spec.spot is not None:
            interruptions, added, note = _spot(spec, offering, job, nodes)
            hours += added
            extra.update(interruptions=interruptions, added_hours=added)
            row_notes += (note,)
            if spec.spot.on_demand_after_hours is not None and (fill := _fill(spec, offering, nodes, hours)):
                extra["usd_fill"] = fill[0]
                row_notes += (fill[1],)
            if writes_queued_resource(offering.provider, offering.instance_type, "spot"):
                row_notes += helper_lines(offering.provider, offering.region, False, queued_resource=True)
        if limit := job_limit_note(offering, hours):  # a platform's longest job
            row_notes += (limit,)
        if purchase == FLEX:
            offer = flex(offering, hours)  # one request runs at most so long: a longer run is not offered
            if not isinstance(offer, tuple):
                continue
            row_notes += (offer[1],)
        found.append(_candidate(offering, purchase, nodes, hours, price, row, row_notes, speed=job.speed, **extra))
        if purchase == "on-demand" and spec.commitment is not None:
            found.extend(_reserved(spec, offering, price, nodes, hours, row, notes + row.notes, job.speed))
    for r, block in held_rows(spec, offering, nodes):
        row = data_row(spec, offering, job.hours, r.usd_per_hour * nodes, usd_per_cny)
        price, short = block_price(r, offering, row.hours)
        if price is not None and block is not None:  # the rest of the nodes on-demand beside the block
            price, beside = beside_price(price, block, nodes, offering)
            short += (beside,)
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
                block_nodes=block,
                speed=job.speed,  # the held rows run the same job: `given` when the spec gives hours
            )
        )
    return found


def _checkpoints(spec: WorkloadSpec, offering: Offering, row: DataRow, hours: float) -> tuple[float, str] | None:
    """(hours the job's checkpoint writes add, note) on the row's file system, or None."""
    if row.storage is None or row.throughput is None:
        return None
    assert spec.file_system is not None
    return checkpoint_hours(
        spec, offering.provider, row.capacity_gib or spec.file_system.capacity_gib, row.throughput, hours
    )


def _caveats(spec: WorkloadSpec, offering: Offering, row: DataRow) -> tuple[str, ...]:
    """`file_system.throughput` is a constraint: a row whose file system reads or writes less than
    the workload states ranks after every row that meets it (`Candidate.caveats`), with the reason."""
    fs = spec.file_system
    if fs is None or row.storage is None or "throughput_mbps_per_tib" not in fs.given:
        return ()
    short = shortfall(
        offering.provider, row.capacity_gib or fs.capacity_gib, row.throughput or 0, fs.throughput_mbps_per_tib
    )
    return () if short is None else (short,)


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
    live = (offering.reserved_1y_usd_per_hour if term == "1y" else offering.reserved_3y_usd_per_hour) is not None
    basis = "" if live else rate_basis(offering.provider, term)
    note = row_note(term, rate, nodes, hours, reuse, on_demand, basis)
    return [
        _candidate(
            offering,
            f"reserved-{term}",
            nodes,
            hours,
            rate,
            row,
            notes + (note,),
            charged_hours=charged_hours(hours, term, reuse),
            committed_hours=committed_hours(hours, term),
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
