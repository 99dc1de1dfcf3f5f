"""Outbound internet for the nodes: a NAT gateway with one Standard public IPv4 address,
attached to the node subnet (the Azure counterpart of `components/aws/egress.py`).

Why: ND nodes have no public IP, yet they fetch packages, the Lustre client repository and
NVIDIA repositories. Azure's implicit "default outbound access" is not meant for that: its
IP "isn't owned by customers" and "is subject to change", and NAT gateway "is the
recommended approach to have explicit outbound connectivity" (MicrosoftDocs/azure-docs
articles/virtual-network/ip-services/default-outbound-access.md). From network API version
2025-07-01 (released after March 31, 2026) subnets of new virtual networks are private by
default and have no outbound path at all without one (Microsoft Tech Community, Azure
Networking Blog post 4513778 on private subnets by default).

Nothing inbound: "Unsolicited inbound connections from the internet aren't permitted
through a NAT gateway. Only packets arriving as response packets to an outbound connection
can pass" (articles/nat-gateway/nat-overview.md). The public IP sits on the NAT gateway
only, never on a node NIC, and the cluster NSG still denies inbound Internet traffic.

Layout and zones: NAT gateway needs Standard-SKU public IPs (nat-overview.md, "NAT gateway
and basic SKU resources"); a static IPv4 Standard address as in Microsoft's CycleCloud
Workspace for Slurm template (Azure/cyclecloud-slurm-workspace bicep/natgateway.bicep). The
NAT gateway and its address share the cluster's zone when it has one (a "zonal stack") and
are otherwise placed in "no zone", which accepts a no-zone address (articles/nat-gateway/
nat-availability-zones.md). A NAT gateway's zone "can't be changed" after deployment
(nat-overview.md), so a zone change replaces it. Only the node subnet is attached: the
file-system subnet keeps its own outbound settings, as in the same Microsoft template.
"""

from __future__ import annotations

from typing import NamedTuple

import pulumi_azure_native as azure_native

from components.azure.place import Place

STANDARD_SKU = "Standard"


class Egress(NamedTuple):
    """The egress resources.

    Attributes:
        public_ip: the NAT gateway's Standard static public IPv4 address (allow-list its
            `ip_address` at package mirrors if they filter by source).
        nat_gateway: the NAT gateway the node subnet uses.
    """

    public_ip: azure_native.network.PublicIPAddress
    nat_gateway: azure_native.network.NatGateway


def create_egress(place: Place) -> Egress:
    """Create the NAT gateway `{name}-nat` and its public IP `{name}-nat-ip` in the place's
    zone (attach it with the subnet's `nat_gateway`).

    Returns:
        The public IP and the NAT gateway.
    """
    standard = {"sku": {"name": STANDARD_SKU}, "zones": place.zones}
    public_ip = azure_native.network.PublicIPAddress(
        f"{place.name}-nat-ip",
        **place.located(),
        **standard,
        public_ip_allocation_method="Static",
        public_ip_address_version="IPv4",
        opts=place.opts,
    )
    nat_gateway = azure_native.network.NatGateway(
        f"{place.name}-nat",
        **place.located(),
        **standard,
        public_ip_addresses=[{"id": public_ip.id}],
        opts=place.opts,
    )
    return Egress(public_ip, nat_gateway)
