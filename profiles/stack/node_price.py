"""The catalog's price of one stack's nodes: the per-node rate by purchase (a spot cluster's
`on_demand_nodes` at on-demand, a commitment at its term rate) and the spot fallback's gap fill."""

from __future__ import annotations

from clouds.capacity import flex_node_price
from clouds.contract import ClusterConfig
from profiles.catalog.offering import Offering
from profiles.cost.inputs import spot_interruptions
from profiles.cost.pricing import fill_upper_usd, reserved_usd_per_hour


def node_price(config: ClusterConfig, offering: Offering) -> float | None:
    """USD/hour per node, on average: a spot cluster with `on_demand_nodes` pays those at the
    on-demand price and the rest at spot; a flex-start cluster its flex-start price."""
    if config.purchase == "spot" and config.on_demand_nodes:
        spot, on_demand = offering.spot_usd_per_hour, offering.on_demand_usd_per_hour
        if spot is None or on_demand is None:
            return None
        kept = config.on_demand_nodes
        return (kept * on_demand + (config.nodes - kept) * spot) / config.nodes
    if config.purchase == "spot":
        return offering.spot_usd_per_hour
    on_demand = offering.on_demand_usd_per_hour
    if config.flex_start:  # the flex-start SKUs where sourced (`clouds.gcp.flex_start`), else on-demand
        o = offering
        return flex_node_price(
            o.provider, o.instance_type, o.region, o.accelerator_count, o.vcpus, o.memory_gib, on_demand
        )
    if config.commitment == "none" or on_demand is None:
        return on_demand
    live = offering.reserved_1y_usd_per_hour if config.commitment == "1y" else offering.reserved_3y_usd_per_hour
    return live if live is not None else reserved_usd_per_hour(on_demand, offering.provider, config.commitment)


def fill_usd(config: ClusterConfig, offering: Offering | None) -> float | None:
    """The spot fallback's gap fill for the stack's run, USD (as `resolve` counts it at the
    cloud's interruption rate: `profiles.costing._fill`), or None."""
    if offering is None or config.purchase != "spot" or config.on_demand_after_minutes is None:
        return None
    on_demand, spot = offering.on_demand_usd_per_hour, offering.spot_usd_per_hour
    if on_demand is None or spot is None:
        return None
    return fill_upper_usd(config.hours, config.nodes, spot_interruptions(offering)[0], on_demand, spot)
