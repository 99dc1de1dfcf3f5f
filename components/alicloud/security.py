"""Security-group rules and address plan of an Alibaba GPU cluster, as plain data.

Every node sits in one security group with `inner_access_policy="Accept"` (instances in
the group reach each other, pulumi-alicloud `ecs.SecurityGroup` doc). Ingress rules:
  * all protocols from the VPC CIDR (node to node outside the group, CPFS mount target);
  * SSH (TCP 22) only from `ssh_cidrs`, one rule per CIDR; none by default.
Nothing is opened to 0.0.0.0/0: an Alibaba security group denies inbound traffic no rule
accepts, and `cidr_ip` has no default (leaving it empty fails instead of opening to all,
pulumi-alicloud `ecs.SecurityGroupRule` doc). Egress keeps the group's default.
"""

from __future__ import annotations

from typing import Any

# Choices, not sourced figures: a /16 VPC and one /20 vSwitch for nodes and the CPFS
# (4,096 addresses, far more than 20 deployment-set nodes; the vSwitch mask must be
# 16-29 bits, pulumi-alicloud `vpc.Switch` doc).
VPC_CIDR = "10.0.0.0/16"
VSWITCH_CIDR = "10.0.0.0/20"
SSH_PRIORITY = 1
VPC_PRIORITY = 1


def ingress_rules(ssh_cidrs: tuple[str, ...] | list[str]) -> list[dict[str, Any]]:
    """Ingress rules of the cluster security group (`ecs.SecurityGroupRule` arguments).

    Args:
        ssh_cidrs: IPv4 CIDRs allowed to reach TCP 22; empty adds no SSH rule.

    Returns:
        `[{"suffix": ..., **rule arguments}]`: the VPC-internal rule (`vpc`) first, then
        one SSH rule per CIDR (`ssh-0`, `ssh-1`, ...).
    """
    rules = [
        _ingress("vpc", "all", "-1/-1", VPC_CIDR, VPC_PRIORITY, "all traffic inside the VPC"),
    ]
    for index, cidr in enumerate(ssh_cidrs):
        rules.append(_ingress(f"ssh-{index}", "tcp", "22/22", cidr.strip(), SSH_PRIORITY, "SSH from allowed CIDR"))
    return rules


def _ingress(suffix: str, protocol: str, ports: str, cidr: str, priority: int, description: str) -> dict[str, Any]:
    return {
        "suffix": suffix,
        "type": "ingress",
        "ip_protocol": protocol,
        "port_range": ports,
        "cidr_ip": cidr,
        "policy": "accept",
        "priority": priority,
        "nic_type": "intranet",
        "description": description,
    }
