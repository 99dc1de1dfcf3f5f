"""Prices beyond the catalog's on-demand and spot rows: reserved terms as commitments, spot
interruptions, and the file system's list price.

Reserved discounts off on-demand (until live reserved prices are fetched) are each cloud's
`Cloud.reserved_discount`, from `shared/reference-facts/pricing-models.md`. No provider page
gave a GPU-family figure, so each is the low end of a third-party or unsourced range, as the
file advises; each cloud's module cites its own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from clouds.registry import CLOUDS
from facts.storage_prices import HOURS_PER_MONTH
from profiles.cost.storage import ESTIMATE, storage_cost

TERMS = ("1y", "3y")
TERM_HOURS: dict[str, float] = {"1y": 8760.0, "3y": 3 * 8760.0}
# (registry name, term) -> fraction off on-demand, derived from the `Cloud` objects.
RESERVED_DISCOUNT: dict[tuple[str, str], float] = {
    (name, term): discount for name, c in CLOUDS.items() for term, discount in c.reserved_discount.items()
}


def reserved_usd_per_hour(on_demand: float, provider: str, term: str) -> float | None:
    """Effective USD/hour of a 1y/3y commitment, amortized over the term (None if unknown)."""
    discount = RESERVED_DISCOUNT.get((provider, term))
    return None if discount is None else on_demand * (1 - discount)


def committed_hours(hours: float, term: str) -> float:
    """Hours a commitment bills to run a job of `hours`: whole terms, at least one."""
    term_hours = TERM_HOURS[term]
    return max(1, math.ceil(hours / term_hours - 1e-9)) * term_hours


def charged_hours(hours: float, term: str, reuse: float) -> float:
    """Hours of a commitment the job pays for: its own hours plus the unused rest of the
    term(s), less the fraction `reuse` (0-1) that other work will use afterwards.

    Example: a 624 h job on a 1y term (8,760 h) pays 8,760 h with reuse 0, and
    624 + (8,760 - 624) x 0.2 = 2,251.2 h with reuse 0.8.
    """
    committed = committed_hours(hours, term)
    return hours + (committed - hours) * (1.0 - reuse)


@dataclass(frozen=True)
class SpotOverhead:
    """What spot interruptions add to a run.

    Attributes:
        interruptions: expected interruptions of the whole cluster during the run.
        added_hours: hours they add (lost work since the last checkpoint plus restarts).
    """

    interruptions: float
    added_hours: float


def spot_overhead(
    hours: float, nodes: int, per_node_month: float, checkpoint_interval_hours: float, restart: float
) -> SpotOverhead:
    """Expected interruptions and added hours of a spot run (first-order).

    Any node's interruption stops the job, so the cluster sees nodes x rate interruptions
    per hour; each loses half a checkpoint interval of work plus the restart time:
    interruptions = hours x nodes x rate / 730; added = interruptions x (interval / 2 + restart).
    An interval as long as the run or longer writes no checkpoint before the run ends, so an
    interruption loses on average half the run, not half the interval: the interval counts
    as at most `hours`.
    """
    interruptions = hours * nodes * per_node_month / HOURS_PER_MONTH
    lost = min(checkpoint_interval_hours, hours) / 2
    return SpotOverhead(interruptions, interruptions * (lost + restart))


def fill_upper_usd(hours: float, nodes: int, per_node_month: float, on_demand: float, spot: float) -> float:
    """Upper bound of a spot run's on-demand gap fill (`spot.fallback`), USD.

    Each expected interruption (hours x nodes x rate / 730, as `spot_overhead`) leaves the spot
    group one node short; once it has been short for the stack's delay, one on-demand node of
    the same shape fills the gap until spot returns. No source gives how long a spot pool stays
    short, so each fill is counted to the end of the run: half the run on average
    (interruptions fall evenly over it), at the on-demand premium over spot per node-hour. The
    true fill is at most this; 0 when spot never runs short.

    Args:
        hours: the run's hours; nodes: the cluster's nodes; per_node_month: interruptions per
            node per 730 h; on_demand, spot: one node's USD/hour.
    """
    interruptions = hours * nodes * per_node_month / HOURS_PER_MONTH
    return interruptions * max(0.0, on_demand - spot) * hours / 2


def storage_usd(
    provider: str, capacity_gib: float, throughput: int, hours: float, usd_per_cny: float | None = None
) -> float | None:
    """File-system cost for `hours` at the cloud's recorded list price, USD, or None when no
    price is recorded (or the cloud cannot create it). Capacity is what the cloud creates
    (rounded up), see `profiles.cost.storage`."""
    cost = storage_cost(provider, capacity_gib, throughput, usd_per_cny)
    return None if cost is None or cost.basis == ESTIMATE else cost.usd(hours)
