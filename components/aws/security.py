"""Security-group rules for a GPU cluster, as plain data.

EFA traffic must be allowed both in and out between members of the same security group
(AWS EFA guide, D1 in shared/reference-facts/interconnect.md); an egress rule to 0.0.0.0/0
does not satisfy EFA's self-reference check, so both self rules are explicit. Lustre clients
reach FSx on TCP 988 and 1018-1023 (FSx for Lustre guide, "file system access control with
Amazon VPC"; unsourced in shared/reference-facts); the all-traffic self rule already admits
them, the explicit rules document the requirement and survive a tightened self rule.
"""

from __future__ import annotations

from typing import NamedTuple

ALL = "-1"


class RuleSpec(NamedTuple):
    """One `aws.vpc.SecurityGroupIngressRule` / `SecurityGroupEgressRule`.

    Attributes:
        direction: `ingress` or `egress`.
        suffix: resource name suffix, unique within the cluster.
        ip_protocol: `-1` for all traffic, else `tcp`.
        from_port: first port, None for all traffic.
        to_port: last port, None for all traffic.
        cidr_ipv4: the peer CIDR, or None when the peer is the group itself.
        description: shown in the EC2 console.
    """

    direction: str
    suffix: str
    ip_protocol: str
    from_port: int | None
    to_port: int | None
    cidr_ipv4: str | None
    description: str


def security_rules(ssh_cidrs: tuple[str, ...] | list[str], lustre: bool) -> list[RuleSpec]:
    """Rules of the cluster security group.

    Args:
        ssh_cidrs: IPv4 CIDRs allowed to reach TCP 22; empty adds no SSH rule.
        lustre: add the Lustre client rules (TCP 988 and 1018-1023 from the group).

    Returns:
        Self ingress and egress (all traffic), egress to 0.0.0.0/0 (package installs),
        one SSH ingress per CIDR, and the Lustre rules when asked.
    """
    rules = [
        RuleSpec("ingress", "self-in", ALL, None, None, None, "all traffic within the cluster (EFA)"),
        RuleSpec("egress", "self-out", ALL, None, None, None, "all traffic within the cluster (EFA)"),
        RuleSpec("egress", "egress-all", ALL, None, None, "0.0.0.0/0", "outbound (package installs)"),
    ]
    rules += [
        RuleSpec("ingress", f"ssh-{i}", "tcp", 22, 22, cidr, f"SSH from {cidr}") for i, cidr in enumerate(ssh_cidrs)
    ]
    if lustre:
        rules += [
            RuleSpec("ingress", "lustre-988", "tcp", 988, 988, None, "Lustre (FSx)"),
            RuleSpec("ingress", "lustre-1018", "tcp", 1018, 1023, None, "Lustre (FSx)"),
        ]
    return rules
