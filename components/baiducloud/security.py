"""Security-group rules of a Baidu GPU cluster, as plain data in the API's rule shape.

The rules (keys of the SDK's `bcc_model.SecurityGroupRuleModel`):
  * SSH (TCP 22) from each of `ssh_cidrs`, and nothing else from outside the group;
  * all egress (nodes fetch images, packages and data).
Traffic between nodes is allowed by one more rule whose source is the group itself; its id
exists only after creation, so the provider adds it (`intra_group=True`), see
`network_provider.SecurityGroupProvider`.

An ingress rule without `sourceIp` defaults to 0.0.0.0/0 ("The default value 0.0.0.0/0
(allow all ip address)", `SecurityGroupRuleModel` docstring in bce-python-sdk 0.9.79), so
every ingress rule here names its source, and `world_open_ingress` finds rules that do not.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

WORLD = frozenset({"0.0.0.0/0", "::/0"})
INTRA_GROUP_REMARK = "all traffic between cluster members"
ALL = ""  # protocol / portRange "" means all protocols / all ports (SecurityGroupRuleModel)


def security_group_rules(ssh_cidrs: Iterable[str]) -> list[dict[str, str]]:
    """Rules of the cluster security group, apart from the intra-group rule.

    Args:
        ssh_cidrs: IPv4 CIDRs allowed to reach TCP 22; empty adds no SSH rule.

    Returns:
        One SSH ingress rule per CIDR, then the allow-all egress rule.
    """
    rules = [
        {
            "direction": "ingress",
            "ethertype": "IPv4",
            "protocol": "tcp",
            "portRange": "22",
            "sourceIp": cidr.strip(),
            "remark": "ssh from allowed cidr",
        }
        for cidr in ssh_cidrs
    ]
    rules.append(
        {
            "direction": "egress",
            "ethertype": "IPv4",
            "protocol": ALL,
            "portRange": ALL,
            "destIp": "0.0.0.0/0",
            "remark": "all egress",
        }
    )
    return rules


def intra_group_rule(group_id: str) -> dict[str, str]:
    """Ingress of all traffic from members of the group `group_id` itself (node to node)."""
    return {
        "direction": "ingress",
        "ethertype": "IPv4",
        "protocol": ALL,
        "portRange": ALL,
        "sourceGroupId": group_id,
        "remark": INTRA_GROUP_REMARK,
    }


def world_open_ingress(rules: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Ingress rules open to the whole internet: source 0.0.0.0/0, or no source at all.

    Args:
        rules: rules in the API shape (`direction`, `sourceIp`, `sourceGroupId`, ...).

    Returns:
        The offending rules; empty when every ingress rule names a narrower source.
    """
    return [
        rule
        for rule in rules
        if rule.get("direction") == "ingress"
        and not rule.get("sourceGroupId")
        and (not rule.get("sourceIp") or str(rule["sourceIp"]).strip() in WORLD)
    ]
