"""Network-security-group rules of an Azure GPU cluster, as plain data.

Azure NSGs already carry default rules (allow VNet inbound, allow Azure load balancer,
deny all other inbound); the rules below restate the two that matter explicitly, so the
intent is visible in the stack and survives a change of defaults:
  * all traffic between addresses of the virtual network (node to node, node to Lustre);
  * no inbound traffic from the Internet service tag;
plus SSH (TCP 22) from `ssh_cidrs` only, when any are given. Lower priority numbers win,
so the SSH rule (100) is evaluated before the Internet deny (4096).
"""

from __future__ import annotations

from typing import Any

SSH_PRIORITY = 100
VNET_PRIORITY = 1000
DENY_INTERNET_PRIORITY = 4096  # last custom priority (NSG rules take 100-4096; unsourced here)


def security_rules(ssh_cidrs: tuple[str, ...] | list[str]) -> list[dict[str, Any]]:
    """Inbound rules of the cluster NSG (azure-native `SecurityRuleArgs` as dicts).

    Args:
        ssh_cidrs: IPv4 CIDRs allowed to reach TCP 22; empty adds no SSH rule.

    Returns:
        The SSH rule (when `ssh_cidrs` is not empty), the VNet-internal allow rule and the
        Internet deny rule, in priority order.
    """
    rules: list[dict[str, Any]] = []
    if ssh_cidrs:
        rules.append(
            _inbound("allow-ssh", SSH_PRIORITY, "Allow", "Tcp", "22", "SSH from allowed CIDRs")
            | {"source_address_prefixes": list(ssh_cidrs)}
        )
    rules.append(
        _inbound("allow-vnet", VNET_PRIORITY, "Allow", "*", "*", "all traffic inside the VNet")
        | {"source_address_prefix": "VirtualNetwork"}
    )
    rules.append(
        _inbound("deny-internet", DENY_INTERNET_PRIORITY, "Deny", "*", "*", "no inbound from Internet")
        | {"source_address_prefix": "Internet"}
    )
    return rules


def _inbound(name: str, priority: int, access: str, protocol: str, port: str, description: str) -> dict[str, Any]:
    return {
        "name": name,
        "priority": priority,
        "direction": "Inbound",
        "access": access,
        "protocol": protocol,
        "source_port_range": "*",
        "destination_port_range": port,
        "destination_address_prefix": "VirtualNetwork" if access == "Allow" else "*",
        "description": description,
    }
