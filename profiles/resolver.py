"""Pick the offering x purchase option that finishes the job cheapest within its deadline.

For each offering that matches the spec's static constraints, the job's hours follow from
its work (or are given), its memory fit, and its node count's scaling; each purchase
option (on-demand, spot with its interruption overhead, reserved terms when the capacity
is kept that long, capacity already held) is then costed as USD/hour x hours + storage.
With a node range each offering takes its cheapest node count that meets the deadline.
The cheapest job that meets the deadline wins; if none meets it, the cheapest of the rows
closest to it (within `CLOSE` of the fastest), each saying by how much it misses, and what
would meet it. Ties break on the faster run, then the safer purchase, then the faster
network, then names, so picks are stable.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from clouds.data import data_problem, holds
from clouds.filesystems import FileSystemAsk, file_system_problem
from clouds.healing import job_problem
from clouds.platform_job import job_problem as platform_job_problem
from clouds.platforms import ANY
from clouds.regions import in_mainland_china
from clouds.tracking import tracking_problem
from profiles.bootstrap_fit import bootstrap_problem
from profiles.candidate import Candidate
from profiles.catalog.offering import Offering
from profiles.catalog.platform_rows import derived, platform_reason
from profiles.cost.estimate import JobHours, Rejection, job_hours
from profiles.costing import PURCHASES, best_per_purchase, candidates, held
from profiles.data_row import tier_for
from profiles.explain import (
    CONSTRAINTS,
    NoMatchError,
    WorkloadFieldError,
    deadline_miss,
    min_nodes_note,
    nearest,
    no_match,
    reason,
)
from profiles.jurisdiction_fix import jurisdiction_fix
from profiles.known_names import checked_names
from profiles.link_sizing import for_link
from profiles.spec import FileSystemSpec, WorkloadSpec
from profiles.spec_values import KEYS
from profiles.units import too_long_work

if TYPE_CHECKING:
    from profiles.data_spec import DataSpec

__all__ = ["CONSTRAINTS", "Candidate", "NoMatchError", "PURCHASES", "Ranked", "Resolution", "resolve"]

# When no row meets the deadline, rows up to this much slower than the fastest are shown.
CLOSE = 0.05
# `what_would_meet` tries node counts up to this.
MAX_SUGGESTED_NODES = 1024


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
    """What makes two rows the same offering: all but the zone (cost to the cent); a managed
    platform's row is another offering than the VM row it was derived from."""
    o = c.offering
    return (
        o.provider,
        o.platform,
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
        candidates: every candidate that can run the job, cheapest first (for plots).
        to_meet: when no row meets the deadline, what would (more nodes, other
            accelerators); "" otherwise.
    """

    choice: Ranked
    alternatives: tuple[Ranked, ...]
    matched: int
    searched: int
    deadline_met: bool | None = None
    rejected: dict[str, tuple[int, str]] | None = None
    candidates: tuple[Candidate, ...] = ()
    to_meet: str = ""


def static_failures(spec: WorkloadSpec, wanted: frozenset[str], offering: Offering) -> Iterator[str]:
    """Yield, in `CONSTRAINTS` order, each catalog-level constraint `offering` fails."""
    if spec.providers and offering.provider not in spec.providers:
        yield "provider"
    if spec.regions and offering.region not in spec.regions:
        yield "region"
    if spec.jurisdiction == "cn-mainland" and not in_mainland_china(offering.provider, offering.region):
        yield "jurisdiction"
    if wanted and offering.accelerator not in wanted:
        yield "accelerator"
    if spec.platform not in (ANY, offering.platform):
        yield "platform"
    if spec.gpus_per_node and offering.accelerator_count != spec.gpus_per_node:
        yield "gpus_per_node"
    if spec.min_gpu_memory_gib and (offering.accelerator_memory_gib or 0) < spec.min_gpu_memory_gib:
        yield "gpu_memory"
    if spec.interconnect == "rdma" and spec.fewest_nodes > 1 and not offering.rdma:
        yield "interconnect"
    if all(offering.price(p) is None for p in PURCHASES[spec.purchase]) and not held(spec, offering, spec.nodes):
        yield "price"
    vm = offering.platform == "vm"  # a managed platform creates no file system and reads the bucket itself
    if spec.file_system and vm and _file_system_problem(spec, offering.provider):
        yield "file_system"
    if spec.data and vm and _data_problem(spec, offering.provider):
        yield "data"
    if spec.job and _job_problem(spec, offering):
        yield "job"


def _job_problem(spec: WorkloadSpec, offering: Offering) -> str | None:
    """Why the spec's job cannot run on `offering`'s nodes (`clouds.healing.job_problem`), or None."""
    assert spec.job is not None
    nproc = spec.job.nproc_per_node
    if tracked := tracking_problem(spec.job.tracking, None if offering.platform == "vm" else offering.platform):
        return tracked
    if offering.platform != "vm":  # the platform runs the job (`trainstack run`), not the node agent
        if nproc is not None and nproc > offering.accelerator_count:
            return f"job.nproc_per_node: at most {offering.accelerator_count} on {offering.instance_type}"
        return platform_job_problem(offering.platform, spec.job, spec.fewest_nodes)
    found = job_problem(offering.provider, offering.instance_type, nproc, offering.accelerator_count)
    return found or bootstrap_problem(spec, offering)


@functools.lru_cache(maxsize=64)
def _fs_problem(provider: str, capacity_gib: int, throughput: int) -> str | None:
    problem = file_system_problem(provider, FileSystemAsk(capacity_gib, throughput))
    return None if problem is None else _as_written(problem)


def _as_written(text: str) -> str:
    """A stack-side file-system message in the workload's words: the stack's `capacity_gib` and
    `throughput_mbps_per_tib` are the workload's `capacity` and `throughput` (their aliases)."""
    for name, key in KEYS[FileSystemSpec].items():
        if key.alias:
            text = re.sub(rf"\b{name}\b", key.alias, text)
    return text


def _file_system_problem(spec: WorkloadSpec, provider: str) -> str | None:
    """Why `provider` cannot create the spec's file system, or None (cached per provider)."""
    fs = for_link(spec, provider)[0].file_system
    assert fs is not None
    return _fs_problem(provider, math.ceil(fs.capacity_gib), tier_for(provider, fs))


@functools.lru_cache(maxsize=64)
def _link_problem(provider: str, data: DataSpec, file_system: tuple[float, int] | None) -> str | None:
    problem = data_problem(provider, data.config(), file_system is not None, file_system)
    return None if problem is None else _as_written(problem)


def _data_detail(details: dict[str, str], spec: WorkloadSpec, provider: str) -> None:
    """Keep the first `data` rejection, unless this provider holds the bucket: its reason
    (a missing field, a bad URI) is the one that helps."""
    assert spec.data is not None
    problem = str(_data_problem(spec, provider))
    if holds(provider, spec.data.source):
        details["data"] = problem
    else:
        details.setdefault("data", problem)


def _data_problem(spec: WorkloadSpec, provider: str) -> str | None:
    """Why `provider` cannot link the spec's dataset (its bucket is another cloud's, say), or None."""
    assert spec.data is not None
    fs = for_link(spec, provider)[0].file_system
    sizing = (fs.capacity_gib, tier_for(provider, fs)) if fs is not None else None
    return _link_problem(provider, spec.data, sizing)


def all_failures(spec: WorkloadSpec, wanted: frozenset[str], offering: Offering) -> list[str]:
    """Every constraint `offering` fails, job-specific checks included."""
    found = list(static_failures(spec, wanted, offering))
    estimate = job_hours(spec, offering)
    return found + [estimate.constraint] if isinstance(estimate, Rejection) else found


def _rank(spec: WorkloadSpec, found: list[Candidate]) -> tuple[list[Candidate], bool | None]:
    """Rows in rank order and whether the deadline is met (None without one).

    When no row meets the deadline, the rows within `CLOSE` of the fastest are shown,
    cheapest first: a run a few percent slower than the fastest at a fraction of its cost
    is what a careful engineer would take, not the single fastest row.
    """
    if spec.deadline_hours is None:
        return sorted(found, key=Candidate.sort_key), None
    on_time = [c for c in found if c.hours <= spec.deadline_hours]
    if on_time:
        return sorted(on_time, key=Candidate.sort_key), True
    fastest = min(c.hours for c in found)
    closest = [c for c in found if c.hours <= fastest * (1 + CLOSE)]
    return sorted(closest, key=Candidate.sort_key), False


def _offering_candidates(spec: WorkloadSpec, offering: Offering) -> list[Candidate] | Rejection:
    """The candidates of one offering at the node count chosen per purchase option, or the
    job-specific rejection of its last node count."""
    options: list[Candidate] = []
    rejection: Rejection | None = None
    for nodes in spec.node_counts():
        if spec.interconnect == "rdma" and nodes > 1 and not offering.rdma:
            continue
        estimate = job_hours(spec, offering, nodes)
        if isinstance(estimate, Rejection):
            rejection = estimate
            continue
        options.extend(candidates(spec, offering, estimate, nodes))
    if not options and rejection is not None:
        return rejection
    return best_per_purchase(options, spec.deadline_hours)


def resolve(spec: WorkloadSpec, offerings: tuple[Offering, ...] | list[Offering], top: int = 5) -> Resolution:
    """Rank every way to run the job by its total cost.

    With a node range (`nodes: 2-16`, `auto`) each offering is costed at every count of the
    range and keeps, per purchase option, the cheapest count that meets the deadline.

    Args:
        spec: the workload.
        offerings: the loaded catalog.
        top: how many rows to return (choice included), at least 1: distinct offerings,
            each zone copy folded into its best-ranked zone's row (`Ranked.also_zones`).

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
    for offering in offerings:
        failure = next(static_failures(spec, wanted, offering), None)
        kept = _offering_candidates(spec, offering) if failure is None else []
        if isinstance(kept, Rejection):
            failure = kept.constraint
            details.setdefault(failure, f"{offering.instance_type}: {kept.detail}")
            if kept.hours is not None and (fastest is None or kept.hours < (fastest.hours or 0)):
                fastest = kept
        if failure == "file_system":
            details.setdefault(failure, f"{offering.provider}: {_file_system_problem(spec, offering.provider)}")
        if failure == "data":
            _data_detail(details, spec, offering.provider)
        if failure == "job":
            details.setdefault(failure, str(_job_problem(spec, offering)))
        if failure is not None:
            failed.setdefault(failure, []).append(offering)
        elif isinstance(kept, list):
            found.extend(kept)
    if not found and fastest is not None and max(failed, key=CONSTRAINTS.index) == "run_time":
        assert fastest.hours is not None
        raise WorkloadFieldError(too_long_work(fastest.hours, fastest.detail.split(" on ", 1)[1]))
    if not found:
        near = nearest(offerings, lambda o: all_failures(spec, wanted, o))
        fixes = {"jurisdiction": jurisdiction_fix(spec, offerings)} if spec.jurisdiction != "any" else {}
        raise no_match(failed, details, near, spec.gpus_key, fixes)
    ranked, deadline_met = _rank(spec, found)
    note, to_meet = "", ""
    if deadline_met is not None and spec.deadline_hours is not None:
        note = f", meets the {spec.deadline_hours:g} h deadline"
        if not deadline_met:
            to_meet = what_would_meet(spec, ranked[0])
            note = f"; none meets the {spec.deadline_hours:g} h deadline: cheapest within {CLOSE:.0%} of the fastest"
    note += min_nodes_note(spec)
    rows = distinct_offerings(ranked)[: max(top, 1)]
    kept_rows = tuple(
        Ranked(
            c,
            reason(c, rows[i - 1][0] if i else None, len(found), note)
            + deadline_miss(c, spec.deadline_hours)
            + platform_reason(c.offering)
            + _zones_note(zones),
            zones,
        )
        for i, (c, zones) in enumerate(rows)
    )
    rejected = {k: (len(failed[k]), details[k]) for k in details}
    everything = sorted(found, key=Candidate.sort_key)
    return Resolution(
        kept_rows[0], kept_rows[1:], len(found), len(offerings), deadline_met, rejected, tuple(everything), to_meet
    )


def _zones_note(zones: tuple[str, ...]) -> str:
    """`; also in use2-az2, use2-az3 at the same cost` for a row with zone copies, else ""."""
    return f"; also in {', '.join(zones)} at the same cost" if zones else ""


def what_would_meet(spec: WorkloadSpec, best: Candidate) -> str:
    """What would meet the deadline the rows miss: more nodes of the best row's offering
    (the fewest that do, up to `MAX_SUGGESTED_NODES`), else faster accelerators or regions.

    With `hours` given the run time is the same on every offering and node count, so neither
    can help: it says what fixes the miss instead (see `_fixed_hours_advice`)."""
    assert spec.deadline_hours is not None
    if spec.work is None:
        return _fixed_hours_advice(spec, best)
    o = best.offering
    for nodes in sorted(
        {
            n
            for n in (*range(best.nodes + 1, best.nodes + 33), *(2**k for k in range(14)))
            if best.nodes < n <= MAX_SUGGESTED_NODES
        }
    ):
        if spec.interconnect == "rdma" and not o.rdma:
            break
        estimate = job_hours(spec, o, nodes)
        if isinstance(estimate, JobHours):
            rows = [c for c in candidates(spec, o, estimate, nodes) if c.purchase == best.purchase]
            if rows and rows[0].hours <= spec.deadline_hours:
                c = rows[0]
                return (
                    f"to meet it: {nodes} nodes of {o.instance_type} {c.purchase} finish in {c.hours:,.1f} h "
                    f"for ${c.usd_total:,.2f} (set `nodes: {spec.nodes}-{nodes}` or `nodes: auto`)"
                )
    return (
        f"to meet it: no node count up to {MAX_SUGGESTED_NODES} of {o.instance_type} does; allow faster "
        "accelerators or other regions, or relax the deadline"
    )


def _fixed_hours_advice(spec: WorkloadSpec, best: Candidate) -> str:
    """Why more nodes or faster accelerators cannot meet the deadline of a spec that gives its
    `hours`, and what can: the work instead of the hours, or a later deadline; when only what
    the row adds (spot interruptions, data staging) pushes it over, the purchase or checkpoints."""
    assert spec.hours is not None and spec.deadline_hours is not None
    given = f"`hours: {spec.hours:g}` fixes the run time on every offering and node count"
    if spec.hours > spec.deadline_hours:
        return (
            f"the {spec.deadline_hours:g} h deadline cannot be met: {given}, so more nodes or faster "
            "accelerators cannot shorten it; give the work instead (`work: {gpu_hours: N, reference: A100-80GB}` "
            f"or `work: {{params: P, tokens: T}}`) so the hours follow per offering, or set `deadline` to at least "
            f"{spec.hours:g} h"
        )
    added = best.hours - spec.hours
    return (
        f"to meet it: {given} and fits the {spec.deadline_hours:g} h deadline, but this row adds {added:,.2f} h "
        "(spot interruptions, data staging); allow on-demand (`purchase: any`), checkpoint more often "
        "(`spot.checkpoint_interval`), or relax the deadline"
    )
