"""Pick the cheapest offering x purchase option that satisfies a `WorkloadSpec`.

Cluster cost = whole-instance USD/hour x nodes x hours. The cheapest candidate wins; ties
break on on-demand before spot (same price, no interruptions), then provider, region,
zone and instance type, so the pick is stable. When nothing matches, `NoMatchError` names
the constraint that removed the last candidates and the nearest offerings.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from profiles.catalog.offering import Offering
from profiles.spec import WorkloadSpec

PURCHASES = {"any": ("on-demand", "spot"), "spot": ("spot",), "on-demand": ("on-demand",)}
PURCHASE_RANK = {"on-demand": 0, "spot": 1}
# Constraints in the order they are checked; the deepest one reached explains a no-match.
CONSTRAINTS = ("provider", "region", "accelerator", "gpus_per_node", "gpu_memory", "interconnect", "price")
# Failing these means a different accelerator: such offerings are the least "near".
_HARD = frozenset({"accelerator", "gpu_memory"})
FIX_HINTS = {
    "provider": "add a cloud to `providers` or remove the list",
    "region": "widen or remove `regions`",
    "accelerator": "name an accelerator the catalog has in `accelerators`",
    "gpus_per_node": "use a per-node GPU count these offerings have",
    "gpu_memory": "lower `min_gpu_memory` or name accelerators instead",
    "interconnect": "set `interconnect: none`, or pick accelerators sold with EFA/InfiniBand/GPUDirect",
    "price": "allow `purchase: any` so both spot and on-demand prices count",
}


class NoMatchError(LookupError):
    """No offering satisfies the spec; the message says which constraint and how to fix it."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """One offering bought one way for the whole cluster.

    Attributes:
        offering: the instance type in one zone.
        purchase: `spot` or `on-demand`.
        nodes: number of instances.
        hours: planned run time, hours.
        usd_per_node_hour: whole-instance price, USD/hour.
    """

    offering: Offering
    purchase: str
    nodes: int
    hours: float
    usd_per_node_hour: float

    @property
    def usd_per_hour(self) -> float:
        """Whole-cluster price, USD/hour."""
        return self.usd_per_node_hour * self.nodes

    @property
    def usd_total(self) -> float:
        """Whole-cluster cost of the planned run, USD."""
        return self.usd_per_hour * self.hours

    def sort_key(self) -> tuple:
        """Cheapest first; at equal cost on-demand before spot (no interruptions), then the
        faster network, then a stable name order."""
        o = self.offering
        return (
            round(self.usd_total, 6), PURCHASE_RANK[self.purchase], -(o.network_gbps or 0),
            o.provider, o.region, o.zone, o.instance_type,
        )


@dataclass(frozen=True)
class Ranked:
    """A kept candidate and why it ranks where it does."""

    candidate: Candidate
    reason: str


@dataclass(frozen=True)
class Resolution:
    """The resolver's answer: the choice, ranked alternatives and what was searched.

    Attributes:
        choice: the cheapest candidate and its reason.
        alternatives: the next cheapest, best first, each with why it lost.
        matched: number of matching candidates (offering x purchase).
        searched: number of offerings examined.
    """

    choice: Ranked
    alternatives: tuple[Ranked, ...]
    matched: int
    searched: int


def _accelerator_names(spec: WorkloadSpec, offerings: Iterable[Offering]) -> frozenset[str]:
    known = {o.accelerator.casefold(): o.accelerator for o in offerings}
    unknown = [n for n in spec.accelerators if n.casefold() not in known]
    if unknown:
        import difflib  # only on the error path

        close = difflib.get_close_matches(unknown[0], sorted(known.values()), n=3, cutoff=0.4)
        hint = f"did you mean {', '.join(close)}?" if close else f"known: {', '.join(sorted(known.values()))}"
        raise NoMatchError(f"accelerators: the catalog has no '{unknown[0]}'; {hint}")
    return frozenset(known[n.casefold()] for n in spec.accelerators)


def failures(spec: WorkloadSpec, wanted: frozenset[str], offering: Offering) -> Iterator[str]:
    """Yield, in `CONSTRAINTS` order, each constraint `offering` fails."""
    if spec.providers and offering.provider not in spec.providers:
        yield "provider"
    if spec.regions and offering.region not in spec.regions:
        yield "region"
    if wanted and offering.accelerator not in wanted:
        yield "accelerator"
    if spec.gpus_per_node and offering.accelerator_count != spec.gpus_per_node:
        yield "gpus_per_node"
    if spec.min_gpu_memory_gib and (offering.accelerator_memory_gib or 0) < spec.min_gpu_memory_gib:
        yield "gpu_memory"
    if spec.interconnect == "rdma" and spec.nodes > 1 and not offering.rdma:
        yield "interconnect"
    if all(offering.price(p) is None for p in PURCHASES[spec.purchase]):
        yield "price"


def mismatch(spec: WorkloadSpec, wanted: frozenset[str], offering: Offering) -> str | None:
    """The first constraint `offering` fails (a name from `CONSTRAINTS`), or None if it fits."""
    return next(failures(spec, wanted, offering), None)


def candidates(spec: WorkloadSpec, offering: Offering) -> list[Candidate]:
    """Every priced purchase option of a matching offering as a cluster candidate."""
    return [
        Candidate(offering, purchase, spec.nodes, spec.hours, price)
        for purchase in PURCHASES[spec.purchase]
        if (price := offering.price(purchase)) is not None
    ]


def _cheapest_price(o: Offering) -> float:
    return min(p for p in (o.on_demand_usd_per_hour, o.spot_usd_per_hour) if p is not None)


def nearest(
    spec: WorkloadSpec, wanted: frozenset[str], offerings: Iterable[Offering], limit: int = 3
) -> list[tuple[str, list[str]]]:
    """"Did you mean" list: offerings failing the fewest constraints, the wanted
    accelerator before others, cheapest first; one line per instance type."""
    scored = sorted(
        (len(f), bool(_HARD & set(f)), _cheapest_price(o), o.instance_type, o.zone, o, f)
        for o in offerings
        if (f := list(failures(spec, wanted, o)))
    )
    seen: dict[str, tuple[str, list[str]]] = {}
    for *_, o, failed in scored:
        label = f"{o.provider} {o.instance_type} {o.accelerator_count}x {o.accelerator} in {o.region} (fails {', '.join(failed)})"
        seen.setdefault(o.instance_type, (label, failed))
        if len(seen) == limit:
            break
    return list(seen.values())


def _no_match(spec: WorkloadSpec, wanted: frozenset[str], failed: dict[str, list[Offering]], offerings) -> NoMatchError:
    if not failed:
        return NoMatchError("catalog: no offerings loaded; rebuild it with `make catalog`")
    deepest = max(failed, key=CONSTRAINTS.index)
    near = nearest(spec, wanted, offerings)
    fix = near[0][1][0] if near else deepest
    hint = FIX_HINTS[fix]
    if fix == "gpus_per_node":
        counts = sorted({o.accelerator_count for o in failed.get(fix, ())})
        hint += f" ({', '.join(map(str, counts))})"
    return NoMatchError(
        f"no offering matches: '{deepest}' removed the last {len(failed[deepest])} candidates; "
        f"nearest: {'; '.join(label for label, _ in near)}; to fix: {hint}"
    )


def _reason(c: Candidate, best: Candidate, matched: int) -> str:
    if c is best:
        return f"cheapest of {matched} matching candidates"
    delta = c.usd_total - best.usd_total
    pct = 100 * delta / best.usd_total
    diffs = [f"{c.purchase} instead of {best.purchase}" if c.purchase != best.purchase else ""]
    if c.offering.instance_type != best.offering.instance_type:
        diffs.append(f"{c.offering.instance_type} instead of {best.offering.instance_type}")
    if c.offering.zone != best.offering.zone:
        diffs.append(f"in {c.offering.zone}")
    detail = "; ".join(d for d in diffs if d)
    if round(delta, 2) == 0:
        return "same cost as choice, ranked below by tie-break" + (f": {detail}" if detail else "")
    return f"+${delta:,.2f} total (+{pct:.1f}%) vs choice" + (f": {detail}" if detail else "")


def resolve(spec: WorkloadSpec, offerings: tuple[Offering, ...] | list[Offering], top: int = 5) -> Resolution:
    """Rank every matching offering x purchase option by whole-cluster cost.

    Args:
        spec: the workload.
        offerings: the loaded catalog.
        top: how many candidates to return (choice included), at least 1.

    Returns:
        The cheapest candidate and up to `top - 1` alternatives, each with a reason.

    Raises:
        NoMatchError: an unknown accelerator name, or no offering fits (names the
            constraint that removed the last candidates, the nearest offerings, a fix).
    """
    wanted = _accelerator_names(spec, offerings)
    found: list[Candidate] = []
    failed: dict[str, list[Offering]] = {}
    for offering in offerings:
        failure = mismatch(spec, wanted, offering)
        if failure is None:
            found.extend(candidates(spec, offering))
        else:
            failed.setdefault(failure, []).append(offering)
    if not found:
        raise _no_match(spec, wanted, failed, offerings)
    found.sort(key=Candidate.sort_key)
    best = found[0]
    ranked = tuple(Ranked(c, _reason(c, best, len(found))) for c in found[: max(top, 1)])
    return Resolution(ranked[0], ranked[1:], len(found), len(offerings))
