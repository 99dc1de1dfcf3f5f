"""Azure's node group when there is no capacity (`Cloud.group_types`, `Cloud.on_demand_base`).

Several sizes in one scale set ("instance mix") is not possible for GPU sizes: Microsoft Learn,
"Use multiple Virtual Machine sizes with instance mix" (azure-compute-docs
instance-mix-overview.md, 2026-05-19), Limitations: "VM families supported in `skuProfile`: A,
B, D, E, and F families only" and "Instance mix doesn't support ... Proximity Placement
Groups". So an Azure stack lists no `fallback_types`: `trainstack up` moves to another size
instead (the stack's `trainstack:fallbacks`).

Spot and on-demand in one scale set ("Spot Priority Mix", spot-priority-mix.md): a Flexible
scale set with `priorityMixPolicy` keeps `baseRegularPriorityCount` VMs on regular priority,
never evicted, and the rest spot (`regularPriorityPercentageAboveBase` 0). It "requires
Flexible orchestration mode" and is "not supported with `singlePlacementMode` enabled"; for
N-series sizes (no memory-preserving updates) a Flexible set mixes Spot and on-demand only with
`platformFaultDomainCount` 1 (virtual-machine-scale-sets-orchestration-modes.md). An InfiniBand
cluster needs one Uniform set in one placement group (InfiniBand joins only the VMs of one
placement group), so it keeps that set and takes no mix.
"""

from __future__ import annotations

from clouds.azure.facts import infiniband_size

INSTANCE_MIX_FAMILIES = "A, B, D, E and F"


def group_type_problem(instance_type: str, other: str, interconnect: str) -> str | None:
    """Why `other` cannot share the scale set with `instance_type`: always, for GPU sizes."""
    return (
        f"Azure's instance mix takes only {INSTANCE_MIX_FAMILIES} family sizes and no proximity placement group "
        "(Microsoft Learn, instance mix limitations); trainstack up moves to another size instead"
    )


def uses_infiniband(instance_type: str, interconnect: str) -> bool:
    """Whether the cluster joins its nodes over InfiniBand (one Uniform set, one placement group)."""
    return interconnect == "rdma" and infiniband_size(instance_type) is not None


def priority_mix_problem(instance_type: str, interconnect: str) -> str | None:
    """Why the scale set cannot keep some nodes on-demand beside spot ones, or None."""
    if uses_infiniband(instance_type, interconnect):
        return (
            "an InfiniBand cluster stays one Uniform scale set in one placement group, and Spot Priority Mix "
            "needs a Flexible set without a single placement group"
        )
    return None
