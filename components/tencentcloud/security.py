"""Security-group rules and address plan of a Tencent GPU cluster, as plain data.

The cluster security group holds one ordered rule set (`security.GroupRuleSet`; "the
first rule has the highest priority", tencentcloud-iac-pulumi 0.2.3 doc). Ingress:
  1. SSH (TCP 22) from each of `ssh_cidrs` (none by default);
  2. all protocols from the VPC CIDR (node to node);
  3. all protocols from the CFS Turbo CIDR, when the cluster has a file system (Turbo
     answers from addresses of its own CCN range, not the VPC);
  4. DROP everything else from 0.0.0.0/0, so the intent survives a change of defaults.
No rule ACCEPTs 0.0.0.0/0 inbound. Egress: ACCEPT all (package mirrors, the file system).
"""

from __future__ import annotations

from typing import Any

# Choices, not sourced figures: a /16 VPC and a /20 node subnet. The CFS Turbo range lives
# in the CCN and must not overlap any other range there (SDK doc), so it sits outside the
# VPC; /24 is the size the SDK's Turbo examples use.
VPC_CIDR = "10.0.0.0/16"
SUBNET_CIDR = "10.0.0.0/20"
TURBO_CIDR = "10.1.0.0/24"
ANYWHERE = "0.0.0.0/0"


def _rule(action: str, cidr: str, protocol: str, port: str, description: str) -> dict[str, Any]:
    return {
        "action": action,
        "cidr_block": cidr,
        "protocol": protocol,
        "port": port,
        "description": description,
    }


def ingress_rules(ssh_cidrs: tuple[str, ...] | list[str], file_system: bool) -> list[dict[str, Any]]:
    """Ordered ingress rules (`GroupRuleSetIngressArgs` as dicts).

    Args:
        ssh_cidrs: IPv4 CIDRs allowed to reach TCP 22; empty adds no SSH rule.
        file_system: True when the cluster has a CFS Turbo file system.

    Returns:
        SSH rules, the VPC rule, the Turbo rule (with a file system) and the final DROP.
    """
    rules = [_rule("ACCEPT", cidr.strip(), "TCP", "22", "SSH from allowed CIDR") for cidr in ssh_cidrs]
    rules.append(_rule("ACCEPT", VPC_CIDR, "ALL", "all", "all traffic inside the VPC"))
    if file_system:
        rules.append(_rule("ACCEPT", TURBO_CIDR, "ALL", "all", "CFS Turbo file system"))
    rules.append(_rule("DROP", ANYWHERE, "ALL", "all", "no other inbound traffic"))
    return rules


def egress_rules() -> list[dict[str, Any]]:
    """Egress rules: accept all outbound traffic."""
    return [_rule("ACCEPT", ANYWHERE, "ALL", "all", "all outbound traffic")]
