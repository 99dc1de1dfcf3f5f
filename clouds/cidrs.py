"""The CIDRs a stack opens an admin port (SSH, TCP 22) to: one rule for every cloud.

A stack's `ssh_cidrs` is secure by default: empty opens nothing. Each entry must be an IPv4
network written exactly (`203.0.113.0/24`; one address as `/32`), because every component
writes it verbatim into its cloud's firewall rule, whose API takes a CIDR (an address without
a prefix length, or with host bits set, is refused there or read differently). The whole
internet is refused however it is written (`0.0.0.0/0`, `1.2.3.4/0`, `::/0`), and so is any
block wider than the policy threshold (`clouds.policy.MIN_PREFIX`: IPv4 /8, IPv6 /16). IPv6
is refused: the clusters' networks are IPv4 only.
"""

from __future__ import annotations

import ipaddress

from clouds.policy import MIN_PREFIX

EXAMPLE = "203.0.113.0/24"


def ssh_cidr_problem(cidr: object) -> str | None:
    """Why `cidr` cannot open SSH (one line naming `ssh_cidrs` and the fix), or None.

    Args:
        cidr: one entry of a stack's `ssh_cidrs`.
    """
    text = str(cidr)
    try:
        network = ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        return f"ssh_cidrs: '{text}' is not an IPv4 CIDR; write it like {EXAMPLE} (one address: 203.0.113.7/32)"
    if network.prefixlen < MIN_PREFIX[network.version]:
        return (
            f"ssh_cidrs: {text} opens SSH to the whole internet or a large part of it; list your office or "
            f"bastion CIDRs instead (IPv4, /{MIN_PREFIX[4]} or narrower; secure by default: [] opens nothing)"
        )
    if network.version != 4:
        return f"ssh_cidrs: '{text}' is IPv6; the clusters' networks are IPv4 only: list IPv4 CIDRs such as {EXAMPLE}"
    if "/" not in text:
        return (
            f"ssh_cidrs: '{text}' has no prefix length; write {network} for that one address "
            f"(or its network, e.g. {network.supernet(new_prefix=24)})"
        )
    if text != str(network):
        address = ipaddress.ip_address(text.strip().split("/")[0])
        one = f" or {address}/32 (that one address)" if address != network.network_address else ""
        return f"ssh_cidrs: '{text}' is not written as a network; write {network} (the network){one}"
    return None
