"""The Volcengine node group as plain arguments: an Auto Scaling group that keeps `nodes` GPU
instances on the cluster's one subnet, and the scaling configuration they are created from.

Sources (pulumi_volcengine 0.0.47 `autoscaling.ScalingGroup` / `ScalingConfiguration` /
`ScalingConfigurationAttachment` / `ScalingGroupEnabler`, as installed; the same text in
volcengine/terraform-provider-volcengine website/docs/r/scaling_group.html.markdown at 0858453
and scaling_configuration.html.markdown at 1294e5c):
  * `min_instance_number` = `max_instance_number` = `desire_instance_number` = nodes, each
    "Value range: 0 ~ 100" (`clouds.volcengine.validate.GROUP_MAX_NODES`).
  * The configuration takes `instance_types`, `image_id`, `security_group_ids`, `volumes`
    (the first is the system volume), `key_pair_name`, `spot_strategy` ("NoSpot (default),
    SpotAsPriceGo"), `hpc_cluster_id` ("Valid only when InstanceTypes.N specifies High
    Performance Computing GPU Type"), `user_data`, `tags`; a `ScalingConfigurationAttachment`
    makes it the group's active one and a `ScalingGroupEnabler` enables the group.
  * The group has no health-check or spot-remedy input (`health_check_type` is an output
    only): a node that is released (a reclaimed spot instance: `scaling_mode` release, the
    default) leaves the group below its minimum, and replacing it is the group's own
    minimum-size rule; not verified against Volcengine's documentation.
  * Not carried: a deployment set (no input: plain GPU types lose their host-spread set), a
    spot price limit (`SpotWithPriceLimit` is not a configuration value), per-node names.
"""

from __future__ import annotations

from typing import Any

from clouds.contract import ClusterConfig
from clouds.volcengine.validate import GROUP_MAX_NODES
from components.node_group import fixed_size
from components.volcengine.purchase import spot_args

# Choices, not sourced figures: ESSD_PL0 system volume of 200 GiB (the SDK accepts 20-2048).
SYSTEM_VOLUME_TYPE = "ESSD_PL0"
SYSTEM_VOLUME_GIB = 200
# Inputs whose change replaces the group (Pulumi `replace_on_changes`, set by `nodes`): a new
# subnet (a new zone) must bring new instances; the group alone would keep them where they are.
GROUP_REPLACED_ON = ("subnetIds",)


def group_args(name: str, nodes: int, subnet_id: Any, tags: list[dict[str, str]]) -> dict[str, Any]:
    """`autoscaling.ScalingGroup` arguments of a group that keeps `nodes` instances.

    Raises:
        ValueError: `nodes` outside 1..`GROUP_MAX_NODES`.
    """
    sizes = ("min_instance_number", "max_instance_number", "desire_instance_number")
    return {
        "scaling_group_name": f"{name}-nodes",
        **fixed_size(nodes, GROUP_MAX_NODES, "a Volcengine scaling group", sizes),
        "subnet_ids": [subnet_id],
        "tags": tags,
    }


def configuration_args(
    name: str, args: ClusterConfig, placement: dict[str, Any], tags: list[dict[str, str]]
) -> dict[str, Any]:
    """`autoscaling.ScalingConfiguration` arguments (without `scaling_group_id`): the node
    arguments the per-node instances had, as far as the configuration takes them.

    Args:
        name: the cluster name (`{name}-node-config`, instances `{name}-node`).
        args: the cluster config (instance type, purchase).
        placement: `security_group_id`, `key_pair_name`, `image_id`, and `hpc_cluster_id`
            for an HPC family.
        tags: the instances' tags.
    """
    carried = {
        "scaling_configuration_name": f"{name}-node-config",
        "instance_name": f"{name}-node",
        "instance_types": [args.instance_type],
        "image_id": placement["image_id"],
        "security_group_ids": [placement["security_group_id"]],
        "key_pair_name": placement["key_pair_name"],
        "volumes": [{"volume_type": SYSTEM_VOLUME_TYPE, "size": SYSTEM_VOLUME_GIB, "delete_with_instance": True}],
        "spot_strategy": spot_args(args.purchase)["spot_strategy"],
        "tags": tags,
    }
    if "hpc_cluster_id" in placement:
        carried["hpc_cluster_id"] = placement["hpc_cluster_id"]
    return carried
