"""How many nodes to price per offering: a bounded search for the counts `profiles.choice.fewest`
chooses from (the fewest nodes that meet the deadline unless more are cheaper by more than
`node_margin`).

The search is bounded (`offering_candidates`): counts below the first one that meets the
deadline are only timed, never priced; larger counts are timed, then priced in order of their
floor (the likely cheapest first) and only when they could still change the pick. A count's
job cannot cost less than its floor (compute and the file system for its hours, spot
interruptions at the row's own rate, the bucket's requests; a commitment's unused term and
the data path's waits only add: `profiles.choice.search_bounds`), so a count whose floor is
above (1 + margin) x the cheapest job so far is never within the margin of the final cheapest,
and never the pick. With fixed `hours` more nodes cannot shorten the job, so the fewest that fit
are priced alone. Zone copies of one type, region and price share their rows, and every row of
one instance type shares its time estimates (`hardware`).
"""

from __future__ import annotations

import dataclasses
import operator

from profiles.candidate import Candidate
from profiles.catalog.offering import Offering
from profiles.choice.fewest import best_per_purchase, choice_cost, margin_of, purchase_key
from profiles.choice.search_bounds import (
    cheapest_on_time,
    first_on_time,
    job_floor,
    least_floor,
    reference_hours,
    within_margin,
)
from profiles.cost.estimate import JobHours, Rejection
from profiles.cost.estimate import job_hours as estimate_hours
from profiles.costing import candidates
from profiles.spec import WorkloadSpec


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
    return [_in_zone(c, offering) for c in found]


# A Candidate's fields after `offering` (its first), read in one call (`_in_zone`).
assert dataclasses.fields(Candidate)[0].name == "offering"
_AFTER_OFFERING = operator.attrgetter(*[f.name for f in dataclasses.fields(Candidate) if f.init][1:])


def _in_zone(c: Candidate, offering: Offering) -> Candidate:
    """`c` on `offering` (a zone copy: the same cost), as `dataclasses.replace` would give, at a
    third of its cost (a resolve makes about a thousand)."""
    return Candidate(offering, *_AFTER_OFFERING(c))


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
    if start is None:  # no count meets the deadline: the fastest row of each purchase option
        return best_per_purchase(_fastest(spec, offering, timed), deadline, margin)
    nodes, estimate = timed[-1]
    built = candidates(spec, offering, estimate, nodes)
    if spec.work is None:
        return best_per_purchase(built, deadline, margin)  # fixed hours: more nodes cost more, finish no sooner
    built = _search(spec, offering, built, [(n, job_hours(n)) for n in counts[start + 1 :]])
    picks = best_per_purchase(built, deadline, margin)
    late = {purchase_key(c) for c in picks if deadline is not None and c.hours > deadline}
    if not late:
        return picks
    # An option late at every count (spot interruptions grow with the nodes): the fastest of
    # its rows, which may be at a count whose estimate alone missed the deadline.
    priced = {c.nodes for c in built}
    for nodes in counts:
        estimate = job_hours(nodes)
        if nodes not in priced and isinstance(estimate, JobHours):
            built += [c for c in candidates(spec, offering, estimate, nodes) if purchase_key(c) in late]
    return best_per_purchase(built, deadline, margin)


def _fastest(spec: WorkloadSpec, offering: Offering, timed: list[tuple[int, JobHours]]) -> list[Candidate]:
    """The rows of the counts that can hold a purchase option's fastest run, fastest estimate
    first: a row runs at least its estimate's hours, so a count whose estimate is slower than
    every option's fastest row so far cannot (spot interruptions grow with the nodes, so the
    fastest spot run can be at fewer nodes than the fastest estimate)."""
    built: list[Candidate] = []
    for nodes, estimate in sorted(timed, key=lambda t: (t[1].hours, t[0])):
        fastest: dict[tuple, float] = {}
        for c in built:
            fastest[purchase_key(c)] = min(c.hours, fastest.get(purchase_key(c), c.hours))
        if fastest and estimate.hours > max(fastest.values()):
            break
        built += candidates(spec, offering, estimate, nodes)
    return built


def _search(
    spec: WorkloadSpec, offering: Offering, built: list[Candidate], later: list[tuple[int, JobHours | Rejection]]
) -> list[Candidate]:
    """`built` (the fewest on-time count's rows) plus the rows of the larger counts that can
    decide a pick, in two passes over their floors (`search_bounds.job_floor`, from each purchase
    option's row in `built`): first the counts that could be cheaper than the cheapest so far (lowest
    floor first), which settles each option's cheapest job; then, fewest nodes first, the
    counts that could be within the margin of it, until each option has one that is. Costs
    are `choice_cost`s, the file system kept for the run of each option's fewest on-time
    count (priced first, fewest nodes first, where the first count's row is late)."""
    deadline, margin = spec.deadline_hours, margin_of(spec)
    firsts = {purchase_key(c): c for c in reversed(built)}
    interval = spec.spot.checkpoint_interval_hours if spec.spot is not None else 0.0
    hours = {n: e for n, e in later if isinstance(e, JobHours)}
    if not hours:
        return built
    if len(firsts) == len(built) and all(deadline is None or c.hours <= deadline for c in built):
        # The common case, settled cheaply: one on-time row per option, and no larger count's
        # floor is low enough to take it out of the margin.
        least = least_floor(firsts, hours, {k: c.hours for k, c in firsts.items()})
        if all(round(least[k] * (1 + margin), 2) >= round(c.usd_total, 2) for k, c in firsts.items()):
            return built
    reference = reference_hours(built, deadline)
    for n, e in hours.items():
        if len(reference) == len(firsts):
            break
        rows = candidates(spec, offering, e, n)
        built += rows
        reference = {**reference_hours(rows, deadline), **reference}
    priced = {c.nodes for c in built}
    low = cheapest_on_time(built, deadline, {}, reference)
    fewest = {k: choice_cost(c, c.hours) for k, c in first_on_time(built, deadline).items()}

    def could_change(k: tuple, floor: float) -> bool:
        """Whether a count with this floor could change option `k`'s pick: be cheaper than the
        cheapest so far while the fewest on-time row is already out of the margin, or cheap
        enough to put it out."""
        if low.get(k) is None or floor >= low[k]:
            return low.get(k) is None
        out = k not in fewest or fewest[k] > round(low[k] * (1 + margin), 2)
        return out or round(floor * (1 + margin), 2) < fewest[k]

    if not any(could_change(k, f) for k, f in least_floor(firsts, hours, reference).items()):
        bound = {k: round(v * (1 + margin), 2) for k, v in low.items() if v is not None}
        if all(within_margin(c, bound, deadline, reference) for c in firsts.values()):
            return built  # no larger count can be cheaper enough to matter: the common case, settled
    floors = {
        n: {
            k: round(job_floor(c, n, e.hours, interval, reference.get(k, 0.0)) * (1 - 1e-9), 2)
            for k, c in firsts.items()
        }
        for n, e in hours.items()
    }
    for n in sorted(floors, key=lambda n: min(floors[n].values())):
        if n not in priced and any(could_change(k, f) for k, f in floors[n].items()):
            rows = candidates(spec, offering, hours[n], n)
            built += rows
            priced.add(n)
            low = cheapest_on_time(rows, deadline, low, reference)
    bound = {k: round(v * (1 + margin), 2) for k, v in low.items() if v is not None}
    settled = {
        purchase_key(c) for c in built if c.nodes == built[0].nodes and within_margin(c, bound, deadline, reference)
    }
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
        settled |= {purchase_key(c) for c in rows if within_margin(c, bound, deadline, reference)}
    return built
