"""The GPU nodes of the Volcengine cluster: one Auto Scaling group that keeps `nodes`
instances on the cluster's subnet, the scaling configuration they are created from, the
attachment that makes it the group's active configuration and the enabler that starts the
group (arguments and sources: `scaling`)."""

from __future__ import annotations

from typing import Any, NamedTuple

import pulumi
import pulumi_volcengine as volcengine

from clouds.contract import ClusterConfig
from components.node_group import group_options
from components.volcengine.scaling import GROUP_REPLACED_ON, configuration_args, group_args


class NodeGroup(NamedTuple):
    """The created node group.

    Attributes:
        group: the scaling group (`{name}-nodes`).
        configuration: its scaling configuration (`{name}-node-config`).
        attachment: makes the configuration the active one (`{name}-node-config-active`).
        enabler: enables the group, which then creates the instances (`{name}-nodes-enabled`).
    """

    group: volcengine.autoscaling.ScalingGroup
    configuration: volcengine.autoscaling.ScalingConfiguration
    attachment: volcengine.autoscaling.ScalingConfigurationAttachment
    enabler: volcengine.autoscaling.ScalingGroupEnabler


def create_node_group(
    name: str,
    args: ClusterConfig,
    placement: dict[str, Any],
    tags: list[dict[str, str]],
    opts: pulumi.ResourceOptions,
) -> NodeGroup:
    """Create the group, its configuration, the attachment and the enabler.

    Args:
        name: the cluster name.
        args: the cluster config (nodes, purchase, instance type).
        placement: `subnet_id`, `security_group_id`, `key_pair_name`, `image_id`, and
            `hpc_cluster_id` for an HPC family.
        tags: tags for the group and its instances.
        opts: child options.
    """
    # A new subnet (a new zone) brings a new group, the old one going first (same name).
    group = volcengine.autoscaling.ScalingGroup(
        f"{name}-nodes",
        **group_args(name, args.nodes, placement["subnet_id"], tags),
        opts=group_options(opts, GROUP_REPLACED_ON),
    )
    # retain_on_delete: Volcengine deletes an active configuration only with its group (the
    # provider's own example removes it from the state before destroying), so `pulumi destroy`
    # leaves it to the group's deletion.
    configuration = volcengine.autoscaling.ScalingConfiguration(
        f"{name}-node-config",
        scaling_group_id=group.id,
        **configuration_args(name, args, placement, tags),
        opts=pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(retain_on_delete=True)),
    )
    attachment = volcengine.autoscaling.ScalingConfigurationAttachment(
        f"{name}-node-config-active", scaling_configuration_id=configuration.id, opts=opts
    )
    enabler = volcengine.autoscaling.ScalingGroupEnabler(
        f"{name}-nodes-enabled",
        scaling_group_id=group.id,
        opts=pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(depends_on=[attachment])),
    )
    return NodeGroup(group, configuration, attachment, enabler)
