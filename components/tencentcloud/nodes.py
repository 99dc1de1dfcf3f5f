"""The GPU nodes of the Tencent cluster: one Auto Scaling group that keeps `nodes` CVM
instances on the cluster's subnet, and the launch configuration they are created from
(arguments and sources: `scaling`)."""

from __future__ import annotations

from typing import Any, NamedTuple

import pulumi
import tencentcloud_iac_pulumi as tencentcloud

from clouds.contract import ClusterConfig
from components.node_group import group_options
from components.tencentcloud.profile import node_args
from components.tencentcloud.scaling import GROUP_REPLACED_ON, configuration_args, group_args


class NodeGroup(NamedTuple):
    """The created node group.

    Attributes:
        configuration: the launch configuration (`{name}-node-config`).
        group: the scaling group (`{name}-nodes`), which creates the instances.
    """

    configuration: tencentcloud.as_.ScalingConfig
    group: tencentcloud.as_.ScalingGroup


def create_node_group(
    name: str,
    args: ClusterConfig,
    network: dict[str, Any],
    image_id: Any,
    placement: dict[str, Any],
    spot_max_price: str | None,
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> NodeGroup:
    """Create the launch configuration and the group that uses it.

    Args:
        name: the cluster name.
        args: the cluster config (nodes, purchase, type).
        network: `{"vpc_id", "subnet_id", "security_group_id"}`.
        image_id: the looked-up image id.
        placement: `placement_group_id`, plus `key_ids` if any (no HPC cluster: HCC types
            are per-node instances, `clouds.tencentcloud.group`).
        spot_max_price: the spot bid (spot only).
        tags: tags for the configuration, the group and the instances.
        opts: child options.
    """
    instance = node_args(name, 0, args, network, image_id, placement, spot_max_price, tags)
    configuration = tencentcloud.as_.ScalingConfig(
        f"{name}-node-config", **configuration_args(name, instance), opts=opts
    )
    group = tencentcloud.as_.ScalingGroup(
        f"{name}-nodes",
        configuration_id=configuration.id,
        **group_args(name, args.nodes, network["vpc_id"], network["subnet_id"], tags),
        opts=group_options(opts, GROUP_REPLACED_ON),
    )
    return NodeGroup(configuration, group)
