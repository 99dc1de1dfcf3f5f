"""Security-group rules of a Volcengine GPU cluster, as plain data.

Rules (`vpc.SecurityGroupRule`, one resource each):
  * all traffic from members of the same group (node to node, node to vePFS mount
    service): `protocol="all"` with ports -1/-1 ("no restriction on port values",
    pulumi_volcengine `SecurityGroupRule` doc) and `source_group_id` = the group;
  * TCP 22 from each of `ssh_cidrs` (none by default).

No rule here is open to 0.0.0.0/0, and the nodes get no EIP. What rules Volcengine puts in a
new security group by itself is not documented in either SDK, and pulumi_volcengine cannot
remove them; check them once with `vpc.get_security_group_rules` (unverified here, since no
account was available). No egress rule is added for the same reason: a duplicate of a
default rule could be refused.
"""

from __future__ import annotations

from typing import Any

SSH_PORT = 22
ANY_PORT = -1
# A marker the builder replaces with the group's own id.
FROM_OWN_GROUP = "own-group"


def node_rules(ssh_cidrs: tuple[str, ...] | list[str]) -> list[tuple[str, dict[str, Any]]]:
    """Rules of the cluster security group, as `(name suffix, SecurityGroupRule kwargs)`.

    Args:
        ssh_cidrs: IPv4 CIDRs allowed to reach TCP 22; empty adds no SSH rule.

    Returns:
        The internal rule (`source_group_id` is `FROM_OWN_GROUP`), then one SSH rule per
        CIDR (`ssh-0`, `ssh-1`, ...).
    """
    rules: list[tuple[str, dict[str, Any]]] = [
        (
            "internal",
            {
                "direction": "ingress",
                "protocol": "all",
                "port_start": ANY_PORT,
                "port_end": ANY_PORT,
                "source_group_id": FROM_OWN_GROUP,
                "description": "all traffic from cluster members",
            },
        )
    ]
    for index, cidr in enumerate(ssh_cidrs):
        rules.append(
            (
                f"ssh-{index}",
                {
                    "direction": "ingress",
                    "protocol": "tcp",
                    "port_start": SSH_PORT,
                    "port_end": SSH_PORT,
                    "cidr_ip": cidr.strip(),
                    "description": "SSH from an allowed CIDR",
                },
            )
        )
    return rules
