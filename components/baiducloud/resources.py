"""Child builders of the Baidu cluster: network, access (security group, key pair),
placement (deploy set, EHC cluster) and the nodes. Each returns the resources it made.

Children are wired by resource `id` (equal to the `*_id` output), not by the `*_id` outputs:
Baidu's dynamic providers cannot preview an update, so during `pulumi preview` an updated
resource's outputs are unknown while its id stays known. Wiring by id keeps, for example,
a security-group rule change from previewing as a replacement of every node."""

from __future__ import annotations

from dataclasses import dataclass

import pulumi
import pulumi_tls as tls

from clouds.baiducloud.layout import (
    DEPLOY_SET_STRATEGY,
    NODE_SUBNET_CIDR,
    VPC_CIDR,
    hostname,
    resource_name,
)
from clouds.contract import ClusterConfig
from components.admin_key import RSA_4096, admin_public_key
from components.baiducloud.bcc_provider import BccInstance, BccInstanceArgs
from components.baiducloud.network_provider import SecurityGroup, Subnet, Vpc
from components.baiducloud.placement_provider import DeploySet, EhcCluster, Keypair
from components.baiducloud.security import security_group_rules

SPOT_BID_MODEL = "market"  # pay the market price; released only when capacity runs short


@dataclass(frozen=True)
class Network:
    """The node network: created VPC and subnet, or None for both with `subnet_id`."""

    vpc: Vpc | None
    subnet: Subnet | None
    subnet_id: pulumi.Input[str]


def create_network(name: str, args: ClusterConfig, tags: dict[str, str], opts: pulumi.ResourceOptions) -> Network:
    """A VPC (`VPC_CIDR`) and one subnet (`NODE_SUBNET_CIDR`) in `zone`, unless
    `args.subnet_id` names an existing subnet."""
    if args.subnet_id:
        return Network(None, None, args.subnet_id)
    vpc = Vpc(
        f"{name}-vpc",
        region=args.region,
        vpc_name=resource_name(f"{name}-vpc"),
        cidr=VPC_CIDR,
        tags=tags,
        description=f"trainstack cluster {name}",
        opts=opts,
    )
    subnet = Subnet(
        f"{name}-subnet",
        region=args.region,
        subnet_name=resource_name(f"{name}-nodes"),
        zone=args.zone,
        cidr=NODE_SUBNET_CIDR,
        vpc_id=vpc.id,
        tags=tags,
        opts=opts,
    )
    return Network(vpc, subnet, subnet.id)


def create_security_group(
    name: str,
    args: ClusterConfig,
    network: Network,
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> SecurityGroup:
    """The node security group: SSH only from `ssh_cidrs`, all traffic between members,
    all egress (`security.security_group_rules`)."""
    return SecurityGroup(
        f"{name}-sg",
        region=args.region,
        group_name=resource_name(f"{name}-sg"),
        rules=security_group_rules(args.ssh_cidrs),
        vpc_id=network.vpc.id if network.vpc else None,
        subnet_id=None if network.vpc else args.subnet_id,
        intra_group=True,
        tags=tags,
        description=f"trainstack cluster {name}",
        opts=opts,
    )


def create_placement(
    name: str, args: ClusterConfig, opts: pulumi.ResourceOptions
) -> tuple[DeploySet, EhcCluster | None]:
    """The deploy set every node joins, and an EHC cluster when `interconnect` is `rdma`."""
    deploy_set = DeploySet(
        f"{name}-deployset",
        region=args.region,
        set_name=resource_name(f"{name}-deployset"),
        strategy=DEPLOY_SET_STRATEGY,
        description=f"trainstack cluster {name}",
        opts=opts,
    )
    if args.interconnect != "rdma":
        return deploy_set, None
    ehc = EhcCluster(
        f"{name}-ehc",
        region=args.region,
        cluster_name=resource_name(f"{name}-ehc"),
        zone=args.zone,
        description=f"trainstack cluster {name}",
        opts=opts,
    )
    return deploy_set, ehc


def create_keypair(
    name: str, args: ClusterConfig, opts: pulumi.ResourceOptions
) -> tuple[Keypair, tls.PrivateKey | None]:
    """The admin key pair: `ssh_public_key` imported, or a generated RSA 4096 key (Baidu
    imports no ED25519 keys). The private key stays in the state as a secret."""
    public_key, key = admin_public_key(name, args, opts, RSA_4096)
    keypair = Keypair(
        f"{name}-keypair",
        region=args.region,
        keypair_name=resource_name(f"{name}-admin"),
        public_key=public_key,
        description=f"trainstack cluster {name}",
        opts=opts,
    )
    return keypair, key


@dataclass(frozen=True)
class NodeWiring:
    """Ids every node is created with."""

    subnet_id: pulumi.Input[str]
    security_group_id: pulumi.Input[str]
    deploy_set_id: pulumi.Input[str]
    keypair_id: pulumi.Input[str]
    ehc_cluster_id: pulumi.Input[str] | None


def create_nodes(
    name: str,
    args: ClusterConfig,
    wiring: NodeWiring,
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> list[BccInstance]:
    """One `BccInstance` per node (`{name}-node-{i}`), spot with `bid_model` `market`."""
    bid_model = SPOT_BID_MODEL if args.purchase == "spot" else None
    nodes = []
    for index in range(args.nodes):
        node = f"{name}-node-{index}"
        nodes.append(
            BccInstance(
                node,
                BccInstanceArgs(
                    region=args.region,
                    zone=args.zone,
                    spec=args.instance_type,
                    name=hostname(node),
                    hostname=hostname(node),
                    subnet_id=wiring.subnet_id,
                    security_group_ids=[wiring.security_group_id],
                    deploy_set_id=wiring.deploy_set_id,
                    ehc_cluster_id=wiring.ehc_cluster_id,
                    keypair_id=wiring.keypair_id,
                    bid_model=bid_model,
                    tags=tags,
                ),
                opts=opts,
            )
        )
    return nodes
