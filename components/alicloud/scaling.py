"""The Alibaba node group as plain arguments: an ESS scaling group that keeps `nodes` GPU
instances, and its scaling configuration made from the component's own node arguments
(`profile.node_args`).

Sources (pulumi-alicloud 4.0.0 `ess.ScalingGroup` / `ess.ScalingConfiguration`, as installed;
aliyun/terraform-provider-alicloud `resource_alicloud_ess_scaling_group.go` at 08e0c70 and
`resource_alicloud_ess_scaling_configuration.go` at 007b070, which pulumi-alicloud bridges):
  * `min_size` = `max_size` = `desired_capacity` = nodes (0-2,000 each, `placement.GROUP_MAX_NODES`): the group keeps the
    size; nothing scales it in or out.
  * `health_check_types = ["ECS"]`: ESS replaces an instance that is no longer running.
  * `spot_instance_remedy` (spot only): "replace spot instances with newly created
    spot/onDemand instance when receive a spot recycling message".
  * The configuration is `active` and `enable`s the group. Changing it (ModifyScalingConfiguration)
    changes the instances created from then on; running ones keep theirs. trainstack creates no
    `ess.InstanceRefresh`, so no configuration change replaces a healthy node.
  * `force_delete`: `pulumi destroy` may delete the group's last configuration with the group.

What the configuration cannot carry (`NOT_CARRIED`): the deployment set (no input on either
resource), the NIC index of a secondary ERI (`network_interfaces` takes `instance_type`
Primary/Secondary, `network_interface_traffic_mode`, `security_group_ids` and
`ipv6_address_count` only), per-node instance and host names, disk tags, and the spot
interruption behaviour (ECS's default `Terminate` applies). ESS creates pay-as-you-go
instances, so `instance_charge_type` needs no counterpart.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clouds.alicloud.placement import GROUP_MAX_NODES
from components.node_group import carried_args, fixed_size

HEALTH_CHECKS = ("ECS",)
# Inputs whose change replaces the group (Pulumi `replace_on_changes`, set by `nodes`): ESS
# updates `vswitch_ids` in place but keeps running instances where they are, so a zone change
# would leave the nodes on the old vSwitch, which then cannot be deleted.
GROUP_REPLACED_ON = ("vswitchIds",)

# ecs.Instance argument -> ess.ScalingConfiguration argument of the same meaning.
SAME_MEANING = {
    "image_id": "image_id",
    "instance_type": "instance_type",
    "internet_max_bandwidth_out": "internet_max_bandwidth_out",
    "system_disk_category": "system_disk_category",
    "system_disk_size": "system_disk_size",
    "system_disk_encrypted": "system_disk_encrypted",
    "system_disk_kms_key_id": "system_disk_kms_key_id",
    "spot_strategy": "spot_strategy",
    "spot_duration": "spot_duration",
    "key_name": "key_name",
    "role_name": "role_name",
    "user_data": "user_data",
    "tags": "tags",
}
# ecs.Instance arguments the configuration cannot carry, and what happens instead.
NOT_CARRIED = {
    "instance_name": "one name for every instance of the group (`<name>-node`)",
    "host_name": "ECS gives each instance its own host name",
    "availability_zone": "the group's one vSwitch fixes the zone",
    "vswitch_id": "the group's `vswitch_ids`",
    "instance_charge_type": "ESS creates pay-as-you-go instances",
    "spot_interruption_behavior": "ECS's default, Terminate, applies",
    "volume_tags": "the configuration has no disk tags",
    "deployment_set_id": "neither ESS resource takes a deployment set: the group's nodes join none",
    "network_card_index": "`network_interfaces` takes no NIC index: Alibaba chooses it",
}
# Arguments folded into `network_interfaces` / `security_group_ids` (`_interfaces`).
NETWORK = ("security_groups", "network_interface_traffic_mode", "network_interfaces")


def configuration_args(instance: dict[str, Any]) -> dict[str, Any]:
    """`ess.ScalingConfiguration` arguments (without `scaling_group_id`) from the arguments
    one `ecs.Instance` node would get (`components.node_group.carried_args`).

    Args:
        instance: `profile.node_args(...)` of one node.

    Returns:
        The carried arguments (`SAME_MEANING`), the security group and eRDMA interfaces
        (`network_interfaces` when the node has an ERI, else `security_group_ids`).

    Raises:
        ValueError: an instance argument this mapping does not know.
    """
    return carried_args(instance, SAME_MEANING, NOT_CARRIED, dict.fromkeys(NETWORK, _interfaces), __name__)


def ranked_types(configuration: dict[str, Any], fallback_types: tuple[str, ...]) -> dict[str, Any]:
    """`configuration` with the node type and its fallbacks as `instance_types`, in rank order
    (`clouds.alicloud.capacity`); unchanged (one `instance_type`) without fallbacks."""
    if not fallback_types:
        return configuration
    ranked = {key: value for key, value in configuration.items() if key != "instance_type"}
    return {**ranked, "instance_types": [configuration["instance_type"], *fallback_types]}


def _interfaces(instance: Mapping[str, Any]) -> dict[str, Any]:
    """The primary ENI (an ERI when the node has one) and a secondary ERI, or the plain
    security groups. With `network_interfaces` the API takes no `SecurityGroupId(s)`; each
    interface names its groups."""
    groups = list(instance["security_groups"])
    mode = instance.get("network_interface_traffic_mode")
    if mode is None:
        return {"security_group_ids": groups}
    interfaces = [{"instance_type": "Primary", "network_interface_traffic_mode": mode, "security_group_ids": groups}]
    secondary = instance.get("network_interfaces")
    if secondary:
        interfaces.append(
            {
                "instance_type": "Secondary",
                "network_interface_traffic_mode": secondary["network_interface_traffic_mode"],
                "security_group_ids": list(secondary["security_group_ids"]),
            }
        )
    return {"network_interfaces": interfaces}


def group_args(name: str, nodes: int, purchase: str, vswitch_id: Any, tags: dict[str, str]) -> dict[str, Any]:
    """`ess.ScalingGroup` arguments of a group that keeps `nodes` instances on one vSwitch.

    Args:
        name: the cluster name; the group is `<name>-nodes`.
        nodes: the node count (1 to `GROUP_MAX_NODES`).
        purchase: `spot` turns on `spot_instance_remedy`; `on-demand` leaves it off.
        vswitch_id: the cluster's one vSwitch.
        tags: the group's tags.

    Raises:
        ValueError: `nodes` outside 1..`GROUP_MAX_NODES`.
    """
    return {
        "scaling_group_name": f"{name}-nodes",
        **fixed_size(nodes, GROUP_MAX_NODES, "an ESS scaling group", ("min_size", "max_size", "desired_capacity")),
        "vswitch_ids": [vswitch_id],
        "health_check_types": list(HEALTH_CHECKS),
        "spot_instance_remedy": purchase == "spot",
        "tags": tags,
    }
