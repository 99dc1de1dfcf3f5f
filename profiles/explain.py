"""Words for the resolver's decisions: why a row ranks where it does, and why nothing fits."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from profiles.candidate import Candidate
from profiles.catalog.offering import Offering

if TYPE_CHECKING:
    from profiles.spec import WorkloadSpec

# Constraints in the order they are checked; the deepest one reached explains a no-match.
CONSTRAINTS = (
    "provider",
    "region",
    "jurisdiction",
    "accelerator",
    "platform",
    "gpus_per_node",
    "gpu_memory",
    "interconnect",
    "price",
    "file_system",
    "data",
    "job",
    "memory_fit",
    "batch",
    "throughput",
    "run_time",
)
# Failing these means a different accelerator: such offerings are the least "near".
_HARD = frozenset({"accelerator", "gpu_memory", "memory_fit"})
FIX_HINTS = {
    "run_time": "check the units of `work` (tokens: 300B, images: 1.28M), or allow faster accelerators or more nodes",
    "provider": "add a cloud to `providers` or remove the list",
    "region": "widen or remove `regions`",
    "jurisdiction": "add a cloud with mainland-China regions to `providers`",  # per workload: jurisdiction_fix
    "accelerator": "name an accelerator the catalog has in `accelerators`",
    "platform": "set `platform: any` (VM and managed rows), or the platform the nearest rows name",
    "gpus_per_node": "use a per-node GPU count these offerings have",
    "gpu_memory": "lower `min_gpu_memory` or name accelerators instead",
    "interconnect": "set `interconnect: none`, or pick accelerators sold with EFA/InfiniBand/GPUDirect",
    "price": "allow `purchase: any` so both spot and on-demand prices count",
    "file_system": "ask for a file system the cloud can create (valid values above), or allow another cloud",
    "data": (
        "where the cloud holding the bucket is allowed, the change named above; else train on the cloud that "
        "holds the bucket (`providers`), or copy the data to a bucket there"
    ),
    "job": "allow a cloud whose nodes run the job (`providers`), or remove `job` and start torchrun by hand",
    "memory_fit": "add nodes or GPUs (FSDP shards the state), allow gradient_checkpointing, or pick larger GPUs",
    "batch": "use fewer nodes or a smaller TPU slice, or raise work.batch_tokens (work.batch_images)",
    "throughput": "give `hours` instead of `work`, or pick accelerators with a known BF16 figure",
}


class NoMatchError(LookupError):
    """No offering satisfies the spec; the message says which constraint and how to fix it."""


class WorkloadFieldError(NoMatchError):
    """A field of the workload file the catalog cannot satisfy: a name it does not know
    (accelerator, region, reservation type or zone, cloud), or work no offering finishes
    within the run-time limit. The message starts with the field (`reservations.0.zone: ...`),
    so a caller that knows the file prefixes its path."""


def _cheapest_price(o: Offering) -> float:
    """The row's lowest USD/hour; infinity for a row with no price (a platform's copy of a
    spot-only VM row when the platform sells no spot), so it sorts last instead of failing."""
    return min((p for p in (o.on_demand_usd_per_hour, o.spot_usd_per_hour) if p is not None), default=math.inf)


def nearest(
    offerings: Iterable[Offering], failures: Callable[[Offering], Iterable[str]], limit: int = 3
) -> list[tuple[str, list[str]]]:
    """ "Did you mean" list: offerings failing the fewest constraints, the wanted
    accelerator before others, cheapest first; one line per instance type.

    `failures(o)` names the constraints `o` fails, in order; it is read only as far as can
    matter (`_fewest_failures`)."""
    scored = sorted(
        (len(f), bool(_HARD & set(f)), _cheapest_price(o), o.instance_type, o.zone, o, f)
        for o, f in _fewest_failures(offerings, failures, limit)
    )
    seen: dict[str, tuple[str, list[str]]] = {}
    for *_, o, failed in scored:
        label = f"{o.provider} {o.instance_type} {o.accelerator_count}x {o.accelerator} in {o.region} (fails {', '.join(failed)})"
        seen.setdefault(o.instance_type, (label, failed))
        if len(seen) == limit:
            break
    return list(seen.values())


def _fewest_failures(
    offerings: Iterable[Offering], failures: Callable[[Offering], Iterable[str]], limit: int
) -> Iterator[tuple[Offering, list[str]]]:
    """Each offering that fails something with its failures, except those `nearest` cannot show:
    once `limit` instance types each have a row failing at most N constraints, a row that fails
    more than N ranks after all of them (its count comes first in the ranking), so its failures
    are read no further than N + 1 (the costly checks, last in `CONSTRAINTS`, are not run)."""
    best: dict[str, int] = {}  # instance type -> the fewest failures of its rows so far
    bound = math.inf  # the `limit`-th smallest of those: rows failing more cannot be shown
    for o in offerings:
        f: list[str] = []
        for name in failures(o):
            f.append(name)
            if len(f) > bound:
                break
        else:
            if f:
                yield o, f
                if len(f) < min(bound, best.get(o.instance_type, math.inf)):  # else the bound stays
                    best[o.instance_type] = len(f)
                    if len(best) >= limit:
                        bound = sorted(best.values())[limit - 1]


def no_match(
    failed: dict[str, list[Offering]],
    details: dict[str, str],
    near: list[tuple[str, list[str]]],
    gpus_key: str = "gpus_per_node",
    fixes: dict[str, str] | None = None,
) -> NoMatchError:
    """The error for an empty result: deepest constraint, its numbers, nearest offerings, fix.

    Args:
        gpus_key: the spec key the user set the per-node GPU count with (`accelerators` for
            `A100:8`); the message names it rather than the internal `gpus_per_node`.
        fixes: constraint -> the workload's own fix, in place of `FIX_HINTS`' general one.
    """
    error = _no_match(failed, details, near, fixes or {})
    if gpus_key == "gpus_per_node":
        return error
    text = str(error).replace("'gpus_per_node'", f"the GPU count of '{gpus_key}'")
    text = re.sub(r"\bgpus_per_node\b", f"{gpus_key} count", text)
    text = text.replace(
        "use a per-node GPU count these offerings have",
        "write NAME:N in `accelerators` with a per-node GPU count these offerings have",
    )
    return NoMatchError(text)


def _no_match(
    failed: dict[str, list[Offering]],
    details: dict[str, str],
    near: list[tuple[str, list[str]]],
    fixes: dict[str, str],
) -> NoMatchError:
    if not failed:
        return NoMatchError("catalog: no offerings loaded; rebuild it with `make catalog`")
    deepest = max(failed, key=CONSTRAINTS.index)
    fix = near[0][1][0] if near else deepest
    hint = fixes.get(fix) or FIX_HINTS[fix]
    said = details.get("job", "")
    if fix == "job" and said.startswith("job.nproc_per_node"):
        hint = "give `job.nproc_per_node` at most the GPUs per node of these offerings, or leave it out"
    elif fix == "job" and said.startswith("job."):  # a field of the job, named with its own fix in brackets
        hint = f"change `{said.split(':', 1)[0]}` as said in brackets, or allow another platform (`platform`)"
    if fix == "gpus_per_node":
        counts = sorted({o.accelerator_count for o in failed.get(fix, ())})
        hint += f" ({', '.join(map(str, counts))})"
    detail = f" ({details[deepest]})" if deepest in details else ""
    return NoMatchError(
        f"no offering matches: '{deepest}' removed the last {len(failed[deepest])} candidates{detail}; "
        f"nearest: {'; '.join(label for label, _ in near)}; to fix: {hint}"
    )


def _differences(c: Candidate, other: Candidate) -> list[str]:
    diffs = []
    if c.purchase != other.purchase:
        diffs.append(f"{c.purchase} instead of {other.purchase}")
    if c.offering.instance_type != other.offering.instance_type:
        diffs.append(f"{c.offering.instance_type} instead of {other.offering.instance_type}")
    if c.offering.zone != other.offering.zone:
        diffs.append(f"in {c.offering.zone}")
    if abs(c.hours - other.hours) > 0.005 * other.hours:
        diffs.append(f"{c.hours:,.1f} h vs {other.hours:,.1f} h")
    if abs(c.usd_per_hour - other.usd_per_hour) > 0.005:
        diffs.append(f"compute ${c.usd_per_hour:,.2f}/h vs ${other.usd_per_hour:,.2f}/h")
    return diffs


def reason(c: Candidate, above: Candidate | None, matched: int, deadline_note: str = "") -> str:
    """Why `c` ranks where it does: against the row above it (or, for the choice, overall)."""
    if above is None:
        return f"cheapest job of {matched} candidate{'s' if matched != 1 else ''}{deadline_note}"
    detail = "; ".join(_differences(c, above))
    delta = c.usd_total - above.usd_total
    if round(delta, 2) == 0:
        return "same cost as the row above, ranked below by tie-break" + (f": {detail}" if detail else "")
    sign = "+" if delta >= 0 else "-"
    # A percentage of $0 (held or prepaid capacity above) means nothing: give the dollars only.
    pct = f" ({sign}{abs(100 * delta / above.usd_total):.1f}%)" if above.usd_total > 0 else ""
    return f"{sign}${abs(delta):,.2f}{pct} vs the row above" + (f": {detail}" if detail else "")


def caveat_note(c: Candidate, above: Candidate | None) -> str:
    """`; caveat: <reasons>, ranked after every row without one` for a row with caveats
    (`Candidate.caveats`), `(no row is without one)` when it heads the table; else ""."""
    if not c.caveats:
        return ""
    where = "no row is without one" if above is None else "ranked after every row without one"
    return f"; caveat: {'; '.join(c.caveats)} ({where})"


def min_nodes_note(spec: WorkloadSpec) -> str:
    """`; rows of fewer than 3 nodes left out: job.min_nodes is 3` when a node range starts below
    the job's `min_nodes` (those rows are never costed), else ""."""
    if spec.max_nodes is None or spec.fewest_nodes <= spec.nodes:
        return ""
    return f"; rows of fewer than {spec.fewest_nodes} nodes left out: job.min_nodes is {spec.fewest_nodes}"


def deadline_miss(c: Candidate, deadline_hours: float | None) -> str:
    """`; misses the 504 h deadline by 8.8 h (+1.7%)` for a row slower than the deadline, else ""."""
    if deadline_hours is None or c.hours <= deadline_hours:
        return ""
    over = c.hours - deadline_hours
    return f"; misses the {deadline_hours:g} h deadline by {over:,.1f} h (+{100 * over / deadline_hours:.1f}%)"


def checkpoint_warning(spec: WorkloadSpec, c: Candidate) -> str:
    """A one-line warning when the spec's checkpoint interval is not shorter than the chosen
    spot run (`spot.checkpoint_interval: 100h` on a 72 h job): no checkpoint is written before
    the job ends, so an interruption restarts it from the beginning. "" otherwise.

    Args:
        spec: the `WorkloadSpec` (its `spot`).
        c: the chosen candidate.
    """
    spot = spec.spot
    work_hours = c.hours - c.added_hours  # the run without its interruptions
    if spot is None or c.purchase != "spot" or spot.checkpoint_interval_hours < work_hours:
        return ""
    return (
        f"warning: spot.checkpoint_interval ({spot.checkpoint_interval_hours:g} h) is not shorter than the job "
        f"({work_hours:,.1f} h on the chosen row): no checkpoint is written before it ends, so an interruption "
        f"restarts it from the beginning; checkpoint more often (e.g. checkpoint_interval: {shorter_interval(work_hours)})"
    )


def shorter_interval(work_hours: float) -> str:
    """A checkpoint interval shorter than a job of `work_hours`, as a workload writes it: `1h`
    for a job over an hour, else a quarter of the job in whole minutes (at least `1m`)."""
    return "1h" if work_hours > 1 else f"{max(1, int(work_hours * 60 / 4))}m"


def node_range_warning(spec: WorkloadSpec, c: Candidate) -> str:
    """A one-line warning when a node range (`nodes: auto`, `2-16`) meets fixed `hours`: more
    nodes cannot shorten a job whose hours are given, so every offering takes the fewest nodes
    (with `model:`, the fewest whose memory fits it). "" otherwise.

    Args:
        spec: the `WorkloadSpec` (its `nodes`, `max_nodes`, `hours`, `model`).
        c: the chosen candidate.
    """
    if spec.max_nodes is None or spec.max_nodes <= spec.nodes or spec.hours is None:
        return ""
    fewest = "the fewest nodes whose GPU memory fits the model" if spec.model is not None else "the fewest nodes"
    return (
        f"warning: nodes: a range ({spec.nodes}-{spec.max_nodes}) with fixed hours ({spec.hours:g} h): more nodes "
        f"cannot shorten a job whose hours are given, so each offering takes {fewest} ({c.nodes} on the chosen "
        "row); give the job's work instead of hours (e.g. work: {gpu_hours: 1200, reference: A100-80GB}) so each "
        f"node count gets its own hours, or set nodes: {c.nodes}"
    )
