"""Compute children of the Alibaba cluster: the deployment set (on-demand only), the image
lookup, the optional key pair and the GPU nodes."""

from __future__ import annotations

from typing import Any

import pulumi
import pulumi_alicloud as alicloud

from clouds.alicloud.placement import placement_for
from clouds.contract import ClusterConfig
from components.alicloud.profile import IMAGE_NAME_REGEX, IMAGE_OWNERS, node_args


def create_deployment_set(
    name: str, purchase: str, opts: pulumi.ResourceOptions
) -> alicloud.ecs.EcsDeploymentSet | None:
    """Create the LowLatency deployment set, or warn and return None for spot.

    Spot instances cannot be created in a deployment set (section 0 item 2), so a spot
    cluster gets none; `pulumi.log.warn` says so on every run.

    Args:
        name: the cluster name; the set is `{name}-ds`.
        purchase: `spot` or `on-demand`.
        opts: child options (deployment sets take no tags in pulumi-alicloud 4.0.0).
    """
    placement = placement_for(purchase)
    if not placement.deployment_set:
        pulumi.log.warn(f"{name}: purchase spot: {placement.reason}", resource=opts.parent)
        return None
    return alicloud.ecs.EcsDeploymentSet(
        f"{name}-ds",
        deployment_set_name=f"{name}-ds",
        strategy=placement.strategy,
        description=f"{name}: {placement.reason}",
        opts=opts,
    )


def image_id(instance_type: str, opts: pulumi.ResourceOptions) -> pulumi.Output[str]:
    """The newest system Ubuntu 22.04 image the instance type accepts (`profile` docstring).

    Raises:
        ValueError: at deploy time, when Alibaba returns no matching image.
    """
    images = alicloud.ecs.get_images_output(
        owners=IMAGE_OWNERS,
        name_regex=IMAGE_NAME_REGEX,
        most_recent=True,
        instance_type=instance_type,
        os_type="linux",
        architecture="x86_64",
        opts=pulumi.InvokeOutputOptions(parent=opts.parent),
    )
    return images.ids.apply(lambda ids: _first(ids, instance_type))


def _first(ids: list[str] | None, instance_type: str) -> str:
    if not ids:
        raise ValueError(
            f"no Alibaba system image matches {IMAGE_NAME_REGEX} for {instance_type}; "
            "check the region's public images or change IMAGE_NAME_REGEX"
        )
    return ids[0]


def create_key_pair(
    name: str, args: ClusterConfig, tags: dict[str, str], opts: pulumi.ResourceOptions
) -> alicloud.ecs.EcsKeyPair | None:
    """Import `args.ssh_public_key` as a key pair (`{name}-key`), or None without a key."""
    if not args.ssh_public_key:
        return None
    return alicloud.ecs.EcsKeyPair(
        f"{name}-key",
        key_pair_name=f"{name}-key",
        public_key=args.ssh_public_key.strip(),
        tags=tags,
        opts=opts,
    )


def create_nodes(
    name: str,
    args: ClusterConfig,
    network: dict[str, Any],
    placement: dict[str, Any],
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> list[alicloud.ecs.Instance]:
    """Create `args.nodes` GPU instances (`{name}-node-0` ... `{name}-node-{n-1}`).

    Args:
        name: the cluster name.
        args: the cluster config.
        network: `{"vswitch_id": ..., "security_group_id": ...}`.
        placement: `deployment_set_id` (absent for spot) and `key_name` (if any).
        tags: tags for the instances and their disks.
        opts: child options.
    """
    image = image_id(args.instance_type, opts)
    return [
        alicloud.ecs.Instance(
            f"{name}-node-{index}",
            **node_args(name, index, args, network, image, placement, tags),
            opts=opts,
        )
        for index in range(args.nodes)
    ]
