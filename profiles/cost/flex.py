"""Flex-start rows: the price of one node bought through the cloud's flex-start scheduler (GCP
Dynamic Workload Scheduler, `clouds.gcp.flex_start`), and whether a run fits one request."""

from __future__ import annotations

from clouds.capacity import flex_offer
from profiles.catalog.offering import Offering

FLEX = "flex-start"


def flex(offering: Offering, hours: float) -> tuple[float, str] | str | None:
    """(USD/hour per node, the row's note) of `offering` bought as flex-start for a run of
    `hours`; a string when the run is longer than one request runs; None where its cloud or
    type has no flex-start, or the row is a managed platform's."""
    if offering.platform != "vm":
        return None
    o = offering
    return flex_offer(
        o.provider,
        o.instance_type,
        o.region,
        o.accelerator_count,
        o.vcpus,
        o.memory_gib,
        o.on_demand_usd_per_hour,
        hours,
    )


def purchase_price(offering: Offering, purchase: str) -> float | None:
    """Whole-instance USD/hour of `offering` bought as `purchase` (`spot`, `on-demand`,
    `flex-start`), or None where it cannot be bought that way."""
    if purchase != FLEX:
        return offering.price(purchase)
    found = flex(offering, 0.0)
    return found[0] if isinstance(found, tuple) else None
