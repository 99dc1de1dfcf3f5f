"""One `Offering` with plain defaults, for tests that hand-compute what the cost model does with it."""

from profiles.catalog.offering import Offering

DEFAULTS = dict(
    provider="azure",
    region="eastus",
    zone="eastus",
    instance_type="Standard_X",
    accelerator="A100-80GB",
    accelerator_count=8,
    accelerator_memory_gib=80.0,
    form_factor="SXM",
    vcpus=96,
    memory_gib=1152,
    interconnect="infiniband",
    max_efa_interfaces=0,
    network_gbps=1600.0,
    on_demand_usd_per_hour=30.0,
    spot_usd_per_hour=10.0,
    catalog_date="2026-01-01",
)


def offering(**fields) -> Offering:
    """An 8 x A100-80GB node on 1,600 Gbps InfiniBand at $30/h on-demand, $10/h spot, unless overridden."""
    return Offering(**{**DEFAULTS, **fields})
