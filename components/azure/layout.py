"""Address plan and zone pinning of an Azure cluster, as plain data.

The virtual network holds two subnets: one for the node NICs and one for Azure Managed
Lustre, which must have a subnet of its own that cannot change after creation
(learn.microsoft.com/azure/azure-managed-lustre/amlfs-prerequisites; not in
shared/reference-facts).
"""

from __future__ import annotations

from clouds.azure.zones import REGIONS_WITH_ZONES, ZONE_NAMES

# Choices, not sourced figures: a /16 network, a /20 node subnet (4,096 addresses, far more
# than the 100 VMs one scale set can hold, Z10) and a /22 file-system subnet. The AMLFS
# prerequisites page recommends /24 up to 196 TiB and /23 up to 400 TiB; /22 leaves room
# beyond that, since the subnet cannot be resized once the file system exists.
VNET_CIDR = "10.0.0.0/16"
NODE_SUBNET_CIDR = "10.0.0.0/20"
FS_SUBNET_CIDR = "10.0.16.0/22"

# Azure's zone facts sit below both sides (`clouds.azure.zones`): the stack check uses them too.

# The zone a regional cluster with a file system is pinned to. Azure Managed Lustre asks for
# one availability zone where the region has zones: the Resource Manager template guide
# lists "Availability zone ... Specify a single availability zone for your system" under
# *required* information (MicrosoftDocs/azure-stack-docs azure-managed-lustre/
# create-file-system-resource-manager.md; its example uses ["1"]), the portal's Basics tab
# asks for it, and terraform-provider-azurerm marks `zones` Required on
# azurerm_managed_lustre_file_system. Every region with zones has logical zones 1-3 (regions
# list: 3 zones), so "1" always exists. Logical zones map to physical ones per subscription,
# so if the VM size has no capacity in zone 1 for yours, set `zone: 2` or `3`.
DEFAULT_FILE_SYSTEM_ZONE = "1"


def availability_zones(zone: str) -> list[str] | None:
    """`[zone]` when `zone` names an availability zone ("1", "2" or "3"), else None.

    Args:
        zone: `ClusterConfig.zone`, e.g. `eastus` (regional) or `1`.
    """
    zone = zone.strip()
    return [zone] if zone in ZONE_NAMES else None


def placement_zones(region: str, zone: str, has_file_system: bool) -> list[str] | None:
    """The one zone list shared by the scale set, the file system and the NAT gateway.

    `ClusterConfig.zone` is the region name when the catalog offer is regional. The rule:
      * an explicit zone ("1"-"3") pins everything to it;
      * a regional cluster *with* a file system in a region with zones is pinned to
        `DEFAULT_FILE_SYSTEM_ZONE`, because AMLFS needs a zone there (see the constant), and
        its clients should sit in the same zone: "For optimal performance, create the file
        system in the same region and availability zone as your client machines" (AMLFS
        portal guide, create-file-system-portal.md). The scale set takes the same zone, so
        the nodes land next to the file system (its proximity placement group names none:
        Azure takes a group's zone only with an intent, `compute.create_placement_group`);
      * otherwise nothing is pinned: no file system to sit next to, or a region without
        zones. Microsoft's CycleCloud Workspace for Slurm template does the same: its AMLFS
        zone list defaults to empty (bicep/amlfs.bicep), and PR #288 "include[s] a default
        value when the region supports availability zones"
        (Azure/cyclecloud-slurm-workspace).
    The scale set carries the zone; the placement group is pinned by it.

    Args:
        region: `ClusterConfig.region`, e.g. `eastus`.
        zone: `ClusterConfig.zone`, e.g. `eastus` (regional) or `1`.
        has_file_system: whether the cluster creates an AMLFS file system.

    Returns:
        `[zone]`, or None for no zone.
    """
    explicit = availability_zones(zone)
    if explicit is not None:
        return explicit
    if has_file_system and region.strip().lower() in REGIONS_WITH_ZONES:
        return [DEFAULT_FILE_SYSTEM_ZONE]
    return None
