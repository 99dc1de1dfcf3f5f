"""PAI Lingjun pool rules, pure: the persistent Lingjun cluster trainstack builds for a
`platform: pai-lingjun` stack (`components.alicloud.lingjun`) and what such a stack may ask.

A Lingjun cluster (Intelligent Computing LINGJUN, eflo-controller API 2022-12-15, which PAI
documents as its Lingjun cluster API: `CreateCluster`, `CreateNodeGroup`) is bare-metal GPU
nodes on Lingjun's own RDMA network (a VPD and its subnet) beside a VPC for management traffic.
Its nodes are bought one by one (`eflo.Node`); the Pulumi schema's `payment_type` defaults to
`Subscription`, so trainstack always sets `PayAsYouGo` (billed while the node exists; a
subscription is billed by the month, rounded up, PAI billing page). A node group needs an OS
image id that no API or document trainstack reads publishes, hence `node_image`.
"""

from __future__ import annotations

import re

from clouds.contract import ClusterConfig

PAYMENT_TYPE = "PayAsYouGo"  # eflo.Node payment_type; the schema's default is Subscription
PRODUCT_FORM = "instance"  # eflo.Node product_form of both Pulumi examples (immutable after create)
CLUSTER_TYPE = "Lite"  # eflo.Cluster cluster_type of the Pulumi/Terraform example (assumed the plain type)
# The Lingjun network (VPD) and its one subnet. Disjoint from the management VPC
# (`components.alicloud.security.VPC_CIDR`, 10.0.0.0/16); the API reference's examples use
# 10.0.0.0/8, any RFC 1918 block is assumed accepted.
VPD_CIDR, SUBNET_CIDR = "172.16.0.0/12", "172.16.0.0/16"
NAME_LIMIT = 64  # cluster, node group and VPD names kept to 64 characters (assumed limit; not documented)


def lingjun_name(name: str, suffix: str) -> str:
    """`<name>-<suffix>`, other characters than letters, digits, `-` and `_` as `-`, cut to fit."""
    base = re.sub(r"[^A-Za-z0-9_-]", "-", name)
    return f"{base[: NAME_LIMIT - len(suffix) - 1]}-{suffix}"


def hostname(name: str, index: int) -> str:
    """The node's host name: `<name>-<index>` in lowercase letters, digits and `-` (RFC 1123)."""
    base = re.sub(r"[^a-z0-9-]", "-", name.lower()).strip("-") or "node"
    return f"{base[:56]}-{index}"


def pool_problem(config: ClusterConfig) -> str | None:
    """Why a Lingjun pool cannot be built from `config`, or None."""
    if config.node_image is None:
        return (
            "node_image: a Lingjun node group boots an OS image id you choose (the Lingjun console's "
            "image list; none is published); set node_image in the workload or the stack"
        )
    if config.purchase == "spot":
        return "purchase: Lingjun nodes have no spot; set purchase: on-demand"
    if config.commitment != "none":
        return (
            "commitment: trainstack buys Lingjun nodes pay-as-you-go (a subscription is billed by the "
            "month); set commitment: none"
        )
    if config.file_system is not None:
        return "file_system: a PAI job on Lingjun keeps its code, data and checkpoints in OSS (job.code); remove file_system"
    if config.ssh_cidrs or config.ssh_public_key:
        return "ssh_cidrs: Lingjun nodes take no SSH from trainstack (no key, no password); remove ssh_cidrs and ssh_public_key"
    return None


def validate_pool(config: ClusterConfig, name: str = "cluster") -> None:
    """The Lingjun pool's checks (`pool_problem`; the ECS cluster's do not apply).

    Raises:
        ValueError: one line naming the field and the fix.
    """
    if problem := pool_problem(config):
        raise ValueError(problem)
    from clouds.alicloud.validate import PROVIDER, check_tags
    from clouds.common import cluster_tags

    check_tags(cluster_tags(PROVIDER, name, config.tags))  # its VPD, subnet, cluster and nodes carry them
