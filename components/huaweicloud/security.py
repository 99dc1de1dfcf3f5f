"""Security-group rules of a Huawei Cloud GPU cluster, as plain data.

Both groups are created with `delete_default_rules=True`, so only the rules below exist:

* nodes (`{name}-sg`): all IPv4 traffic from members of the same group (node to node),
  TCP 22 from each of `ssh_cidrs` (none by default), all IPv4 egress;
* file system (`{name}-sfs-sg`, only with a file system): all IPv4 traffic from the node
  group, all IPv4 egress. SFS Turbo also "will enable the inbound rules for ports 111, 445,
  2049, 2051, 2052, and 20048 in the security group you specified" (sfs_turbo.md, official
  Terraform doc); their source range is not documented, which is why the file system gets
  a group of its own and the node group keeps exactly the rules listed here.

No ingress rule is open to 0.0.0.0/0: an ingress rule without `remote_ip_prefix` or
`remote_group_id` would mean "all addresses" (secgroup_rule `remote_ip_prefix` doc), so every
rule here names one or the other. The nodes get no EIP, so nothing is reachable from the
internet without a bastion or VPN in the VPC.
"""

from __future__ import annotations

from typing import Any

SSH_PORT = 22
WORLD_IPV4 = "0.0.0.0/0"
# A marker the builder replaces with the id of the group the rule's source is.
FROM_NODE_GROUP = "node-group"


def node_rules(ssh_cidrs: tuple[str, ...] | list[str]) -> list[tuple[str, dict[str, Any]]]:
    """Rules of the node security group, as `(name suffix, SecgroupRule kwargs)`.

    Args:
        ssh_cidrs: IPv4 CIDRs allowed to reach TCP 22; empty adds no SSH rule.

    Returns:
        The internal rule (`remote_group_id` is `FROM_NODE_GROUP`), egress, then one SSH
        rule per CIDR (`ssh-0`, `ssh-1`, ...).
    """
    rules: list[tuple[str, dict[str, Any]]] = [
        ("internal", _from_nodes()),
        ("egress", _rule("egress", "all IPv4 egress", remote_ip_prefix=WORLD_IPV4)),
    ]
    for index, cidr in enumerate(ssh_cidrs):
        ssh = _rule("ingress", "SSH from an allowed CIDR", remote_ip_prefix=cidr.strip())
        ssh.update(protocol="tcp", port_range_min=SSH_PORT, port_range_max=SSH_PORT)
        rules.append((f"ssh-{index}", ssh))
    return rules


def file_system_rules() -> list[tuple[str, dict[str, Any]]]:
    """Rules of the file-system security group, as `(name suffix, SecgroupRule kwargs)`."""
    return [
        ("from-nodes", _from_nodes()),
        ("egress", _rule("egress", "all IPv4 egress", remote_ip_prefix=WORLD_IPV4)),
    ]


def _from_nodes() -> dict[str, Any]:
    return _rule("ingress", "all IPv4 from cluster nodes", remote_group_id=FROM_NODE_GROUP)


def _rule(direction: str, description: str, **source: str) -> dict[str, Any]:
    return {"direction": direction, "ethertype": "IPv4", "description": description, **source}
