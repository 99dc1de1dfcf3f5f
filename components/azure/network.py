"""Network children of the Azure cluster: virtual network, node subnet with its NAT gateway
(`egress`), file-system subnet (or an existing node subnet) and the network security group
from `security.security_rules`."""

from __future__ import annotations

from typing import NamedTuple

import pulumi
import pulumi_azure_native as azure_native

from clouds.contract import ClusterConfig
from components.azure.egress import Egress, create_egress
from components.azure.layout import FS_SUBNET_CIDR, NODE_SUBNET_CIDR, VNET_CIDR
from components.azure.place import Place
from components.azure.security import security_rules


class Network(NamedTuple):
    """Where the nodes and the file system live.

    Attributes:
        node_subnet_id: the subnet of every node NIC.
        fs_subnet_id: the file system's own subnet, or None without a file system.
        vnet: the created virtual network, or None when `subnet_id` was given.
        node_subnet: the created node subnet, or None when `subnet_id` was given.
        fs_subnet: the created file-system subnet, or None without a file system.
        egress: the node subnet's NAT gateway and public IP, or None when `subnet_id` was
            given (outbound access from an existing subnet is its owner's choice).
    """

    node_subnet_id: pulumi.Output[str]
    fs_subnet_id: pulumi.Output[str] | None
    vnet: azure_native.network.VirtualNetwork | None
    node_subnet: azure_native.network.Subnet | None
    fs_subnet: azure_native.network.Subnet | None
    egress: Egress | None


def create_network(place: Place, args: ClusterConfig) -> Network:
    """Create a virtual network, a node subnet behind a NAT gateway and, with a file system,
    its subnet.

    The node subnet's outbound traffic leaves through the NAT gateway (`egress`); nothing
    inbound comes through it. With `args.subnet_id` the nodes use that subnet and nothing is
    created (validation has already rejected `subnet_id` together with a file system). The cluster NSG sits on the
    node NICs, so it applies to an existing subnet too. The file-system subnet gets no NSG:
    it holds no public addresses, and AMLFS needs traffic between its hosts and outbound
    access to Azure services that a restrictive NSG would have to re-open (AMLFS
    prerequisites page).

    Args:
        place: the cluster's place; children are `{name}-vnet`, `{name}-nodes-subnet`,
            `{name}-lustre-subnet`, `{name}-nat` and `{name}-nat-ip` (subnets take no tags).
        args: the cluster config (`subnet_id`, `file_system`).

    Returns:
        Subnet ids and created resources.
    """
    if args.subnet_id:
        return Network(pulumi.Output.from_input(args.subnet_id), None, None, None, None, None)
    name, group = place.name, place.resource_group_name
    vnet = azure_native.network.VirtualNetwork(
        f"{name}-vnet", **place.located(), address_space={"address_prefixes": [VNET_CIDR]}, opts=place.opts
    )
    egress = create_egress(place)
    node_subnet = azure_native.network.Subnet(
        f"{name}-nodes-subnet",
        resource_group_name=group,
        virtual_network_name=vnet.name,
        address_prefix=NODE_SUBNET_CIDR,
        nat_gateway={"id": egress.nat_gateway.id},
        opts=place.opts,
    )
    fs_subnet = None
    if args.file_system is not None:
        # Create the subnets one after the other: parallel subnet writes to one virtual
        # network can conflict (unsourced; a common ARM retry case).
        fs_subnet = azure_native.network.Subnet(
            f"{name}-lustre-subnet",
            resource_group_name=group,
            virtual_network_name=vnet.name,
            address_prefix=FS_SUBNET_CIDR,
            opts=place.options(depends_on=[node_subnet]),
        )
    fs_subnet_id = fs_subnet.id if fs_subnet else None
    return Network(node_subnet.id, fs_subnet_id, vnet, node_subnet, fs_subnet, egress)


def create_security_group(place: Place, args: ClusterConfig) -> azure_native.network.NetworkSecurityGroup:
    """Create the cluster NSG `{name}-nsg` with its rules inline (attached to every node NIC;
    `args.ssh_cidrs` may reach SSH)."""
    return azure_native.network.NetworkSecurityGroup(
        f"{place.name}-nsg", **place.located(), security_rules=security_rules(args.ssh_cidrs), opts=place.opts
    )
