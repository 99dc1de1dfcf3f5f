"""Ingress firewall rules of a cluster, as plain data.

Every rule admits traffic only from inside the cluster's own subnets (or the Managed
Lustre peering range); none has a 0.0.0.0/0 source. SSH (TCP 22) is admitted only from
`ClusterConfig.ssh_cidrs`, and not at all by default. GCP's implied egress rule lets
nodes reach the internet through Cloud NAT and Google APIs through Private Google Access.
Google's health-check probes (`group.HEALTH_CHECK_RANGES`) reach sshd for the node group's
auto-healing; nothing else does from outside. Managed Lustre servers reach clients on TCP 988 and 6988 from the peering range (Google's
Managed Lustre setup commands in cluster-toolkit and google/xpk; unsourced in
shared/reference-facts).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from clouds.gcp.group import HEALTH_CHECK_RANGES, HEALTH_PORT
from clouds.gcp.nics import PRIMARY, NicLayout
from components.gcp.addressing import PRIMARY_CIDR, PSA_CIDR, gpu_subnet_cidrs

# (protocol, ports); an empty ports tuple means every port.
INTERNAL = (("tcp", ()), ("udp", ()), ("icmp", ()))
LUSTRE_PORTS = ("988", "6988")


class FirewallSpec(NamedTuple):
    """One `gcp.compute.Firewall` (direction INGRESS, action allow).

    Attributes:
        suffix: resource name suffix, unique within the cluster (`{cluster}-fw-{suffix}`).
        network: `primary` or a GPU network suffix.
        allows: `(protocol, ports)` pairs; empty ports = all ports.
        source_ranges: CIDRs admitted.
        description: shown in the console.
    """

    suffix: str
    network: str
    allows: tuple[tuple[str, tuple[str, ...]], ...]
    source_ranges: tuple[str, ...]
    description: str


def firewall_rules(
    layout: NicLayout, ssh_cidrs: Sequence[str], lustre: bool = False, health_check: bool = False
) -> list[FirewallSpec]:
    """Rules for the primary VPC and every GPU VPC of the layout.

    Args:
        layout: the node's NIC layout (its GPU VPCs each get an internal rule).
        ssh_cidrs: IPv4 CIDRs allowed to reach TCP 22; empty adds no SSH rule.
        lustre: add the Managed Lustre rule (TCP 988, 6988 from the peering range).
        health_check: add the auto-healing probe rule (TCP 22 from Google's probe ranges).

    Returns:
        Internal rule on the primary VPC, one per GPU VPC, then SSH, Lustre and health-check rules.
    """
    rules = [FirewallSpec("internal", PRIMARY, INTERNAL, (PRIMARY_CIDR,), "all TCP/UDP/ICMP within the cluster")]
    for suffix, cidrs in gpu_subnet_cidrs(layout).items():
        rules.append(FirewallSpec(f"{suffix}-internal", suffix, INTERNAL, tuple(cidrs), "GPU-to-GPU traffic"))
    if ssh_cidrs:
        rules.append(FirewallSpec("ssh", PRIMARY, (("tcp", ("22",)),), tuple(ssh_cidrs), "SSH from ssh_cidrs"))
    if lustre:
        rules.append(FirewallSpec("lustre", PRIMARY, (("tcp", LUSTRE_PORTS),), (PSA_CIDR,), "Managed Lustre"))
    if health_check:
        probe = (("tcp", (str(HEALTH_PORT),)),)
        rules.append(FirewallSpec("health", PRIMARY, probe, HEALTH_CHECK_RANGES, "node auto-healing probes"))
    return rules
