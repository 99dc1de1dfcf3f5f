"""Compute children of the Azure cluster: the admin SSH key (when none is given), the
proximity placement group and the one Uniform scale set that holds every node."""

from __future__ import annotations

import pulumi
import pulumi_azure_native as azure_native

from clouds.contract import ClusterConfig
from components.azure.place import Place
from components.azure.repairs import health_extension_profile, self_healing

# Scale-set inputs that Azure cannot change in place, so Pulumi must recreate the scale set.
# azure-native's own force-new list (provider/pkg/gen/replacement.go) has no compute
# entries; unless the REST spec's x-ms-mutability marks them (not checked), `pulumi up`
# would send an in-place update that Azure rejects.
#   priority: "Can I convert existing scale sets to Azure Spot Virtual machine scale sets?
#     No, setting the Spot flag is only supported at creation time" (MicrosoftDocs/
#     azure-docs articles/virtual-machine-scale-sets/use-spot.md, FAQ); the Azure compute
#     team: update of priority "between 'Spot' and 'Regular' [is] not allowed"
#     (Azure/azure-cli#11187); terraform-provider-azurerm marks `priority` ForceNew on
#     azurerm_linux_virtual_machine_scale_set.
#   evictionPolicy: ForceNew there too (not checked against ARM).
# Keep in step with trainstack/review/replacements.py (a test checks it).
#   orchestrationMode: "defined when you create the scale set and cannot be changed"
#     (virtual-machine-scale-sets-orchestration-modes.md): Uniform <-> Flexible (`on_demand_nodes`).
#   zones: see clouds/azure/replacements.yaml (a regional set made zonal: assumed to replace).
SCALE_SET_REPLACE_ON_CHANGES = (
    "virtualMachineProfile.priority",
    "virtualMachineProfile.evictionPolicy",
    "orchestrationMode",
    "zones",
)
# The network API version a Flexible set's VM profile must name (ARM: networkApiVersion is
# required with orchestrationMode Flexible; Azure/azure-rest-api-specs#27029).
FLEXIBLE_NETWORK_API = "2020-11-01"


def orchestration(args: ClusterConfig, vm_profile: dict) -> tuple[dict, dict]:
    """The scale set's orchestration arguments and its VM profile.

    Uniform, one placement group, no overprovisioning, for every cluster but a spot cluster
    with `on_demand_nodes` (InfiniBand clusters refuse those: `clouds.azure.capacity`): that one
    is a Flexible set with Spot Priority Mix (`on_demand_nodes` regular VMs, the rest spot),
    one fault domain (N-series sizes mix Spot and on-demand only so) and the network API
    version a Flexible set needs."""
    if args.on_demand_nodes is None:
        return {"orchestration_mode": "Uniform", "single_placement_group": True, "overprovision": False}, vm_profile
    network = {**vm_profile["network_profile"], "network_api_version": FLEXIBLE_NETWORK_API}
    flexible = {
        "orchestration_mode": "Flexible",
        "platform_fault_domain_count": 1,
        "priority_mix_policy": {
            "base_regular_priority_count": args.on_demand_nodes,
            "regular_priority_percentage_above_base": 0,
        },
    }
    return flexible, {**vm_profile, "network_profile": network}


def create_placement_group(place: Place) -> azure_native.compute.ProximityPlacementGroup:
    """Create the proximity placement group `{name}-ppg` that keeps every node close together.

    It names no zone: Azure takes a group's zone only with an `intent` of VM sizes ("Providing
    an availability zone without an intent will result in an error when creating the proximity
    placement group"; the zone is fixed at creation and the intent changes only while every VM
    is deallocated: Microsoft Learn, "Proximity placement groups", azure-docs
    virtual-machines/co-location.md). The group is pinned to a data center by its first
    resource, the scale set, which names the zone (`create_scale_set`), so the nodes still sit
    in the file system's zone and a later type change does not touch the group.
    """
    return azure_native.compute.ProximityPlacementGroup(
        f"{place.name}-ppg",
        **place.located(),
        proximity_placement_group_type="Standard",
        opts=place.opts,
    )


def create_scale_set(
    place: Place,
    args: ClusterConfig,
    placement_group_id: pulumi.Input[str],
    vm_profile: dict,
    identity_id: pulumi.Input[str] | None = None,
) -> azure_native.compute.VirtualMachineScaleSet:
    """Create the one scale set holding all `args.nodes` nodes.

    InfiniBand links exist only between VMs of the same scale set (Z2, Z5, Z7) and one
    placement group (single_placement_group=True) holds at most 100 VMs (Z10); validation
    has already rejected larger clusters. Uniform orchestration, in the place's zone when it
    has one (the file system's: the placement group names none, `create_placement_group`, so
    the scale set is what keeps the nodes in the file system's zone), no overprovisioning (extra VMs would join the fabric and be billed
    until deleted), manual upgrades (a model change never restarts nodes mid-run), and
    self-healing (`repairs`): evicted spot VMs restored, unhealthy VMs replaced.

    A purchase change (Spot <-> Regular) recreates the scale set
    (`SCALE_SET_REPLACE_ON_CHANGES`), deleting the old one first: a second set of N GPU
    nodes beside the old one would need twice the GPU quota and placement-group capacity,
    and the nodes are lost in either order.

    Args:
        place: the cluster's place; the scale set is `{name}-nodes` (Azure copies its tags
            to its VMs).
        args: the cluster config (`instance_type`, `nodes`, `purchase`).
        placement_group_id: the proximity placement group id.
        vm_profile: `profile.vm_profile(...)`.
        identity_id: the nodes' user-assigned managed identity (`identity.create_node_identity`),
            or None for no identity.
    """
    identity = {"type": "UserAssigned", "user_assigned_identities": [identity_id]} if identity_id else None
    mode, profile = orchestration(args, vm_profile)
    return azure_native.compute.VirtualMachineScaleSet(
        f"{place.name}-nodes",
        **place.located(),
        **mode,
        sku={"name": args.instance_type, "tier": "Standard", "capacity": args.nodes},
        proximity_placement_group={"id": placement_group_id},
        zones=place.zones,
        upgrade_policy={"mode": "Manual"},
        virtual_machine_profile={**profile, **health_extension_profile()},
        **self_healing(args.purchase),
        identity=identity,
        opts=place.options(replace_on_changes=list(SCALE_SET_REPLACE_ON_CHANGES), delete_before_replace=True),
    )
