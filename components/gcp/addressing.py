"""IPv4 plan of a cluster: the primary subnet, GPU subnets and the Lustre peering range.

Every range is a choice, not a sourced figure: /16 subnets leave room for the contract's
10,000 nodes, GPU subnets never overlap the primary one (a node has a NIC in each), and
the private-services-access range of the file system (a /20, as the Managed Lustre "VPC
network" page allocates; Filestore uses it too) sits far above them.
"""

from __future__ import annotations

from clouds.gcp.nics import NicLayout

PRIMARY_CIDR = "10.0.0.0/16"
PSA_ADDRESS = "10.252.0.0"
PSA_PREFIX = 20
PSA_CIDR = f"{PSA_ADDRESS}/{PSA_PREFIX}"


def gpu_subnet_cidrs(layout: NicLayout) -> dict[str, list[str]]:
    """CIDR of every GPU subnet, numbered after the primary one (10.1.0.0/16, 10.2...).

    Args:
        layout: the node's NIC layout.

    Returns:
        GPU network suffix -> one CIDR per subnet, in subnet order.
    """
    cidrs: dict[str, list[str]] = {}
    index = 1
    for network in layout.networks:
        cidrs[network.suffix] = [f"10.{index + i}.0.0/16" for i in range(network.subnets)]
        index += network.subnets
    return cidrs
