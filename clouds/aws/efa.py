"""Network-interface layout of a GPU node's launch template, with EFA where the type has it.

Facts come from `facts.aws` (source ids of shared/reference-facts/interconnect.md
and that module): the EFA interface count per instance type is K1 (EC2
DescribeInstanceTypes via Karpenter), network cards per type K2, interfaces per card K3.
The layout follows the AWS EFA guide for multi-card types (D1, D2, efa-acc-inst-types):
interface 0 is the primary, an EFA with ENA on card 0 at device index 0 (a primary cannot be
EFA-only); interface k sits on card k, as EFA-only where the type accepts it (no IP address,
only GPU-to-GPU traffic), at device index 1 when the card takes two or more interfaces and
at 0 when it takes one (or its limit is not recorded).
"""

from __future__ import annotations

import ipaddress
from typing import Any

from facts.aws import aws_network, max_efa_interfaces

# AWS reserves the first four and the last address of every subnet (Amazon VPC user guide,
# "Subnet CIDR blocks": 10.0.0.0-10.0.0.3 and 10.0.0.255 of a /24).
RESERVED_PER_SUBNET = 5
# The subnet a created VPC gives the nodes: a choice, not a sourced figure. A /16 VPC with a
# /17 subnet leaves 32,763 usable addresses (e.g. 1,000 p5 nodes with EFA-only secondaries,
# or 8,190 p4d nodes at 4 addresses each).
VPC_CIDR = "10.0.0.0/16"
NODE_SUBNET_CIDR = "10.0.0.0/17"


def efa_interface_count(instance_type: str, interconnect: str = "rdma") -> int:
    """Number of EFA interfaces to attach to one node.

    Args:
        instance_type: EC2 instance type, e.g. `p4d.24xlarge` (4, K1) or `p5.48xlarge` (32, K1).
        interconnect: `rdma` to use EFA, `none` for plain Ethernet.

    Returns:
        The instance type's maximum EFA interfaces (K1), or 0 when `interconnect` is `none`
        or the type has no EFA.
    """
    if interconnect != "rdma":
        return 0
    return max_efa_interfaces(instance_type)


def gpudirect_efa(instance_type: str, interconnect: str = "rdma") -> bool:
    """True when the nodes use EFA and it reads and writes GPU memory directly (N1)."""
    facts = aws_network(instance_type)
    return bool(efa_interface_count(instance_type, interconnect) and facts and facts.gpudirect_rdma)


def interface_layout(instance_type: str, interconnect: str = "rdma") -> list[tuple[int, int, str | None]]:
    """`(network card, device index, interface type)` of each interface of one node.

    Args:
        instance_type: EC2 instance type.
        interconnect: `rdma` to use EFA, `none` for plain Ethernet.

    Returns:
        `[(0, 0, None)]` without EFA; else `(0, 0, "efa")` then one interface per further
        card: `"efa-only"` where the type accepts it (D2), else `"efa"`, at device index 1
        when that card takes two or more interfaces (K3) and 0 otherwise.
    """
    count = efa_interface_count(instance_type, interconnect)
    if count == 0:
        return [(0, 0, None)]
    facts = aws_network(instance_type)
    secondary = "efa-only" if facts and facts.efa_only else "efa"
    per_card = facts.interfaces_per_card if facts else 0
    device = 1 if per_card >= 2 or (per_card == 0 and secondary == "efa") else 0
    return [(0, 0, "efa"), *[(card, device, secondary) for card in range(1, count)]]


def ip_interfaces(instance_type: str, interconnect: str = "rdma") -> int:
    """Private IPv4 addresses one node takes: every interface that is not EFA-only."""
    return sum(kind != "efa-only" for _, _, kind in interface_layout(instance_type, interconnect))


def check_subnet_size(cidr: str, nodes: int, instance_type: str, interconnect: str, field: str) -> None:
    """Refuse a subnet too small for the nodes' IP-using interfaces.

    Args:
        cidr: the subnet's IPv4 block, e.g. `10.20.0.0/24`.
        nodes: number of nodes.
        instance_type: EC2 instance type (its interface layout sets the addresses per node).
        interconnect: `rdma` or `none`.
        field: the config field to name in the error (`subnet_id`, `nodes`).

    Raises:
        ValueError: one line with the addresses needed and available, and the fix.
    """
    usable = ipaddress.ip_network(cidr, strict=False).num_addresses - RESERVED_PER_SUBNET
    per_node = ip_interfaces(instance_type, interconnect)
    needed = nodes * per_node
    if needed > usable:
        other = "an existing subnet" if field == "nodes" else "a subnet"
        raise ValueError(
            f"{field}: the subnet {cidr} has {usable} usable addresses, but {nodes} x {instance_type} "
            f"need {needed} ({per_node} per node, one per interface that is not EFA-only); "
            f"set nodes: {usable // per_node} or fewer, or subnet_id: {other} with {needed} or more free addresses"
        )


def network_interfaces(
    instance_type: str, subnet_id: Any, security_group_id: Any, interconnect: str = "rdma"
) -> list[dict[str, Any]]:
    """Launch-template network interfaces for one node (pulumi-aws v7 argument names).

    The layout is `interface_layout`'s. Without EFA the node gets one ordinary interface,
    so the subnet and security group always travel with the interfaces.

    Args:
        instance_type: EC2 instance type, e.g. `p5.48xlarge`.
        subnet_id: subnet for every interface (a string or a Pulumi output).
        security_group_id: security group attached to every interface (string or output).
        interconnect: `rdma` to use EFA, `none` for plain Ethernet.

    Returns:
        One dict per interface, in network-card order, suitable for
        `aws.ec2.LaunchTemplate(network_interfaces=...)`.
    """
    return [
        _interface(card, device, kind, subnet_id, security_group_id)
        for card, device, kind in interface_layout(instance_type, interconnect)
    ]


def _interface(card: int, device: int, kind: str | None, subnet_id: Any, security_group_id: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "network_card_index": card,
        "device_index": device,
        "subnet_id": subnet_id,
        "security_groups": [security_group_id],
        "delete_on_termination": "true",
    }
    if kind:
        spec["interface_type"] = kind
    return spec
