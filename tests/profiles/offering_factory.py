"""Offerings with plain defaults, for tests that hand-compute what the cost model does with them."""

from typing import Any

from profiles.catalog.offering import Offering

# The defaults of `offering`, by what they describe: an 8 x A100-80GB node on 1,600 Gbps
# InfiniBand at $30/h on-demand, $10/h spot (made-up figures, chosen to hand-compute with).
WHERE = {"provider": "azure", "region": "eastus", "zone": "eastus"}
HOST = {"instance_type": "Standard_X", "vcpus": 96, "memory_gib": 1152}
GPUS = {"accelerator": "A100-80GB", "accelerator_count": 8, "accelerator_memory_gib": 80.0, "form_factor": "SXM"}
FABRIC = {"interconnect": "infiniband", "max_efa_interfaces": 0, "network_gbps": 1600.0}
PRICES = {"on_demand_usd_per_hour": 30.0, "spot_usd_per_hour": 10.0, "catalog_date": "2026-01-01"}
DEFAULTS: dict[str, Any] = {**WHERE, **HOST, **GPUS, **FABRIC, **PRICES}

# What `aws_node` changes: a p4de.24xlarge in us-east-1 on 400 Gbps EFA (4 interfaces) at a
# made-up $40/h on-demand, with no spot price.
AWS_WHERE = {"provider": "aws", "region": "us-east-1", "zone": "use1-az1", "instance_type": "p4de.24xlarge"}
AWS_FABRIC = {"interconnect": "efa", "max_efa_interfaces": 4, "network_gbps": 400.0}
AWS_PRICES = {"on_demand_usd_per_hour": 40.0, "spot_usd_per_hour": None}


def offering(**fields: Any) -> Offering:
    """An 8 x A100-80GB node on 1,600 Gbps InfiniBand at $30/h on-demand, $10/h spot, unless overridden."""
    return Offering(**{**DEFAULTS, **fields})


def aws_node(**fields: Any) -> Offering:
    """A p4de.24xlarge-like node (8 x A100-80GB SXM, 96 vCPUs, 1,152 GiB) in us-east-1 on
    400 Gbps EFA at $40/h on-demand and no spot price, unless overridden."""
    return offering(**{**AWS_WHERE, **AWS_FABRIC, **AWS_PRICES, **fields})
