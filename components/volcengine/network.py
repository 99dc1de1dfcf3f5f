"""Network children of the Volcengine cluster: VPC and subnet in the nodes' zone (or an
existing subnet) and the security group with the rules from `security`."""

from __future__ import annotations

import pulumi
import pulumi_volcengine as volcengine

from clouds.contract import ClusterConfig
from components import network
from components.volcengine.security import FROM_OWN_GROUP, node_rules

# Choices, not sourced figures: a /16 VPC and one /20 subnet (4,096 addresses) for the
# nodes and the vePFS mount service; both inside 10.0.0.0/16 as the VPC docs require.
VPC_CIDR = "10.0.0.0/16"
SUBNET_CIDR = "10.0.0.0/20"


# Where the nodes and the file system live (`components.network.Network`).
Network = network.Network[volcengine.vpc.Vpc, volcengine.vpc.Subnet]


def create_network(name: str, args: ClusterConfig, tags: list[dict[str, str]], opts: pulumi.ResourceOptions) -> Network:
    """Create a VPC and a subnet in `args.zone`, or look up the VPC of `args.subnet_id`.

    Args:
        name: the cluster name; children are `{name}-vpc` and `{name}-subnet`.
        args: the cluster config (`zone`, `subnet_id`).
        tags: tags for the VPC and subnet.
        opts: child options (`parent=` the component).
    """
    if args.subnet_id:
        found = volcengine.vpc.get_subnets_output(ids=[args.subnet_id], opts=pulumi.InvokeOptions(parent=opts.parent))
        vpc_id = found.subnets.apply(lambda subnets: _only_vpc(subnets, args.subnet_id))
        return Network.existing(vpc_id, args.subnet_id)
    vpc = volcengine.vpc.Vpc(f"{name}-vpc", vpc_name=f"{name}-vpc", cidr_block=VPC_CIDR, tags=tags, opts=opts)
    subnet = volcengine.vpc.Subnet(
        f"{name}-subnet",
        subnet_name=f"{name}-subnet",
        vpc_id=vpc.id,
        zone_id=args.zone,
        cidr_block=SUBNET_CIDR,
        tags=tags,
        opts=opts,
    )
    return Network.created(vpc, subnet)


def _only_vpc(subnets: list, subnet_id: str) -> str:
    if not subnets:
        raise ValueError(f"subnet_id: {subnet_id} was not found in this region; check the id")
    return subnets[0].vpc_id


def create_security_group(
    name: str,
    args: ClusterConfig,
    vpc_id: pulumi.Input[str],
    tags: list[dict[str, str]],
    opts: pulumi.ResourceOptions,
) -> tuple[volcengine.vpc.SecurityGroup, list[volcengine.vpc.SecurityGroupRule]]:
    """Create the cluster security group `{name}-sg` and its rules `{name}-sg-<rule>`.

    Args:
        name: the cluster name.
        args: the cluster config (`ssh_cidrs`).
        vpc_id: the VPC the group belongs to.
        tags: tags for the group (rules take none).
        opts: child options.
    """
    group = volcengine.vpc.SecurityGroup(
        f"{name}-sg", security_group_name=f"{name}-sg", vpc_id=vpc_id, tags=tags, opts=opts
    )
    rules = []
    for rule_name, rule in node_rules(args.ssh_cidrs):
        if rule.get("source_group_id") == FROM_OWN_GROUP:
            rule = {**rule, "source_group_id": group.id}
        rules.append(
            volcengine.vpc.SecurityGroupRule(f"{name}-sg-{rule_name}", security_group_id=group.id, **rule, opts=opts)
        )
    return group, rules
