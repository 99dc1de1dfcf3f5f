"""The GPU nodes of the Huawei cluster: one AS group that keeps `nodes` ECS instances on the
cluster's subnet, and the AS configuration they are created from (arguments and sources:
`scaling`)."""

from __future__ import annotations

from typing import Any, NamedTuple

import pulumi
import pulumi_huaweicloud as huaweicloud

from clouds.contract import ClusterConfig
from components.huaweicloud.compute import node_args
from components.huaweicloud.scaling import GROUP_REPLACED_ON, configuration_args, group_args
from components.node_group import group_options


class NodeGroup(NamedTuple):
    """The created node group.

    Attributes:
        configuration: the AS configuration (`{name}-node-config`).
        group: the AS group (`{name}-nodes`), which creates the instances.
    """

    configuration: huaweicloud.as_.Configuration
    group: huaweicloud.as_.Group


def create_node_group(
    name: str,
    args: ClusterConfig,
    vpc_id: Any,
    placement: dict[str, pulumi.Input[str]],
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> NodeGroup:
    """Create the AS configuration and the group that uses it.

    Args:
        name: the cluster name.
        args: the cluster config (nodes, zone, type; on-demand without `kms_key_id`:
            `clouds.huaweicloud.group.per_node_reason`).
        vpc_id: the cluster's VPC.
        placement: as for `compute.node_args`.
        tags: tags for the group.
        opts: child options.
    """
    instance = node_args(args, placement, tags)
    configuration = huaweicloud.as_.Configuration(
        f"{name}-node-config", **configuration_args(name, instance), opts=opts
    )
    group = huaweicloud.as_.Group(
        f"{name}-nodes",
        scaling_configuration_id=configuration.id,
        **group_args(name, args.nodes, args.zone, vpc_id, placement["subnet_id"], tags),
        opts=group_options(opts, GROUP_REPLACED_ON),
    )
    return NodeGroup(configuration, group)
