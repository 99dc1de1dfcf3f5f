"""Which machine types can share the GCP node group (`Cloud.group_types`).

With fallback types the nodes are a regional managed instance group kept to the cluster's one
zone (`distribution_policy_zones`, target shape `ANY_SINGLE_ZONE`, which Google recommends
with a compact placement policy: "Regional MIG target distribution shape") whose instance
flexibility policy ranks the types (`instanceSelections`, lower `rank` first: "About instance
flexibility in MIGs"). The selections override only the machine type, minimum CPU platform and
disks of the one instance template; its network interfaces and guest accelerators stay. So
two types share the group when both carry their GPUs built in (A2, A3, A4, G2: no
`guest_accelerators`) and need the same NIC layout (`clouds.gcp.nics`: A3 High's TCPX, A3
Mega's TCPXO and A3 Ultra / A4's RDMA networks differ) and boot disk type.
"""

from __future__ import annotations

from typing import Any

from clouds.gcp.machine import boot_disk_type, is_accelerator_optimized
from clouds.gcp.nics import nic_layout


def group_type_problem(instance_type: str, other: str, interconnect: str) -> str | None:
    """Why `other` cannot share the group with `instance_type`, or None."""
    for name in (instance_type, other):
        if not is_accelerator_optimized(name):
            return (
                f"{name} attaches its GPUs from the template (an n1- type), which a flexibility policy cannot override"
            )
    if nic_layout(instance_type, interconnect) != nic_layout(other, interconnect):
        return "their GPUDirect network layouts differ (one instance template holds one layout)"
    if boot_disk_type(instance_type) != boot_disk_type(other):
        return "their boot disk types differ"
    return None


# The regional group's settings that keep it in the cluster's one zone ("Regional MIG target
# distribution shape": ANY_SINGLE_ZONE needs proactive redistribution off).
SINGLE_ZONE_SHAPE = "ANY_SINGLE_ZONE"


def flexibility_policy(instance_type: str, fallback_types: tuple[str, ...]) -> dict[str, Any]:
    """`instance_flexibility_policy` ranking the types: one selection per type, `rank` 0 for
    `instance_type` and counting up (lower rank first: the group falls back to the next rank
    when a type has no capacity, "About instance flexibility in MIGs")."""
    return {
        "instance_selections": [
            {"name": f"rank-{rank}", "rank": rank, "machine_types": [machine_type]}
            for rank, machine_type in enumerate((instance_type, *fallback_types))
        ]
    }


def regional_group_args(region: str, zone: str, instance_type: str, fallback_types: tuple[str, ...]) -> dict[str, Any]:
    """The arguments that make a regional group one zone's group with ranked types."""
    return {
        "region": region,
        "distribution_policy_zones": [zone],
        "distribution_policy_target_shape": SINGLE_ZONE_SHAPE,
        "instance_flexibility_policy": flexibility_policy(instance_type, fallback_types),
    }
