"""Network children of the Tencent cluster: VPC, one subnet in the cluster's zone, and the
security group with the ordered rule set from `security`."""

from __future__ import annotations

from typing import NamedTuple

import pulumi
import tencentcloud_iac_pulumi as tencentcloud

from clouds.contract import ClusterConfig
from components.tencentcloud.security import SUBNET_CIDR, VPC_CIDR, egress_rules, ingress_rules


class Network(NamedTuple):
    """The created network.

    Attributes:
        vpc: the VPC (`{name}-vpc`, 10.0.0.0/16).
        subnet: the node subnet (`{name}-subnet`, in `zone`).
        security_group: the cluster security group (`{name}-sg`).
        rules: its rule set (`{name}-sg-rules`).
    """

    vpc: tencentcloud.vpc.Instance
    subnet: tencentcloud.subnet.Instance
    security_group: tencentcloud.security.Group
    rules: tencentcloud.security.GroupRuleSet


# /20s beside the node subnet (10.0.0.0/20) for a group's further zones (`fallback_zones`, at
# most 5: `clouds.capacity.MAX_FALLBACK_ZONES`); the VPC's default route table serves them all.
ZONE_SUBNET_CIDRS = ("10.0.16.0/20", "10.0.32.0/20", "10.0.48.0/20", "10.0.64.0/20", "10.0.80.0/20")


def create_zone_subnets(
    name: str, args: ClusterConfig, vpc: tencentcloud.vpc.Instance, tags: dict[str, str], opts: pulumi.ResourceOptions
) -> list[tencentcloud.subnet.Instance]:
    """A subnet `{name}-subnet-<zone>` per further zone of `args.fallback_zones`, in order."""
    return [
        tencentcloud.subnet.Instance(
            f"{name}-subnet-{zone}",
            name=f"{name}-subnet-{zone}",
            vpc_id=vpc.id,
            cidr_block=cidr,
            availability_zone=zone,
            tags=tags,
            opts=opts,
        )
        for zone, cidr in zip(args.fallback_zones, ZONE_SUBNET_CIDRS, strict=False)
    ]


def create_network(name: str, args: ClusterConfig, tags: dict[str, str], opts: pulumi.ResourceOptions) -> Network:
    """Create the VPC, the node subnet and the security group with its rule set.

    Args:
        name: the cluster name; children are `{name}-vpc`, `{name}-subnet`, `{name}-sg`
            and `{name}-sg-rules`.
        args: the cluster config (`zone`, `ssh_cidrs`, `file_system`).
        tags: tags for the VPC, subnet and security group (rule sets take none).
        opts: child options (`parent=` the component).
    """
    vpc = tencentcloud.vpc.Instance(f"{name}-vpc", name=f"{name}-vpc", cidr_block=VPC_CIDR, tags=tags, opts=opts)
    subnet = tencentcloud.subnet.Instance(
        f"{name}-subnet",
        name=f"{name}-subnet",
        vpc_id=vpc.id,
        cidr_block=SUBNET_CIDR,
        availability_zone=args.zone,
        tags=tags,
        opts=opts,
    )
    group = tencentcloud.security.Group(
        f"{name}-sg",
        name=f"{name}-sg",
        description="trainstack GPU cluster: internal traffic and SSH from listed CIDRs only",
        tags=tags,
        opts=opts,
    )
    rules = tencentcloud.security.GroupRuleSet(
        f"{name}-sg-rules",
        security_group_id=group.id,
        ingresses=ingress_rules(args.ssh_cidrs, args.file_system is not None),
        egresses=egress_rules(),
        opts=opts,
    )
    return Network(vpc, subnet, group, rules)
