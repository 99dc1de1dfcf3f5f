"""The GPU nodes of the Alibaba cluster: one ESS scaling group that keeps `nodes` instances on
the cluster's vSwitch, and the scaling configuration they are created from (arguments and
sources: `scaling`)."""

from __future__ import annotations

from typing import Any

import pulumi
import pulumi_alicloud as alicloud

from clouds.alicloud.capacity import compensation_args
from clouds.contract import ClusterConfig
from components.alicloud.profile import node_args
from components.alicloud.scaling import GROUP_REPLACED_ON, configuration_args, group_args, ranked_types
from components.node_group import NodeGroup, group_options


def create_node_group(
    name: str,
    args: ClusterConfig,
    network: dict[str, Any],
    image_id: Any,
    extras: dict[str, Any],
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> NodeGroup:
    """Create the scaling group and its configuration (the nodes come from the group).

    Args:
        name: the cluster name.
        args: the cluster config (nodes, purchase, type, interconnect).
        network: `{"vswitch_id": ..., "security_group_id": ...}`.
        image_id: the looked-up image id.
        extras: further node arguments: `key_name` (the key pair), `role_name` (the RAM role).
        tags: tags for the group and its instances.
        opts: child options.
    """
    # ESS leaves running instances on the vSwitch they started in, so a new vSwitch (a new
    # zone) must bring a new group rather than an updated one (`scaling.GROUP_REPLACED_ON`);
    # the old group goes first, since the new one takes the same name.
    group = alicloud.ess.ScalingGroup(
        f"{name}-nodes",
        **group_args(name, args.nodes, args.purchase, network["vswitch_id"], tags),
        **compensation_args(args.purchase, args.on_demand_after_minutes),
        opts=group_options(opts, GROUP_REPLACED_ON),
    )
    instance = node_args(name, args, network, image_id, extras, tags)
    configuration = alicloud.ess.ScalingConfiguration(
        f"{name}-node-config",
        scaling_group_id=group.id,
        scaling_configuration_name=f"{name}-node-config",
        instance_name=f"{name}-node",
        active=True,
        enable=True,
        force_delete=True,
        **ranked_types(configuration_args(instance), args.fallback_types),
        opts=opts,
    )
    return NodeGroup(group, configuration)
