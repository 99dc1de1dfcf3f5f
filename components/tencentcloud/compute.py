"""Compute children of the Tencent cluster: the placement group, the HPC cluster (HCC types),
the image lookup, the optional key pair and the GPU nodes."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import pulumi
import tencentcloud_iac_pulumi as tencentcloud

from clouds.contract import ClusterConfig
from clouds.tencentcloud.facts import is_hcc
from components.tencentcloud.profile import (
    IMAGE_NAME_REGEX,
    IMAGE_TYPES,
    PLACEMENT_AFFINITY,
    PLACEMENT_TYPE,
    node_args,
)

# Tencent key-pair names: letters, digits and underscores, at most 25 characters
# (CVM CreateKeyPair API; not in shared/reference-facts).
KEY_NAME_MAX = 25


def create_placement(
    name: str, args: ClusterConfig, tags: dict[str, str], opts: pulumi.ResourceOptions
) -> tuple[tencentcloud.placement.Group, tencentcloud.cvm.HpcCluster | None]:
    """Create the HOST placement group and, for HCC types, the HPC cluster (section 3).

    Args:
        name: the cluster name; children are `{name}-pg` and `{name}-hpc`.
        args: the cluster config (`instance_type`, `zone`).
        tags: tags for the placement group (HPC clusters take none).
        opts: child options.
    """
    group = tencentcloud.placement.Group(
        f"{name}-pg",
        name=f"{name}-pg",
        type=PLACEMENT_TYPE,
        affinity=PLACEMENT_AFFINITY,
        tags=tags,
        opts=opts,
    )
    hpc = None
    if is_hcc(args.instance_type):
        hpc = tencentcloud.cvm.HpcCluster(
            f"{name}-hpc", zone=args.zone, name=f"{name}-hpc", remark=f"{name}: RDMA nodes", opts=opts
        )
    return group, hpc


def image_id(instance_type: str, opts: pulumi.ResourceOptions) -> pulumi.Output[str]:
    """The first public Ubuntu 22.04 image the type accepts (`profile` docstring).

    Raises:
        ValueError: at deploy time, when Tencent returns no matching image.
    """
    found = tencentcloud.images.get_instance_output(
        image_types=IMAGE_TYPES,
        image_name_regex=IMAGE_NAME_REGEX,
        instance_type=instance_type,
        opts=pulumi.InvokeOutputOptions(parent=opts.parent),
    )
    return found.images.apply(lambda images: _first_id(images, instance_type))


def _first_id(images: list[Any] | None, instance_type: str) -> str:
    if not images:
        raise ValueError(
            f"no Tencent public image matches {IMAGE_NAME_REGEX} for {instance_type}; "
            "check the region's public images or change IMAGE_NAME_REGEX"
        )
    first = images[0]
    return first["image_id"] if isinstance(first, Mapping) else first.image_id


def create_key_pair(
    name: str, args: ClusterConfig, tags: dict[str, str], opts: pulumi.ResourceOptions
) -> tencentcloud.key.Pair | None:
    """Import `args.ssh_public_key` as a key pair (`{name}-key`), or None without a key."""
    if not args.ssh_public_key:
        return None
    key_name = re.sub(r"[^A-Za-z0-9_]", "_", f"{name}_key")[:KEY_NAME_MAX]
    return tencentcloud.key.Pair(
        f"{name}-key", key_name=key_name, public_key=args.ssh_public_key.strip(), tags=tags, opts=opts
    )


def create_nodes(
    name: str,
    args: ClusterConfig,
    network: dict[str, Any],
    placement: dict[str, Any],
    spot_max_price: str | None,
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> list[tencentcloud.instance.Instance]:
    """Create `args.nodes` CVM GPU instances (`{name}-node-0` ... `{name}-node-{n-1}`).

    Args:
        name: the cluster name.
        args: the cluster config.
        network: `{"vpc_id", "subnet_id", "security_group_id"}`.
        placement: `placement_group_id`, plus `hpc_cluster_id` and `key_ids` if any.
        spot_max_price: the spot bid (spot only).
        tags: tags for the instances.
        opts: child options.
    """
    image = image_id(args.instance_type, opts)
    return [
        tencentcloud.instance.Instance(
            f"{name}-node-{index}",
            **node_args(name, index, args, network, image, placement, spot_max_price, tags),
            opts=opts,
        )
        for index in range(args.nodes)
    ]
