"""Address plan and zone pinning of an Azure cluster, as plain data.

The virtual network holds two subnets: one for the node NICs and one for Azure Managed
Lustre, which must have a subnet of its own that cannot change after creation
(learn.microsoft.com/azure/azure-managed-lustre/amlfs-prerequisites; not in
shared/reference-facts).
"""

from __future__ import annotations

# Choices, not sourced figures: a /16 network, a /20 node subnet (4,096 addresses, far more
# than the 100 VMs one scale set can hold, Z10) and a /22 file-system subnet. The AMLFS
# prerequisites page recommends /24 up to 196 TiB and /23 up to 400 TiB; /22 leaves room
# beyond that, since the subnet cannot be resized once the file system exists.
VNET_CIDR = "10.0.0.0/16"
NODE_SUBNET_CIDR = "10.0.0.0/20"
FS_SUBNET_CIDR = "10.0.16.0/22"

# Availability-zone names Azure uses within a region.
ZONE_NAMES = ("1", "2", "3")


def availability_zones(zone: str) -> list[str] | None:
    """The zone list for the proximity placement group and the file system.

    `ClusterConfig.zone` is the region name when the cluster is regional (no zones). When it
    names a zone ("1", "2" or "3"), the proximity placement group is pinned to it (the API's
    PPG `zones`: "the Availability Zone where virtual machine, virtual machine scale set or
    availability set associated with the proximity placement group can be created") and so
    is the file system; AMLFS clients reach the advertised throughput only from the file
    system's zone (MicrosoftDocs azure-managed-lustre connect-clients.md). The scale set
    itself never gets `zones`.

    Args:
        zone: `ClusterConfig.zone`, e.g. `eastus` (regional) or `1`.

    Returns:
        `[zone]` for a zone name, else None (no zones).
    """
    zone = zone.strip()
    return [zone] if zone in ZONE_NAMES else None
