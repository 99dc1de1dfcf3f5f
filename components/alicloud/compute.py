"""Compute lookups and children of the Alibaba cluster: the image lookup and the optional key
pair (the GPU nodes are the ESS group of `nodes`)."""

from __future__ import annotations

import pulumi
import pulumi_alicloud as alicloud

from clouds.contract import ClusterConfig
from components.alicloud.profile import IMAGE_NAME_REGEX, IMAGE_OWNERS


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
