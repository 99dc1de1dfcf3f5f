"""Pick the offering x purchase option that finishes the job cheapest within its deadline.

For each offering that matches the spec's static constraints, the job's hours follow from
its work (or are given), its memory fit, and its node count's scaling; each purchase
option (on-demand, spot with its interruption overhead, reserved terms when the capacity
is kept that long, capacity already held) is then costed as USD/hour x hours + storage.
The cheapest job that meets the deadline wins; if none meets it, the fastest is shown.
Ties break on the safer purchase, then the faster network, then names, so picks are stable.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from profiles.candidate import Candidate
from profiles.catalog.offering import Offering
from profiles.cost.estimate import JobHours, Rejection, job_hours
from profiles.cost.pricing import reserved_usd_per_hour, spot_overhead_hours, storage_note, storage_usd
from profiles.explain import CONSTRAINTS, NoMatchError, nearest, no_match, reason
from clouds.contract import FileSystemConfig
from clouds.filesystems import file_system_problem
from facts.regions import in_mainland_china
from profiles.spec import WorkloadSpec

__all__ = ["CONSTRAINTS", "Candidate", "NoMatchError", "Ranked", "Resolution", "resolve"]

PURCHASES = {"any": ("on-demand", "spot"), "spot": ("spot",), "on-demand": ("on-demand",)}
# Clouds whose component cannot launch spot from a stack file: Tencent spot needs a bid in
# the account's currency (`spot_max_price`, clouds/tencentcloud/purchase.py), which the
# contract does not carry; a spot pick there would write a stack `plan` refuses.
NO_SPOT_FROM_STACK = frozenset({"tencentcloud"})


@dataclass(frozen=True)
class Ranked:
    """A kept candidate and why it ranks where it does."""

    candidate: Candidate
    reason: str


@dataclass(frozen=True)
class Resolution:
    """The resolver's answer.

    Attributes:
        choice: the cheapest job meeting the deadline (or the fastest, if none does).
        alternatives: the next rows, best first, each with why it ranks below the row above.
        matched: number of candidates (offering x purchase) that can run the job.
        searched: number of offerings examined.
        deadline_met: None without a deadline; else whether the choice meets it.
        rejected: constraint -> (offerings removed, one example's numbers) for the
            job-specific checks (memory_fit, throughput).
        candidates: every candidate that can run the job, in rank order (for plots).
    """

    choice: Ranked
    alternatives: tuple[Ranked, ...]
    matched: int
    searched: int
    deadline_met: bool | None = None
    rejected: dict[str, tuple[int, str]] | None = None
    candidates: tuple[Candidate, ...] = ()


def _accelerator_names(spec: WorkloadSpec, offerings: Iterable[Offering]) -> frozenset[str]:
    known = {o.accelerator.casefold(): o.accelerator for o in offerings
             if not spec.providers or o.provider in spec.providers}
    if not known and spec.providers:
        clouds = ", ".join(spec.providers)
        raise NoMatchError(f"providers: the catalog has no priced offerings for {clouds}; fetch prices with "
                           f"`trainstack catalog refresh --provider {spec.providers[0]}` or allow other clouds")
    unknown = [n for n in spec.accelerators if n.casefold() not in known]
    if unknown:
        import difflib  # only on the error path

        close = difflib.get_close_matches(unknown[0], sorted(known.values()), n=3, cutoff=0.4)
        hint = f"did you mean {', '.join(close)}?" if close else f"known: {', '.join(sorted(known.values()))}"
        raise NoMatchError(f"accelerators: the catalog has no '{unknown[0]}'; {hint}")
    return frozenset(known[n.casefold()] for n in spec.accelerators)


def _held(spec: WorkloadSpec, offering: Offering) -> list:
    return [r for r in spec.reservations if (r.provider, r.instance_type, r.zone) ==
            (offering.provider, offering.instance_type, offering.zone) and r.nodes >= spec.nodes]


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
    if spec.gpus_per_node and offering.accelerator_count != spec.gpus_per_node:
        yield "gpus_per_node"
    if spec.min_gpu_memory_gib and (offering.accelerator_memory_gib or 0) < spec.min_gpu_memory_gib:
        yield "gpu_memory"
    if spec.interconnect == "rdma" and spec.nodes > 1 and not offering.rdma:
        yield "interconnect"
    if all(offering.price(p) is None for p in PURCHASES[spec.purchase]) and not _held(spec, offering):
        yield "price"
    if spec.file_system and _file_system_problem(spec, offering.provider):
        yield "file_system"


@functools.lru_cache(maxsize=64)
def _fs_problem(provider: str, capacity_gib: int, throughput: int) -> str | None:
    return file_system_problem(provider, FileSystemConfig(capacity_gib=capacity_gib, throughput_mbps_per_tib=throughput))


def _file_system_problem(spec: WorkloadSpec, provider: str) -> str | None:
    """Why `provider` cannot create the spec's file system, or None (cached per provider)."""
    fs = spec.file_system
    assert fs is not None
    return _fs_problem(provider, math.ceil(fs.capacity_gib), fs.throughput_mbps_per_tib)


def all_failures(spec: WorkloadSpec, wanted: frozenset[str], offering: Offering) -> list[str]:
    """Every constraint `offering` fails, job-specific checks included."""
    found = list(static_failures(spec, wanted, offering))
    estimate = job_hours(spec, offering)
    return found + [estimate.constraint] if isinstance(estimate, Rejection) else found


def _price_notes(offering: Offering) -> tuple[str, ...]:
    """Both currencies for rows listed in another currency, and any estimate flag."""
    notes: tuple[str, ...] = ()
    if offering.currency != "USD" and offering.on_demand_native is not None:
        notes += (f"listed as {offering.on_demand_native:,.2f} {offering.currency}/h per node",)
    return notes + ((offering.price_note,) if offering.price_note else ())


def _reserved_price(offering: Offering, on_demand: float, term: str) -> float | None:
    """The live reserved price of the row when a refresh recorded one, else the discount
    estimate from `profiles.cost.pricing` (USD/hour, amortized over the term)."""
    live = offering.reserved_1y_usd_per_hour if term == "1y" else offering.reserved_3y_usd_per_hour
    return live if live is not None else reserved_usd_per_hour(on_demand, offering.provider, term)


def candidates(spec: WorkloadSpec, offering: Offering, job: JobHours) -> list[Candidate]:
    """Every priced way to buy `offering` for the job, each costed for the whole job."""
    storage, notes = None, job.notes + _price_notes(offering)
    if spec.file_system:
        fs = spec.file_system
        storage = storage_usd(offering.provider, fs.capacity_gib, fs.throughput_mbps_per_tib, job.hours)
        note = storage_note(offering.provider, fs.throughput_mbps_per_tib)
        notes += (note,) if note else ()
    prices: list[tuple[str, float, float, str | None]] = []  # purchase, USD/node-hour, hours, id
    for purchase in PURCHASES[spec.purchase]:
        price = offering.price(purchase)
        if price is None or (purchase == "spot" and offering.provider in NO_SPOT_FROM_STACK):
            continue
        hours = job.hours
        if purchase == "spot" and spec.spot is not None:
            hours += spot_overhead_hours(job.hours, spec.nodes, spec.spot)
        prices.append((purchase, price, hours, None))
        if purchase == "on-demand" and spec.commitment != "none":
            reserved = _reserved_price(offering, price, spec.commitment)
            if reserved is not None:
                prices.append((f"reserved-{spec.commitment}", reserved, hours, None))
                term_hours = 8760 * int(spec.commitment[0])
                notes += (f"{spec.commitment} commitment: ${reserved * spec.nodes * term_hours:,.0f} over the term, "
                          "of which this job uses its share",) if purchase == "on-demand" else ()
    prices += [("reservation", r.usd_per_hour, job.hours, r.id) for r in _held(spec, offering)]
    return [
        Candidate(offering, purchase, spec.nodes, hours, price,
                  None if storage is None else storage * hours / job.hours,
                  notes + _placement_notes(offering, purchase), held_id)
        for purchase, price, hours, held_id in prices
    ]


def _placement_notes(offering: Offering, purchase: str) -> tuple[str, ...]:
    """Placement limits of a purchase option the component applies (Alibaba: no deployment
    set for spot), so `resolve` says so when it picks one."""
    notes: tuple[str, ...] = ()
    if offering.provider == "alicloud" and offering.zone == offering.region:
        notes = ("priced per region: set the stack's zone to a zone id before `pulumi up`",)
    if offering.provider != "alicloud" or purchase != "spot":
        return notes
    from clouds.alicloud.placement import placement_for  # pure module, no Pulumi

    return (*notes, placement_for("spot").reason)


def _rank(spec: WorkloadSpec, found: list[Candidate]) -> tuple[list[Candidate], bool | None]:
    if spec.deadline_hours is None:
        return sorted(found, key=Candidate.sort_key), None
    on_time = [c for c in found if c.hours <= spec.deadline_hours]
    if on_time:
        return sorted(on_time, key=Candidate.sort_key), True
    return sorted(found, key=Candidate.speed_key), False


def resolve(spec: WorkloadSpec, offerings: tuple[Offering, ...] | list[Offering], top: int = 5) -> Resolution:
    """Rank every way to run the job by its total cost.

    Args:
        spec: the workload.
        offerings: the loaded catalog.
        top: how many rows to return (choice included), at least 1.

    Returns:
        The choice and up to `top - 1` alternatives, each with a reason.

    Raises:
        NoMatchError: an unknown accelerator name, or nothing can run the job (names the
            constraint that removed the last candidates, its numbers, the nearest
            offerings and a fix).
    """
    wanted = _accelerator_names(spec, offerings)
    found: list[Candidate] = []
    failed: dict[str, list[Offering]] = {}
    details: dict[str, str] = {}
    for offering in offerings:
        failure = next(static_failures(spec, wanted, offering), None)
        estimate = job_hours(spec, offering) if failure is None else None
        if isinstance(estimate, Rejection):
            failure = estimate.constraint
            details.setdefault(failure, f"{offering.instance_type}: {estimate.detail}")
        if failure == "file_system":
            details.setdefault(failure, f"{offering.provider}: {_file_system_problem(spec, offering.provider)}")
        if failure is not None:
            failed.setdefault(failure, []).append(offering)
        elif isinstance(estimate, JobHours):
            found.extend(candidates(spec, offering, estimate))
    if not found:
        near = nearest(offerings, lambda o: all_failures(spec, wanted, o))
        raise no_match(failed, details, near)
    ranked, deadline_met = _rank(spec, found)
    note = ""
    if deadline_met is not None:
        note = (f", meets the {spec.deadline_hours:g} h deadline" if deadline_met
                else f"; none meets the {spec.deadline_hours:g} h deadline: fastest shown")
    rows = ranked[: max(top, 1)]
    kept = tuple(Ranked(c, reason(c, rows[i - 1] if i else None, len(found), note)) for i, c in enumerate(rows))
    rejected = {k: (len(failed[k]), details[k]) for k in details}
    everything = ranked if deadline_met is None else sorted(found, key=Candidate.sort_key)
    return Resolution(kept[0], kept[1:], len(found), len(offerings), deadline_met, rejected, tuple(everything))
