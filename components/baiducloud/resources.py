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


def _named(name: str, suffix: str, region: str) -> dict[str, str]:
    """The inputs every cluster resource here shares: its region, its Baidu name
    (`resource_name(f"{name}-{suffix}")`) and the description naming the cluster."""
    return {"region": region, "name": resource_name(f"{name}-{suffix}"), "description": f"trainstack cluster {name}"}


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
        {**_named(name, "vpc", args.region), "cidr": VPC_CIDR, "tags": tags},
        opts,
    )
    subnet_inputs = {"name": resource_name(f"{name}-nodes"), "zone": args.zone, "cidr": NODE_SUBNET_CIDR}
    subnet = Subnet(f"{name}-subnet", {"region": args.region, **subnet_inputs, "vpc_id": vpc.id, "tags": tags}, opts)
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
    where = {"vpc_id": network.vpc.id} if network.vpc else {"subnet_id": args.subnet_id}
    rules = {"rules": security_group_rules(args.ssh_cidrs), "intra_group": True}
    return SecurityGroup(f"{name}-sg", {**_named(name, "sg", args.region), **where, **rules, "tags": tags}, opts)


def create_placement(
    name: str, args: ClusterConfig, opts: pulumi.ResourceOptions
) -> tuple[DeploySet, EhcCluster | None]:
    """The deploy set every node joins, and an EHC cluster when `interconnect` is `rdma`."""
    deploy_set = DeploySet(
        f"{name}-deployset", {**_named(name, "deployset", args.region), "strategy": DEPLOY_SET_STRATEGY}, opts
    )
    if args.interconnect != "rdma":
        return deploy_set, None
    return deploy_set, EhcCluster(f"{name}-ehc", {**_named(name, "ehc", args.region), "zone": args.zone}, opts)


def create_keypair(
    name: str, args: ClusterConfig, opts: pulumi.ResourceOptions
) -> tuple[Keypair, tls.PrivateKey | None]:
    """The admin key pair: `ssh_public_key` imported, or a generated RSA 4096 key (Baidu
    imports no ED25519 keys). The private key stays in the state as a secret."""
    public_key, key = admin_public_key(name, args, opts, RSA_4096)
    keypair = Keypair(f"{name}-keypair", {**_named(name, "admin", args.region), "public_key": public_key}, opts)
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
