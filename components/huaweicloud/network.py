"""Network children of the Huawei Cloud cluster: VPC and subnet (or an existing subnet),
the node security group and, with a file system, the file system's own security group.
Rules come from `security` as plain data."""

from __future__ import annotations

from typing import Any

import pulumi
import pulumi_huaweicloud as huaweicloud

from clouds.contract import ClusterConfig
from components import network
from components.huaweicloud.security import FROM_NODE_GROUP, file_system_rules, node_rules

# Choices, not sourced figures: a /16 VPC with one /20 subnet (4,096 addresses) for the
# nodes and the two private IPs plus virtual IP that SFS Turbo takes (sfs_turbo.md).
VPC_CIDR = "10.0.0.0/16"
SUBNET_CIDR = "10.0.0.0/20"
SUBNET_GATEWAY = "10.0.0.1"


# Where the nodes and the file system live (`components.network.Network`).
Network = network.Network[huaweicloud.vpc.Vpc, huaweicloud.vpc.Subnet]


def create_network(name: str, args: ClusterConfig, tags: dict[str, str], opts: pulumi.ResourceOptions) -> Network:
    """Create a VPC and a subnet, or look up the VPC of `args.subnet_id`.

    Args:
        name: the cluster name; children are `{name}-vpc` and `{name}-subnet`.
        args: the cluster config (`subnet_id`).
        tags: tags for the VPC and subnet.
        opts: child options (`parent=` the component).
    """
    if args.subnet_id:
        found = huaweicloud.vpc.get_subnet_output(id=args.subnet_id, opts=pulumi.InvokeOptions(parent=opts.parent))
        return Network.existing(found.vpc_id, args.subnet_id)
    vpc = huaweicloud.vpc.Vpc(f"{name}-vpc", cidr=VPC_CIDR, tags=tags, opts=opts)
    subnet = huaweicloud.vpc.Subnet(
        f"{name}-subnet",
        vpc_id=vpc.id,
        cidr=SUBNET_CIDR,
        gateway_ip=SUBNET_GATEWAY,
        tags=tags,
        opts=opts,
    )
    return Network.created(vpc, subnet)


def create_security_group(
    name: str,
    suffix: str,
    rules: list[tuple[str, dict[str, Any]]],
    node_group_id: pulumi.Input[str] | None,
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> tuple[huaweicloud.vpc.Secgroup, list[huaweicloud.vpc.SecgroupRule]]:
    """Create one security group without default rules, then its rules.

    Args:
        name: the cluster name; the group is `{name}-{suffix}`, rules `{name}-{suffix}-{rule}`.
        suffix: `sg` (nodes) or `sfs-sg` (file system).
        rules: `security.node_rules(...)` or `security.file_system_rules()`.
        node_group_id: the node group's id for `FROM_NODE_GROUP` sources; None means this
            group is the node group.
        tags: tags for the group (rules take none).
        opts: child options.
    """
    group = huaweicloud.vpc.Secgroup(f"{name}-{suffix}", delete_default_rules=True, tags=tags, opts=opts)
    source_group = node_group_id if node_group_id is not None else group.id
    created = []
    for rule_name, rule in rules:
        if rule.get("remote_group_id") == FROM_NODE_GROUP:
            rule = {**rule, "remote_group_id": source_group}
        created.append(
            huaweicloud.vpc.SecgroupRule(f"{name}-{suffix}-{rule_name}", security_group_id=group.id, **rule, opts=opts)
        )
    return group, created


def create_node_security_group(
    name: str, args: ClusterConfig, tags: dict[str, str], opts: pulumi.ResourceOptions
) -> tuple[huaweicloud.vpc.Secgroup, list[huaweicloud.vpc.SecgroupRule]]:
    """The node group `{name}-sg`: internal traffic, SSH only from `args.ssh_cidrs`."""
    return create_security_group(name, "sg", node_rules(args.ssh_cidrs), None, tags, opts)


def create_file_system_security_group(
    name: str, node_group_id: pulumi.Input[str], tags: dict[str, str], opts: pulumi.ResourceOptions
) -> tuple[huaweicloud.vpc.Secgroup, list[huaweicloud.vpc.SecgroupRule]]:
    """The file-system group `{name}-sfs-sg`: all traffic from the node group only."""
    return create_security_group(name, "sfs-sg", file_system_rules(), node_group_id, tags, opts)
