"""How many nodes (and which size of an offering) to run: the fewest that meet the deadline.

A careful engineer takes the smallest cluster that finishes in time: fewer nodes are less
capacity and quota to get, fewer failures and a smaller blast radius. A larger one is taken
only when it is cheaper by more than `node_margin` (default `DEFAULT_NODE_MARGIN`, settable
in the workload), and its row says so; at equal cost the fewer accelerators win. The same
rule picks between sizes of one family (TPU slices v5p-8 ... v5p-12288, an instance type's
1-, 4- and 8-GPU sizes): same cloud, zone, accelerator and purchase, told apart by their
accelerator count. When no size meets the deadline the fastest is kept, then the cheapest.

The search is bounded (`offering_candidates`): counts below the first one that meets the
deadline are only timed, never priced; larger counts are timed, then priced in order of
their floor (the likely cheapest first) and only when they could still change the pick: its job cannot cost less than a floor (compute and the file
system for its hours, plus the bucket's requests; spot interruptions and a commitment's
unused term only add), so a count whose floor is above (1 + margin) x the cheapest job so
far is never within the margin of the final cheapest, and never the pick. With fixed `hours` more nodes cannot shorten the job, so
the fewest that fit are priced alone.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

from profiles.candidate import Candidate
from profiles.catalog.offering import Offering
from profiles.cost.estimate import JobHours, Rejection
from profiles.cost.estimate import job_hours as estimate_hours
from profiles.cost.pricing import HOURS_PER_MONTH, spot_overhead
from profiles.costing import candidates
from profiles.spec import WorkloadSpec

# A larger cluster must save more than this share of the job's cost to be taken over the
# fewest nodes that meet the deadline (a choice, not a sourced figure: about the error of the
# time model's scaling estimate, so a smaller saving is within what the model can tell apart).
DEFAULT_NODE_MARGIN = 0.05


def margin_of(spec: WorkloadSpec) -> float:
    """The workload's `node_margin`, or `DEFAULT_NODE_MARGIN`."""
    return DEFAULT_NODE_MARGIN if spec.node_margin is None else spec.node_margin


def _key(c: Candidate) -> tuple:
    return (c.purchase, c.reservation_id)


def _floor_price(c: Candidate) -> float:
    """The lowest USD per node-hour this purchase can bill at another node count (a Capacity
    Block blends its own rate with on-demand by hours, so its own rate bounds it)."""
    own = c.reservation.usd_per_hour if c.reservation is not None else c.usd_per_node_hour
    return min(c.usd_per_node_hour, own)


def _floor(c: Candidate, nodes: int, hours: float, interval: float) -> float:
    """The least the job of `c`'s purchase option can cost on `nodes` nodes running `hours`
    before spot interruptions, USD: compute and the file system for those hours plus what
    spot interruptions add, and the bucket's requests (a commitment's unused term and the
    data path's waits only add).

    Interruptions follow `profiles.cost.pricing.spot_overhead` at the rate and the time per
    interruption beyond the lost work (restart) that `c`'s own row implies, with checkpoints
    every `interval` hours."""
    base = c.hours - c.added_hours
    added = 0.0
    if c.interruptions > 0 and base > 0:
        rate = c.interruptions * HOURS_PER_MONTH / (base * c.nodes)
        restart = c.added_hours / c.interruptions - min(interval, base) / 2
        added = spot_overhead(hours, nodes, rate, interval, max(0.0, restart)).added_hours
    run = hours + added
    storage = (c.usd_storage or 0.0) / c.hours * run if c.hours > 0 else 0.0
    return _floor_price(c) * nodes * run + storage + (c.usd_requests or 0.0)


def _cheapest(rows: list[Candidate], deadline: float | None, low: dict[tuple, float]) -> dict[tuple, float]:
    """`low` (per purchase option, the cheapest on-time job so far, USD to the cent) updated
    with `rows`."""
    found = dict(low)
    for c in rows:
        if deadline is None or c.hours <= deadline:
            cost = round(c.usd_total, 2)
            found[_key(c)] = min(cost, found.get(_key(c), cost))
    return found


def hardware(offering: Offering) -> tuple:
    """What the time model reads of an offering (`profiles.cost.estimate.job_hours`): its
    type, accelerators and fabric, never its zone, region or price; measured speeds are
    registered per cloud and instance type (`profiles.measurements.speeds`)."""
    o = offering
    return (
        o.provider,
        o.instance_type,
        o.accelerator,
        o.accelerator_count,
        o.accelerator_memory_gib,
        o.form_factor,
        o.interconnect,
        o.network_gbps,
        o.max_efa_interfaces,
    )


def zone_copy_candidates(spec: WorkloadSpec, offering: Offering, memo: dict) -> list[Candidate] | Rejection:
    """`offering_candidates`, shared by zone copies: rows of one type, region and price in
    other zones cost the same (nothing but a held reservation reads the zone, and the
    zone-priced note reads only whether the row has one), so a copy reuses the first
    zone's rows with its own offering."""
    if spec.reservations:
        return offering_candidates(spec, offering, memo)
    key = ("zone copy", offering._replace(zone="" if offering.zone != offering.region else offering.region))
    if key not in memo:
        memo[key] = offering_candidates(spec, offering, memo)
    found = memo[key]
    if isinstance(found, Rejection) or not found or found[0].offering == offering:
        return found
    return [dataclasses.replace(c, offering=offering) for c in found]


def offering_candidates(
    spec: WorkloadSpec, offering: Offering, memo: dict[tuple, JobHours | Rejection] | None = None
) -> list[Candidate] | Rejection:
    """The candidates of one offering at the node count chosen per purchase option (see the
    module docstring), or the job-specific rejection of its last node count.

    Args:
        spec: the workload.
        offering: the row.
        memo: estimates by (`hardware`, nodes), shared by the rows of one resolve: zone and
            region copies of an instance type run the job in the same hours.
    """
    memo = {} if memo is None else memo
    kind = hardware(offering)

    def job_hours(nodes: int) -> JobHours | Rejection:
        key = (kind, nodes)
        if key not in memo:
            memo[key] = estimate_hours(spec, offering, nodes)
        return memo[key]

    counts = [n for n in spec.node_counts() if n == 1 or spec.interconnect != "rdma" or offering.rdma]
    deadline, margin = spec.deadline_hours, margin_of(spec)
    timed: list[tuple[int, JobHours]] = []
    rejection: Rejection | None = None
    start = None
    for i, nodes in enumerate(counts):
        estimate = job_hours(nodes)
        if isinstance(estimate, Rejection):
            rejection = estimate
            continue
        timed.append((nodes, estimate))
        if deadline is None or estimate.hours <= deadline:
            start = i
            break
    if not timed:
        return rejection if rejection is not None else []
    if start is None:  # no count meets the deadline: price the fastest only
        nodes, estimate = min(timed, key=lambda t: (t[1].hours, t[0]))
        return best_per_purchase(candidates(spec, offering, estimate, nodes), deadline, margin)
    nodes, estimate = timed[-1]
    built = candidates(spec, offering, estimate, nodes)
    if spec.work is None:
        return best_per_purchase(built, deadline, margin)  # fixed hours: more nodes cost more, finish no sooner
    return best_per_purchase(
        _search(spec, offering, built, [(n, job_hours(n)) for n in counts[start + 1 :]]), deadline, margin
    )


def _search(
    spec: WorkloadSpec, offering: Offering, built: list[Candidate], later: list[tuple[int, JobHours | Rejection]]
) -> list[Candidate]:
    """`built` (the fewest on-time count's rows) plus the rows of the larger counts that can
    decide a pick, in two passes over their floors (`_floor`, from each purchase option's
    row in `built`): first the counts that could be cheaper than the cheapest so far (lowest
    floor first), which settles each option's cheapest job; then, fewest nodes first, the
    counts that could be within the margin of it, until each option has one that is."""
    deadline, margin = spec.deadline_hours, margin_of(spec)
    firsts = {_key(c): c for c in reversed(built)}
    interval = spec.spot.checkpoint_interval_hours if spec.spot is not None else 0.0
    floors = {
        n: {k: round(_floor(c, n, e.hours, interval) * (1 - 1e-9), 2) for k, c in firsts.items()}
        for n, e in later
        if isinstance(e, JobHours)
    }
    hours = {n: e for n, e in later if isinstance(e, JobHours)}
    low = _cheapest(built, deadline, {})
    for n in sorted(floors, key=lambda n: min(floors[n].values())):
        if any(low.get(k) is None or f < low[k] for k, f in floors[n].items()):
            rows = candidates(spec, offering, hours[n], n)
            built += rows
            low = _cheapest(rows, deadline, low)
    bound = {k: round(v * (1 + margin), 2) for k, v in low.items() if v is not None}
    priced = {c.nodes for c in built}
    settled = {_key(c) for c in built if c.nodes == built[0].nodes and _fits(c, bound, deadline)}
    for n in floors:
        if settled >= set(firsts):
            break
        if n in priced:
            rows = [c for c in built if c.nodes == n]
        elif any(k not in settled and (k not in bound or f <= bound[k]) for k, f in floors[n].items()):
            rows = candidates(spec, offering, hours[n], n)
            built += rows
        else:
            continue
        settled |= {_key(c) for c in rows if _fits(c, bound, deadline)}
    return built


def _fits(c: Candidate, bound: dict[tuple, float], deadline: float | None) -> bool:
    """On time and within its purchase option's margin of the cheapest."""
    limit = bound.get(_key(c))
    return (deadline is None or c.hours <= deadline) and limit is not None and round(c.usd_total, 2) <= limit


def _picks(options: Iterable[Candidate], deadline: float | None, margin: float) -> list[tuple[Candidate, str]]:
    by_key: dict[tuple, list[Candidate]] = {}
    for c in options:
        by_key.setdefault(_key(c), []).append(c)
    return [choose_fewest(group, deadline, margin, _nodes) for group in by_key.values()]


def _nodes(c: Candidate) -> int:
    return c.nodes


def _noted(c: Candidate, note: str) -> Candidate:
    return dataclasses.replace(c, notes=(*c.notes, note)) if note else c


def best_per_purchase(options: Iterable[Candidate], deadline: float | None, margin: float) -> list[Candidate]:
    """Per purchase option (and held reservation), the node count to use (`pick_fewest`)."""
    return [_noted(pick, note) for pick, note in _picks(options, deadline, margin)]


def family_key(c: Candidate) -> tuple:
    """Sizes of one family: the same cloud, zone, accelerator and purchase (TPU slices,
    an instance type's sizes), told apart by accelerator count."""
    o = c.offering
    return (o.provider, o.zone, o.accelerator, o.form_factor, c.purchase, c.reservation_id)


def fewest_per_family(found: list[Candidate], deadline: float | None, margin: float) -> list[Candidate]:
    """Per family (`family_key`), the rows of the size `pick_fewest` takes (the fewest
    accelerators that meet the deadline unless a larger size is cheaper by more than
    `margin`), the pick with its note; rows of other sizes are dropped, as an offering's
    other node counts are. Rows of that size on other instance types stay."""
    by_family: dict[tuple, list[Candidate]] = {}
    for c in found:
        by_family.setdefault(family_key(c), []).append(c)
    kept: list[Candidate] = []
    for group in by_family.values():
        pick, note = choose_fewest(group, deadline, margin, accelerators)
        size = accelerators(pick)
        kept += [_noted(c, note) if c is pick else c for c in group if accelerators(c) == size]
    return kept


def accelerators(c: Candidate) -> int:
    """Accelerators of the whole cluster."""
    return c.nodes * c.offering.accelerator_count


def _size(c: Candidate) -> str:
    return f"{c.nodes} x {c.offering.instance_type}"


def pick_fewest(
    group: list[Candidate], deadline: float | None, margin: float, size: Callable[[Candidate], int]
) -> Candidate:
    """`choose_fewest`'s pick with its note."""
    return _noted(*choose_fewest(group, deadline, margin, size))


def choose_fewest(
    group: list[Candidate], deadline: float | None, margin: float, size: Callable[[Candidate], int]
) -> tuple[Candidate, str]:
    """The smallest (`size`) row meeting `deadline` unless a larger one is cheaper by more than
    `margin` (a share of the cost, to the cent), and a note saying why ("" when nothing needs
    saying); none meeting it: the fastest, then cheapest.

    The rows within `margin` of the cheapest on-time row are the ones a careful engineer
    cannot tell apart by cost; of those the fewest accelerators win.
    """
    on_time = [c for c in group if deadline is None or c.hours <= deadline]
    if not on_time:
        return min(group, key=Candidate.speed_key), ""
    if len(on_time) == 1:
        return on_time[0], ""
    cost = {id(c): round(c.usd_total, 2) for c in on_time}
    cheapest = min(cost.values())
    ranked = sorted(on_time, key=lambda c: (size(c), c.sort_key()))
    pick = next(c for c in ranked if cost[id(c)] <= round(cheapest * (1 + margin), 2))
    fewest = ranked[0]
    if size(pick) > size(fewest):
        more = fewest.usd_total / pick.usd_total - 1
        return pick, (
            f"{_size(pick)}, not {_size(fewest)} (fewer accelerators, also on time): that costs "
            f"${fewest.usd_total:,.2f}, {more:.1%} more, above the {margin:.0%} margin (`node_margin`)"
        )
    cheaper = [c for c in ranked if size(c) > size(pick) and cost[id(c)] <= cost[id(pick)]]
    if not cheaper:
        return pick, ""
    best = min(cheaper, key=lambda c: (cost[id(c)], size(c)))
    saving = 1 - best.usd_total / pick.usd_total
    how = "the same" if cost[id(best)] == cost[id(pick)] else f"{saving:.1%} less"
    return pick, (
        f"{_size(pick)}: the fewest accelerators on time; {_size(best)} would cost {how} "
        f"(${best.usd_total:,.2f}, {best.hours:,.1f} h), within the {margin:.0%} margin (`node_margin`), "
        "so the fewer are taken (less capacity and quota to get)"
    )
