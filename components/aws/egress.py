"""Outbound internet for nodes in the created VPC, the way AWS ParallelCluster lays it out.

Nodes with several EFA interfaces cannot take a public IPv4 address, so they sit in a
private subnet and reach package mirrors, the Lustre client repository and Systems
Manager through a NAT gateway in a small public subnet. An S3 gateway endpoint (no hourly
charge) keeps training-data reads from S3 off the NAT gateway. Nothing here accepts
inbound connections from the internet.
"""

from __future__ import annotations

from typing import NamedTuple

import pulumi
import pulumi_aws as aws

from clouds.aws.efa import check_subnet_size
from clouds.contract import ClusterConfig
from components.aws.network import create_subnet

# A choice, not a sourced figure: a /24 beside the /17 node subnet holds the NAT gateway.
PUBLIC_SUBNET_CIDR = "10.0.128.0/24"


class Egress(NamedTuple):
    """The egress resources: the NAT gateway and the node subnet's route table."""

    nat_gateway: aws.ec2.NatGateway
    private_route_table: aws.ec2.RouteTable


def create_egress(
    name: str,
    vpc: aws.ec2.Vpc,
    node_subnet: aws.ec2.Subnet,
    zone_id: str,
    region: str,
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> Egress:
    """Internet gateway, public subnet, NAT gateway and routes for the node subnet.

    Args:
        name: the cluster name; children are `{name}-igw`, `{name}-public`, `{name}-nat`, ...
        vpc: the cluster VPC.
        node_subnet: the private subnet of the nodes and the file system.
        zone_id: availability-zone ID of the node subnet (the NAT gateway goes there too).
        region: AWS region name, for the S3 endpoint's service name.
        tags: tags for every resource.
        opts: child options (`parent=` the component).
    """
    igw = aws.ec2.InternetGateway(f"{name}-igw", vpc_id=vpc.id, tags=tags, opts=opts)
    public = create_subnet(
        f"{name}-public", vpc, PUBLIC_SUBNET_CIDR, zone_id, tags, opts, map_public_ip_on_launch=False
    )
    _route_out(f"{name}-public", vpc, public, {"gateway_id": igw.id}, tags, opts)
    address = aws.ec2.Eip(f"{name}-nat-ip", domain="vpc", tags=tags, opts=opts)
    nat = aws.ec2.NatGateway(
        f"{name}-nat",
        allocation_id=address.id,
        subnet_id=public.id,
        tags=tags,
        opts=pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(depends_on=[igw])),
    )
    private_routes = _route_out(f"{name}-private", vpc, node_subnet, {"nat_gateway_id": nat.id}, tags, opts)
    aws.ec2.VpcEndpoint(
        f"{name}-s3",
        vpc_id=vpc.id,
        service_name=f"com.amazonaws.{region}.s3",
        vpc_endpoint_type="Gateway",
        route_table_ids=[private_routes.id],
        tags=tags,
        opts=opts,
    )
    return Egress(nat, private_routes)


def _route_out(
    name: str,
    vpc: aws.ec2.Vpc,
    subnet: aws.ec2.Subnet,
    target: dict[str, pulumi.Input[str]],
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> aws.ec2.RouteTable:
    """The route table `{name}-rt` sending everything (0.0.0.0/0) to `target` (the internet
    gateway or the NAT gateway), associated with `subnet` (`{name}-rta`)."""
    default = aws.ec2.RouteTableRouteArgs(cidr_block="0.0.0.0/0", **target)
    routes = aws.ec2.RouteTable(f"{name}-rt", vpc_id=vpc.id, routes=[default], tags=tags, opts=opts)
    aws.ec2.RouteTableAssociation(f"{name}-rta", subnet_id=subnet.id, route_table_id=routes.id, opts=opts)
    return routes


# /20s of the VPC's upper half beside the public /24 (10.0.128.0/24): one per further zone of a
# group over several zones (`fallback_zones`, at most 5: `clouds.capacity.MAX_FALLBACK_ZONES`).
ZONE_SUBNET_CIDRS = ("10.0.144.0/20", "10.0.160.0/20", "10.0.176.0/20", "10.0.192.0/20", "10.0.208.0/20")


def create_zone_subnets(
    name: str,
    vpc: aws.ec2.Vpc,
    args: ClusterConfig,
    egress: Egress,
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> list[aws.ec2.Subnet]:
    """A private subnet `{name}-subnet-<zone>` per further zone of `args.fallback_zones`, routed
    through the cluster's one NAT gateway (its traffic crosses to the NAT's zone: AWS bills
    cross-zone data, a cost the group's other zones carry only while they hold nodes)."""
    subnets = []
    for zone, cidr in zip(args.fallback_zones, ZONE_SUBNET_CIDRS, strict=False):
        check_subnet_size(cidr, args.nodes, args.instance_type, args.interconnect, "fallback_zones")
        subnet = create_subnet(f"{name}-subnet-{zone}", vpc, cidr, zone, tags, opts)
        aws.ec2.RouteTableAssociation(
            f"{name}-private-{zone}-rta", subnet_id=subnet.id, route_table_id=egress.private_route_table.id, opts=opts
        )
        subnets.append(subnet)
    return subnets
