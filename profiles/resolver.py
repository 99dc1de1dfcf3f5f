"""Pick the offering x purchase option that finishes the job cheapest within its deadline.

For each offering that matches the spec's static constraints, the job's hours follow from
its work (or are given), its memory fit, and its node count's scaling; each purchase
option (on-demand, spot with its interruption overhead, reserved terms when the capacity
is kept that long, capacity already held) is then costed as USD/hour x hours + storage.
With a node range each offering takes the fewest nodes that meet the deadline, and of the
sizes of one family (TPU slices, an instance type's sizes) the fewest accelerators, unless a
larger one is cheaper by more than `node_margin` (`profiles.choice.fewest`).
The cheapest job that meets the deadline wins; if none meets it, the cheapest of the rows
closest to it (within `CLOSE` of the fastest), each saying by how much it misses, and what
would meet it. Rows with a caveat (a spot price the catalog does not believe, a file system
below the stated throughput) rank after every row without one. Ties break on fewer
accelerators, then the faster run, then the safer purchase, then the faster
network, then names, so picks are stable.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from profiles.candidate import Candidate
from profiles.catalog.loader import PROVIDERS
from profiles.catalog.offering import Offering
from profiles.catalog.platform_rows import derived, platform_reason
from profiles.choice.fewest import fewest_per_family, margin_of
from profiles.choice.gaps import clouds_without_rows
from profiles.choice.live import Key, LiveScore, with_live_scores
from profiles.choice.nodes import zone_copy_candidates
from profiles.choice.price_checks import with_price_findings, with_spot_risks
from profiles.cost.commitment import dropped_note
from profiles.cost.estimate import Rejection
from profiles.costing import PURCHASES
from profiles.explain import (
    CONSTRAINTS,
    NoMatchError,
    WorkloadFieldError,
    caveat_note,
    deadline_miss,
    min_nodes_note,
    nearest,
    no_match,
    reason,
)
from profiles.fixes import jurisdiction_fix, what_would_meet
from profiles.known_names import checked_names
from profiles.matching import data_detail, each_failure, file_system_detail, job_detail, static_failures
from profiles.spec import AUTO_MAX_NODES, WorkloadSpec
from profiles.spec.units import too_long_work
from profiles.stack.fallbacks import fallback_reason

__all__ = ["CONSTRAINTS", "Candidate", "NoMatchError", "PURCHASES", "Ranked", "Resolution", "resolve"]

# When no row meets the deadline, rows up to this much slower than the fastest are shown.
CLOSE = 0.05
FLEX_TOO_LONG = (
    "purchase: flex-start: every offering sold as flex-start runs this job longer than one flex-start request "
    "may run (7 days, less the request's margin); add nodes, split the job at checkpoints into "
    "shorter runs, or set purchase: on-demand (or any)"
)


@dataclass(frozen=True)
class Ranked:
    """A kept candidate and why it ranks where it does.

    Attributes:
        candidate: the row (its zone is the best-ranked one of its copies).
        reason: why it ranks there, against the row above.
        also_zones: other zones of the same region selling the same offering at the same
            cost (zone copies folded into this row), best-ranked first.
    """

    candidate: Candidate
    reason: str
    also_zones: tuple[str, ...] = ()


def _copy_key(c: Candidate) -> tuple:
    """What makes two rows the same offering: all but the zone (cost to the cent)."""
    o = c.offering
    return (
        o.provider,
        o.platform,  # a managed platform's row is another offering than the VM row it was derived from
        o.region,
        o.instance_type,
        o.accelerator,
        c.nodes,
        c.purchase,
        round(c.usd_total, 2),
        c.hours,
    )


def distinct_offerings(ranked: list[Candidate]) -> list[tuple[Candidate, tuple[str, ...]]]:
    """One entry per distinct offering, in rank order: zone copies (the same type, region,
    purchase and cost in another zone) fold into the best-ranked, whose entry lists their zones."""
    groups: dict[tuple, list[Candidate]] = {}
    for c in ranked:
        groups.setdefault(_copy_key(c), []).append(c)
    return [(first, tuple(c.offering.zone for c in rest)) for first, *rest in groups.values()]


@dataclass(frozen=True)
class Resolution:
    """The resolver's answer.

    Attributes:
        choice: the cheapest job meeting the deadline (if none does, the cheapest of the
            rows within `CLOSE` of the fastest).
        alternatives: the next rows, best first, each with why it ranks below the row above.
        matched: number of candidates (offering x purchase) that can run the job.
        searched: number of offerings examined.
        deadline_met: None without a deadline; else whether the choice meets it.
        rejected: constraint -> (offerings removed, one example's numbers) for the
            job-specific checks (memory_fit, throughput).
        candidates: every candidate that can run the job, cheapest first (for plots): each
            offering at its node count, every size of a family (`profiles.choice.fewest`).
        clouds: each allowed cloud that gave no row -> why (`profiles.choice.gaps`).
        to_meet: when no row meets the deadline, what would (more nodes, other
            accelerators); "" otherwise.
        hours_bound: the longest run, hours, a row of the pick's class may take: the deadline
            when a row meets it, `CLOSE` over the fastest row when none does, None without a
            deadline. Fallbacks (the group's other types, the stack's rows) keep to it.
    """

    choice: Ranked
    alternatives: tuple[Ranked, ...]
    matched: int
    searched: int
    deadline_met: bool | None = None
    rejected: dict[str, tuple[int, str]] | None = None
    candidates: tuple[Candidate, ...] = ()
    to_meet: str = ""
    clouds: dict[str, str] | None = None
    hours_bound: float | None = None

    @property
    def movable(self) -> tuple[Candidate, ...]:
        """The candidates (cheapest first) a fallback may take: those within `hours_bound`."""
        return _within(self.candidates, self.hours_bound)


def _within(candidates: tuple[Candidate, ...], bound: float | None) -> tuple[Candidate, ...]:
    return candidates if bound is None else tuple(c for c in candidates if c.hours <= bound)


def _rank(spec: WorkloadSpec, found: list[Candidate]) -> tuple[list[Candidate], bool | None, float | None]:
    """Rows in rank order, whether the deadline is met (None without one) and the longest run
    a row may take (`Resolution.hours_bound`).

    When no row meets the deadline, the rows within `CLOSE` of the fastest are shown,
    cheapest first: a run a few percent slower than the fastest at a fraction of its cost
    is what a careful engineer would take, not the single fastest row.
    """
    if spec.deadline_hours is None:
        return sorted(found, key=Candidate.sort_key), None, None
    on_time = [c for c in found if c.hours <= spec.deadline_hours]
    if on_time:
        return sorted(on_time, key=Candidate.sort_key), True, spec.deadline_hours
    bound = min(c.hours for c in found) * (1 + CLOSE)
    closest = [c for c in found if c.hours <= bound]
    return sorted(closest, key=Candidate.sort_key), False, bound


def resolve(
    spec: WorkloadSpec,
    offerings: tuple[Offering, ...] | list[Offering],
    top: int = 5,
    live: Mapping[Key, LiveScore] | None = None,
) -> Resolution:
    """Rank every way to run the job by its total cost.

    With a node range (`nodes: 2-16`, `auto`) each offering keeps, per purchase option, the
    fewest nodes that meet the deadline unless more are cheaper by more than `node_margin`
    (`profiles.choice.nodes` bounds the counts it prices).

    Args:
        spec: the workload.
        offerings: the loaded catalog.
        top: how many rows to return (choice included), at least 1: distinct offerings,
            each zone copy folded into its best-ranked zone's row (`Ranked.also_zones`).
        live: the clouds' live answers for spot pools (`resolve --live`,
            `profiles.choice.live`): a low one ranks its rows after the rest.

    Returns:
        The choice and up to `top - 1` alternatives, each with a reason.

    Raises:
        NoMatchError: an unknown accelerator, region or reservation type or zone
            (`profiles.known_names`), or nothing can run the job (names the
            constraint that removed the last candidates, its numbers, the nearest
            offerings and a fix).
    """
    offerings = derived(offerings, spec.platform)  # managed-platform rows beside the VM rows
    wanted = checked_names(spec, offerings)
    found: list[Candidate] = []
    failed: dict[str, list[Offering]] = {}
    details: dict[str, str] = {}
    fastest: Rejection | None = None  # the shortest run that is still over the run-time limit
    memo: dict = {}  # job estimates by hardware and node count (`profiles.choice.nodes.hardware`)
    by_cloud: dict[tuple[str, str], str] = {}  # (cloud, constraint) -> the first rejection's numbers
    for offering in offerings:
        failure = next(static_failures(spec, wanted, offering), None)
        kept = zone_copy_candidates(spec, offering, memo) if failure is None else []
        if isinstance(kept, Rejection):
            failure = kept.constraint
            details.setdefault(failure, f"{offering.instance_type}: {kept.detail}")
            if kept.hours is not None and (fastest is None or kept.hours < (fastest.hours or 0)):
                fastest = kept
        if failure == "file_system":
            details.setdefault(failure, f"{offering.provider}: {file_system_detail(spec, offering.provider)}")
        if failure == "data":
            data_detail(details, spec, offering.provider)
        if failure == "job":
            details.setdefault(failure, str(job_detail(spec, offering)))
        if failure is not None:
            failed.setdefault(failure, []).append(offering)
            if isinstance(kept, Rejection):
                by_cloud.setdefault((offering.provider, failure), kept.detail)
        elif isinstance(kept, list):
            found.extend(kept)
    if not found and fastest is not None and max(failed, key=CONSTRAINTS.index) == "run_time":
        assert fastest.hours is not None
        fixed = spec.nodes if spec.max_nodes is None else None
        where = fastest.detail.split(" on ", 1)[1]
        raise WorkloadFieldError(too_long_work(fastest.hours, where, fixed, AUTO_MAX_NODES))
    if not found and spec.purchase == "flex-start" and sum(map(len, failed.values())) < len(offerings):
        raise NoMatchError(FLEX_TOO_LONG)  # rows passed every check, and each ran longer than a request
    if not found:
        near = nearest(offerings, lambda o: each_failure(spec, wanted, o))
        fixes = {"jurisdiction": jurisdiction_fix(spec, offerings)} if spec.jurisdiction != "any" else {}
        raise no_match(failed, details, near, spec.gpus_key, fixes)
    found = with_live_scores(with_spot_risks(found, offerings), live or {})
    everything = sorted(found, key=Candidate.sort_key)
    found = fewest_per_family(found, spec.deadline_hours, margin_of(spec))
    ranked, deadline_met, bound = _rank(spec, found)
    movable = _within(tuple(everything), bound)  # what fallbacks may take
    note, to_meet = "", ""
    if deadline_met is not None and spec.deadline_hours is not None:
        note = f", meets the {spec.deadline_hours:g} h deadline"
        if not deadline_met:
            to_meet = what_would_meet(spec, ranked[0])
            note = f"; none meets the {spec.deadline_hours:g} h deadline: cheapest within {CLOSE:.0%} of the fastest"
    note += min_nodes_note(spec) + dropped_note(spec.commitment, ranked[0], everything)
    shown = distinct_offerings(ranked)[: max(top, 1)]
    rows = list(zip(with_price_findings([c for c, _ in shown], offerings), [z for _, z in shown], strict=True))
    kept_rows = tuple(
        Ranked(
            c,
            reason(c, rows[i - 1][0] if i else None, len(found), note)
            + deadline_miss(c, spec.deadline_hours)
            + caveat_note(c, rows[i - 1][0] if i else None)
            + platform_reason(c.offering)
            + _zones_note(zones)
            + fallback_reason(c, movable, spec.interconnect),
            zones,
        )
        for i, (c, zones) in enumerate(rows)
    )
    rejected = {k: (len(failed[k]), details[k]) for k in details}
    gaps = clouds_without_rows(spec.providers or PROVIDERS, offerings, found, failed, by_cloud)
    return Resolution(
        kept_rows[0],
        kept_rows[1:],
        len(found),
        len(offerings),
        deadline_met,
        rejected,
        tuple(everything),
        to_meet,
        gaps,
        bound,
    )


def _zones_note(zones: tuple[str, ...]) -> str:
    """`; also in use2-az2, use2-az3 at the same cost` for a row with zone copies, else ""."""
    return f"; also in {', '.join(zones)} at the same cost" if zones else ""
