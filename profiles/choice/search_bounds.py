"""What the bounded node-count search (`profiles.choice.nodes`) compares: the least a job can
cost on a count not priced yet (its floor), the cheapest on-time job so far per purchase
option, and whether a row is within the margin of it.

A count's job cannot cost less than its floor: compute and the file system for its hours,
spot interruptions at the row's own rate, the bucket's requests (a commitment's unused term
and the data path's waits only add).
"""

from __future__ import annotations

from profiles.candidate import Candidate
from profiles.choice.fewest import choice_cost, purchase_key
from profiles.cost.estimate import JobHours
from profiles.cost.pricing import HOURS_PER_MONTH, spot_overhead


def floor_price(c: Candidate) -> float:
    """The lowest USD per node-hour this purchase can bill at another node count (a Capacity
    Block blends its own rate with on-demand by hours, so its own rate bounds it)."""
    own = c.reservation.usd_per_hour if c.reservation is not None else c.usd_per_node_hour
    return min(c.usd_per_node_hour, own)


def job_floor(c: Candidate, nodes: int, hours: float, interval: float, reference: float) -> float:
    """The least `choice_cost` the job of `c`'s purchase option can have on `nodes` nodes
    running `hours` before spot interruptions, USD: compute and the file system for those
    hours (the file system for at least `reference` hours, the fewest on-time count's run)
    plus what spot interruptions add, and the bucket's requests (a commitment's unused term
    and the data path's waits only add).

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
    storage = (c.usd_storage or 0.0) / c.hours * max(run, reference) if c.hours > 0 else 0.0
    return floor_price(c) * nodes * run + storage + (c.usd_requests or 0.0)


def least_floor(
    firsts: dict[tuple, Candidate], hours: dict[int, JobHours], reference: dict[tuple, float]
) -> dict[tuple, float]:
    """Per purchase option, a floor below every `job_floor` of the counts in `hours`, USD to the cent,
    without their spot interruptions: the fewest node-hours of any count at the option's price,
    the file system for the shortest run (or the reference run), the bucket's requests."""
    node_hours = min(n * e.hours for n, e in hours.items())
    shortest = min(e.hours for e in hours.values())
    found = {}
    for k, c in firsts.items():
        storage = (c.usd_storage or 0.0) / c.hours * max(shortest, reference.get(k, 0.0)) if c.hours > 0 else 0.0
        found[k] = round((floor_price(c) * node_hours + storage + (c.usd_requests or 0.0)) * (1 - 1e-9), 2)
    return found


def cheapest_on_time(
    rows: list[Candidate], deadline: float | None, low: dict[tuple, float], reference: dict[tuple, float]
) -> dict[tuple, float]:
    """`low` (per purchase option, the cheapest on-time `choice_cost` so far, USD to the cent,
    the file system kept for the option's `reference` hours) updated with `rows`."""
    found = dict(low)
    for c in rows:
        if deadline is None or c.hours <= deadline:
            cost = choice_cost(c, reference.get(purchase_key(c), 0.0))
            found[purchase_key(c)] = min(cost, found.get(purchase_key(c), cost))
    return found


def first_on_time(rows: list[Candidate], deadline: float | None) -> dict[tuple, Candidate]:
    """Per purchase option, its first on-time row in `rows` (fewest nodes first)."""
    found: dict[tuple, Candidate] = {}
    for c in rows:
        if deadline is None or c.hours <= deadline:
            found.setdefault(purchase_key(c), c)
    return found


def reference_hours(rows: list[Candidate], deadline: float | None) -> dict[tuple, float]:
    """Per purchase option, the hours of its first on-time row in `rows` (fewest nodes first)."""
    return {k: c.hours for k, c in first_on_time(rows, deadline).items()}


def within_margin(
    c: Candidate, bound: dict[tuple, float], deadline: float | None, reference: dict[tuple, float]
) -> bool:
    """On time and within its purchase option's margin of the cheapest (`choice_cost`)."""
    limit = bound.get(purchase_key(c))
    on_time = deadline is None or c.hours <= deadline
    return on_time and limit is not None and choice_cost(c, reference.get(purchase_key(c), 0.0)) <= limit
