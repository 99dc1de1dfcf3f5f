"""The choice rule: the fewest nodes (and the smallest size of a family) that meet the deadline.

A careful engineer takes the smallest cluster that finishes in time: fewer nodes are less
capacity and quota to get, fewer failures and a smaller blast radius. A larger one is taken
only when it is cheaper by more than `node_margin` (default `DEFAULT_NODE_MARGIN`, settable
in the workload), and its row says so; at equal cost the fewer accelerators win. The same
rule picks between sizes of one family (TPU slices v5p-8 ... v5p-12288, an instance type's
1-, 4- and 8-GPU sizes): same cloud, zone, accelerator and purchase, told apart by their
accelerator count. When no size meets the deadline the fastest is kept, then the cheapest.
`profiles.choice.nodes` searches the node counts this rule chooses from.

Sizes are compared on what their nodes cost (`choice_cost`): a larger cluster's shorter run
also rents the file system for fewer hours, but that saving does not count toward the margin.
The file system is the stack's, kept while data is loaded, the job set up and its output read
whatever the cluster's size; counted as a saving it made 16 spot nodes look cheaper than one
that meets the deadline wherever a file system costs about as much per hour as a node. A larger
size's bigger or faster file system still counts against it (its own rate for the longer run).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

from profiles.candidate import Candidate
from profiles.spec import WorkloadSpec

# A larger cluster must save more than this share of the job's cost to be taken over the
# fewest nodes that meet the deadline (a choice, not a sourced figure: about the error of the
# time model's scaling estimate, so a smaller saving is within what the model can tell apart).
DEFAULT_NODE_MARGIN = 0.05


def margin_of(spec: WorkloadSpec) -> float:
    """The workload's `node_margin`, or `DEFAULT_NODE_MARGIN`."""
    return DEFAULT_NODE_MARGIN if spec.node_margin is None else spec.node_margin


def purchase_key(c: Candidate) -> tuple:
    """A purchase option of one offering: its purchase and held reservation."""
    return (c.purchase, c.reservation_id)


def choice_cost(c: Candidate, reference_hours: float) -> float:
    """What the size choice compares, USD to the cent: the job's cost (`Candidate.usd_total`)
    with its file system kept, at the row's own USD/hour, for at least `reference_hours` (the
    run of the fewest accelerators that meet the deadline), so a shorter rental is no saving."""
    stretch = reference_hours - c.hours
    if stretch <= 0 or not c.usd_storage or c.hours <= 0:
        return round(c.usd_total, 2)
    return round(c.usd_total + c.usd_storage / c.hours * stretch, 2)


def _picks(options: Iterable[Candidate], deadline: float | None, margin: float) -> list[tuple[Candidate, str]]:
    by_key: dict[tuple, list[Candidate]] = {}
    for c in options:
        by_key.setdefault(purchase_key(c), []).append(c)
    return [choose_fewest(group, deadline, margin, _nodes) for group in by_key.values()]


def _nodes(c: Candidate) -> int:
    return c.nodes


def _noted(c: Candidate, note: str) -> Candidate:
    return dataclasses.replace(c, notes=(*c.notes, note)) if note else c


def best_per_purchase(options: Iterable[Candidate], deadline: float | None, margin: float) -> list[Candidate]:
    """Per purchase option (and held reservation), the node count to use (`choose_fewest`), with its note."""
    rows = list(options)
    if len({purchase_key(c) for c in rows}) == len(rows):  # one row per option: nothing to choose
        return rows
    return [_noted(pick, note) for pick, note in _picks(rows, deadline, margin)]


def family_key(c: Candidate) -> tuple:
    """Sizes of one family: the same cloud, zone, accelerator and purchase (TPU slices,
    an instance type's sizes), told apart by accelerator count."""
    o = c.offering
    return (o.provider, o.zone, o.accelerator, o.form_factor, c.purchase, c.reservation_id)


def fewest_per_family(found: list[Candidate], deadline: float | None, margin: float) -> list[Candidate]:
    """Per family (`family_key`), the rows of the size `choose_fewest` takes (the fewest
    accelerators that meet the deadline unless a larger size is cheaper by more than
    `margin`), the pick with its note; rows of other sizes are dropped, as an offering's
    other node counts are. Rows of that size on other instance types stay."""
    by_family: dict[tuple, list[Candidate]] = {}
    for c in found:
        by_family.setdefault(family_key(c), []).append(c)
    kept: list[Candidate] = []
    for group in by_family.values():
        if len(group) == 1:
            kept += group
            continue
        pick, note = choose_fewest(group, deadline, margin, accelerators)
        size = accelerators(pick)
        kept += [_noted(c, note) if c is pick else c for c in group if accelerators(c) == size]
    return kept


def accelerators(c: Candidate) -> int:
    """Accelerators of the whole cluster."""
    return c.nodes * c.offering.accelerator_count


def _size(c: Candidate) -> str:
    return f"{c.nodes} x {c.offering.instance_type}"


def choose_fewest(
    group: list[Candidate], deadline: float | None, margin: float, size: Callable[[Candidate], int]
) -> tuple[Candidate, str]:
    """The smallest (`size`) row meeting `deadline` unless a larger one is cheaper by more than
    `margin` (a share of the cost, to the cent, on `choice_cost`: the file system kept for the
    smallest on-time row's run), and a note saying why ("" when nothing needs saying); none
    meeting it: the fastest, then cheapest.

    The rows within `margin` of the cheapest on-time row are the ones a careful engineer
    cannot tell apart by cost; of those the fewest accelerators win.
    """
    on_time = [c for c in group if deadline is None or c.hours <= deadline]
    if not on_time:
        return min(group, key=Candidate.speed_key), ""
    if len(on_time) == 1:
        return on_time[0], ""
    ranked = sorted(on_time, key=lambda c: (size(c), c.sort_key()))
    fewest = ranked[0]
    cost = {id(c): choice_cost(c, fewest.hours) for c in on_time}
    cheapest = min(ranked, key=lambda c: (cost[id(c)], size(c)))
    pick = next(c for c in ranked if cost[id(c)] <= round(cost[id(cheapest)] * (1 + margin), 2))
    if size(pick) > size(fewest):
        more = cost[id(fewest)] / cost[id(cheapest)] - 1
        than = "" if cheapest is pick else f" than {_size(cheapest)} ({_kept_for(cheapest, cost[id(cheapest)])})"
        return pick, (
            f"{_size(pick)}, not {_size(fewest)} (fewer accelerators, also on time): that costs "
            f"${fewest.usd_total:,.2f}, {more:.1%} more{than}, above the {margin:.0%} margin (`node_margin`)"
        )
    cheaper = [c for c in ranked if size(c) > size(pick) and cost[id(c)] <= cost[id(pick)]]
    if cheaper:
        best = min(cheaper, key=lambda c: (cost[id(c)], size(c)))
        saving = 1 - cost[id(best)] / cost[id(pick)]
        how = "the same" if cost[id(best)] == cost[id(pick)] else f"{saving:.1%} less"
        return pick, (
            f"{_size(pick)}: the fewest accelerators on time; {_size(best)} would cost {how} "
            f"({_kept_for(best, cost[id(best)])}, {best.hours:,.1f} h), within the {margin:.0%} margin "
            "(`node_margin`), so the fewer are taken (less capacity and quota to get)"
        )
    rented = [c for c in ranked if size(c) > size(pick) and round(c.usd_total, 2) < round(pick.usd_total, 2)]
    if not rented:
        return pick, ""
    best = min(rented, key=lambda c: (round(c.usd_total, 2), size(c)))
    return pick, (
        f"{_size(pick)}: the fewest accelerators on time; {_size(best)} would cost ${best.usd_total:,.2f} "
        f"({best.hours:,.1f} h), {1 - best.usd_total / pick.usd_total:.1%} less, only by renting the file system "
        f"for {pick.hours - best.hours:,.1f} h less: a shorter file-system rental is not counted as a saving "
        "(`node_margin` compares what the nodes cost)"
    )


def _kept_for(c: Candidate, cost: float) -> str:
    """`$480.84` or, when the file system is counted for a longer run than `c`'s,
    `$851.09 with the file system kept as long`."""
    total = round(c.usd_total, 2)
    return f"${cost:,.2f}" if cost == total else f"${cost:,.2f} with the file system kept as long"
