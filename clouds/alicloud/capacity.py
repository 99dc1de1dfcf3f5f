"""Alibaba Cloud's node group when there is no capacity (`Cloud.group_types`, `Cloud.spot_fallback`).

Several types: the ESS scaling configuration's `instance_types` (pulumi-alicloud
`ess.ScalingConfiguration`: "Resource types of an ECS instance"; ESS tries them in the
order listed). The configuration holds one network layout, so two types share it when they
get the same number of eRDMA interfaces (`clouds.alicloud.facts.eri_interfaces`).

Spot that falls back to on-demand: the scaling group's own `compensate_with_on_demand`
("automatically create pay-as-you-go instances ... when the expected capacity of preemptible
instances cannot be provided due to ... insufficient resources"), which ESS supports only with
`multi_az_policy` COST_OPTIMIZED (pulumi-alicloud `ess.ScalingGroup`). ESS compensates at once,
not after the stack's `on_demand_after_minutes`: Alibaba has no delay setting.
"""

from __future__ import annotations

from typing import Any

from clouds.alicloud.facts import eri_interfaces


def group_type_problem(instance_type: str, other: str, interconnect: str) -> str | None:
    """Why `other` cannot share the scaling configuration with `instance_type`, or None."""
    if interconnect == "rdma" and eri_interfaces(instance_type) != eri_interfaces(other):
        return "their eRDMA interface counts differ (one scaling configuration holds one network layout)"
    return None


def compensation_args(purchase: str, on_demand_after_minutes: int | None) -> dict[str, Any]:
    """The scaling group's arguments that let on-demand fill a spot shortfall, or {}."""
    if purchase != "spot" or on_demand_after_minutes is None:
        return {}
    return {
        "multi_az_policy": "COST_OPTIMIZED",
        "on_demand_base_capacity": 0,
        "on_demand_percentage_above_base_capacity": 0,
        "compensate_with_on_demand": True,
    }
