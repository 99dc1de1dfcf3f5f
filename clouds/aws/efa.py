"""Network-interface layout of a GPU node's launch template, with EFA where the type has it.

Facts come from `facts.aws` (source ids of shared/reference-facts/interconnect.md):
the EFA interface count per instance type is K1 (EC2 DescribeInstanceTypes via Karpenter),
network cards per type K2. The multi-card layout (interface 0 on card 0 device 0, interface k
on card k device 1) is the one the AWS EFA guide requires for P5 (D1, efa-acc-inst-types).
"""

from __future__ import annotations

from typing import Any

from facts.aws import max_efa_interfaces


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


def network_interfaces(
    instance_type: str, subnet_id: Any, security_group_id: Any, interconnect: str = "rdma"
) -> list[dict[str, Any]]:
    """Launch-template network interfaces for one node (pulumi-aws v7 argument names).

    With EFA, interface 0 sits on network card 0 at device index 0 and interface k on
    network card k at device index 1: the layout AWS requires on multi-card types such as
    p5 (D1), and valid on single-card types. Without EFA the node gets one ordinary
    interface, so the subnet and security group always travel with the interfaces.

    Args:
        instance_type: EC2 instance type, e.g. `p5.48xlarge`.
        subnet_id: subnet for every interface (a string or a Pulumi output).
        security_group_id: security group attached to every interface (string or output).
        interconnect: `rdma` to use EFA, `none` for plain Ethernet.

    Returns:
        One dict per interface, in network-card order, suitable for
        `aws.ec2.LaunchTemplate(network_interfaces=...)`.
    """
    count = efa_interface_count(instance_type, interconnect)
    if count == 0:
        return [_interface(0, 0, None, subnet_id, security_group_id)]
    return [
        _interface(card, 0 if card == 0 else 1, "efa", subnet_id, security_group_id)
        for card in range(count)
    ]


def _interface(
    card: int, device: int, kind: str | None, subnet_id: Any, security_group_id: Any
) -> dict[str, Any]:
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
