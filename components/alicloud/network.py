"""Network children of the Alibaba cluster: VPC, one vSwitch in the cluster's zone, and the
security group with the rules from `security.ingress_rules`."""

from __future__ import annotations

from typing import NamedTuple

import pulumi
import pulumi_alicloud as alicloud

from clouds.contract import ClusterConfig
from components.alicloud.security import VPC_CIDR, VSWITCH_CIDR, ingress_rules


class Network(NamedTuple):
    """The created network.

    Attributes:
        vpc: the VPC (`{name}-vpc`, 10.0.0.0/16).
        vswitch: the vSwitch of every node and of the CPFS (`{name}-vsw`, in `zone`).
        security_group: the cluster security group (`{name}-sg`).
        rules: its ingress rules, VPC-internal first, then SSH per CIDR.
    """

    vpc: alicloud.vpc.Network
    vswitch: alicloud.vpc.Switch
    security_group: alicloud.ecs.SecurityGroup
    rules: list[alicloud.ecs.SecurityGroupRule]


def create_network(name: str, args: ClusterConfig, tags: dict[str, str], opts: pulumi.ResourceOptions) -> Network:
    """Create the VPC, the node vSwitch and the security group with its ingress rules.

    Args:
        name: the cluster name; children are `{name}-vpc`, `{name}-vsw`, `{name}-sg` and
            `{name}-sg-<rule>`.
        args: the cluster config (`zone`, `ssh_cidrs`).
        tags: tags for the VPC, vSwitch and security group (rules take none).
        opts: child options (`parent=` the component).
    """
    vpc = alicloud.vpc.Network(f"{name}-vpc", vpc_name=f"{name}-vpc", cidr_block=VPC_CIDR, tags=tags, opts=opts)
    vswitch = alicloud.vpc.Switch(
        f"{name}-vsw",
        vswitch_name=f"{name}-vsw",
        vpc_id=vpc.id,
        cidr_block=VSWITCH_CIDR,
        zone_id=args.zone,
        tags=tags,
        opts=opts,
    )
    group = alicloud.ecs.SecurityGroup(
        f"{name}-sg",
        security_group_name=f"{name}-sg",
        vpc_id=vpc.id,
        inner_access_policy="Accept",
        description="trainstack GPU cluster: internal traffic and SSH from listed CIDRs only",
        tags=tags,
        opts=opts,
    )
    rules = [
        alicloud.ecs.SecurityGroupRule(f"{name}-sg-{suffix}", security_group_id=group.id, **rule, opts=opts)
        for suffix, rule in ((r.pop("suffix"), r) for r in ingress_rules(args.ssh_cidrs))
    ]
    return Network(vpc, vswitch, group, rules)
