"""Network children of the AWS cluster: VPC and subnet (or an existing subnet) and the
security group built from `security.security_rules`."""

from __future__ import annotations

from typing import Any

import pulumi
import pulumi_aws as aws

from clouds.aws.efa import NODE_SUBNET_CIDR, VPC_CIDR, check_subnet_size
from clouds.contract import ClusterConfig
from components import network
from components.aws.security import RuleSpec, security_rules

SUBNET_CIDR = NODE_SUBNET_CIDR  # sized in clouds.aws.efa


# Where the nodes and the file system live (`components.network.Network`).
Network = network.Network[aws.ec2.Vpc, aws.ec2.Subnet]


def create_network(name: str, args: ClusterConfig, tags: dict[str, str], opts: pulumi.ResourceOptions) -> Network:
    """Create a VPC and a subnet in `args.zone`, or look up the VPC of `args.subnet_id`.

    Args:
        name: the cluster name; children are named `{name}-vpc`, `{name}-subnet`.
        args: the cluster config (`zone` is an availability-zone ID such as `use1-az4`).
        tags: tags for every resource.
        opts: child options (`parent=` the component).

    Returns:
        The VPC id, subnet id and created resources.
    """
    if args.subnet_id:
        found = aws.ec2.get_subnet_output(id=args.subnet_id, opts=pulumi.InvokeOutputOptions(parent=opts.parent))
        vpc_id = pulumi.Output.all(found.vpc_id, found.cidr_block, found.availability_zone_id).apply(
            lambda values: _checked_subnet(args, *values)
        )
        return Network.existing(vpc_id, args.subnet_id)
    vpc = aws.ec2.Vpc(
        f"{name}-vpc",
        cidr_block=VPC_CIDR,
        enable_dns_support=True,
        enable_dns_hostnames=True,
        tags=tags,
        opts=opts,
    )
    subnet = create_subnet(f"{name}-subnet", vpc, SUBNET_CIDR, args.zone, tags, opts)
    return Network.created(vpc, subnet)


def create_subnet(
    name: str,
    vpc: aws.ec2.Vpc,
    cidr: str,
    zone_id: str,
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
    **extra: Any,
) -> aws.ec2.Subnet:
    """A subnet `name` of the cluster VPC in one availability zone (`zone_id`, an AZ ID), with
    `extra` subnet arguments (the node subnet and the egress's public subnet)."""
    return aws.ec2.Subnet(
        name, vpc_id=vpc.id, cidr_block=cidr, availability_zone_id=zone_id, tags=tags, opts=opts, **extra
    )


def _checked_subnet(args: ClusterConfig, vpc_id: str, cidr: str, zone_id: str | None) -> str:
    """The existing subnet's VPC id, once the subnet is known to fit the cluster.

    Raises:
        ValueError: the subnet lies in another zone than `args.zone` (the nodes would not
            be where the stack says), or has too few addresses for the nodes' IP-using
            interfaces (`efa.check_subnet_size`).
    """
    if zone_id and zone_id != args.zone:
        raise ValueError(
            f"subnet_id: {args.subnet_id} is in zone {zone_id}, not the cluster's zone {args.zone}; "
            "set zone to the subnet's zone or use a subnet in it"
        )
    check_subnet_size(cidr, args.nodes, args.instance_type, args.interconnect, "subnet_id")
    return vpc_id


def create_security_group(
    name: str,
    vpc_id: pulumi.Input[str],
    args: ClusterConfig,
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> tuple[aws.ec2.SecurityGroup, list[pulumi.CustomResource]]:
    """Create the cluster security group and its rules (one resource per rule).

    Args:
        name: the cluster name; the group is `{name}-sg`, rules `{name}-sg-<suffix>`.
        vpc_id: the VPC the group belongs to.
        args: the cluster config (`ssh_cidrs`, `file_system`).
        tags: tags for every resource.
        opts: child options.

    Returns:
        The group and its rule resources, in `security_rules` order.
    """
    group = aws.ec2.SecurityGroup(
        f"{name}-sg",
        vpc_id=vpc_id,
        description=f"trainstack cluster {name}: EFA, Lustre, SSH",
        tags=tags,
        opts=opts,
    )
    rules = [
        _rule(name, group, spec, tags, opts) for spec in security_rules(args.ssh_cidrs, args.file_system is not None)
    ]
    return group, rules


def _rule(
    name: str,
    group: aws.ec2.SecurityGroup,
    spec: RuleSpec,
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> pulumi.CustomResource:
    kind = aws.vpc.SecurityGroupIngressRule
    if spec.direction == "egress":
        kind = aws.vpc.SecurityGroupEgressRule
    return kind(
        f"{name}-sg-{spec.suffix}",
        security_group_id=group.id,
        ip_protocol=spec.ip_protocol,
        from_port=spec.from_port,
        to_port=spec.to_port,
        cidr_ipv4=spec.cidr_ipv4,
        referenced_security_group_id=None if spec.cidr_ipv4 else group.id,
        description=spec.description,
        tags=tags,
        opts=opts,
    )
