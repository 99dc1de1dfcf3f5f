"""The Tencent node group as plain arguments: an Auto Scaling group that keeps `nodes` CVM
instances on the cluster's one subnet, and the launch configuration made from the arguments
one per-node instance would get (`profile.node_args`).

Sources (tencentcloud-iac-pulumi 0.2.3 `As.ScalingGroup` / `As.ScalingConfig`, as installed;
Tencent Cloud Auto Scaling documentation):
  * `min_size` = `max_size` = `desired_capacity` = nodes (`clouds.tencentcloud.group`):
    "When the number of instances in the group is smaller than [Min Capacity], scale-out is
    triggered and AS adds instances" (Instance Health Check, document 377/8553), so a released
    node (a reclaimed one-time spot instance is terminated) is replaced.
  * `health_check_type = "CVM"` (the SDK's default is `CLB`, for groups behind a load
    balancer): an instance whose network is unreachable (ping) is unhealthy; "If it is found
    that the running status of a CVM instance is unhealthy, AS will stop this CVM and launch a
    new CVM" (377/8553). `replace_monitor_unhealthy`: "AS will replace instances that are
    flagged as unhealthy by Cloud Monitor"; `replace_mode` `RECREATE` (the default, a new
    instance) is left as it is.
  * A changed launch configuration never touches running nodes: "The changes of launch
    configuration do not affect the existing instances. New instances will be created based on
    the modified configuration" (ModifyLaunchConfigurationAttributes, API 377/30998), and
    trainstack creates no `As.StartInstanceRefresh`.
  * Spot: `instance_charge_type` `SPOTPAID` with `spot_instance_type` and `spot_max_price`
    (the SDK: a `SPOTPAID` configuration "must set `spot_instance_type` and `spot_max_price`
    at the same time"); the configuration's spot type is `one-time` in lower case (the
    provider validates that value; the CVM instance takes `ONE-TIME`).

What the configuration cannot carry (`NOT_CARRIED`): the HPC cluster (so HCC types stay
per-node instances, `clouds.tencentcloud.group`), per-node instance and host names (a name
and a host-name prefix that AS makes unique instead), and data-disk encryption: its data
disks take only `disk_type`, `disk_size`, `snapshot_id` and `delete_with_instance`, so the
group's nodes get no scratch data disk rather than an unencrypted one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from clouds.tencentcloud.group import GROUP_MAX_NODES
from components.node_group import carried_args, fixed_size

HEALTH_CHECK_TYPE = "CVM"
HOST_NAME_MAX = 40  # Linux host names in `host_name_settings`: "[2, 40]" characters (SDK)
# Inputs whose change replaces the group (`components.node_group.group_options`): a new
# subnet (a new zone) must bring new instances; the group alone would keep them where they are.
GROUP_REPLACED_ON = ("subnetIds",)

# instance.Instance argument -> As.ScalingConfig argument of the same meaning (most keep the name).
SAME_MEANING = {
    **{key: key for key in ("image_id", "system_disk_type", "system_disk_size", "key_ids")},
    **{key: key for key in ("instance_charge_type", "spot_max_price")},
    "orderly_security_groups": "security_group_ids",
    "allocate_public_ip": "public_ip_assigned",
}
# instance.Instance arguments the configuration cannot carry, and what happens instead.
NOT_CARRIED = {
    "instance_name": "one name for every instance of the group (`instance_name_settings`, made unique by AS)",
    "hostname": "a host-name prefix that AS makes unique (`host_name_settings`)",
    "availability_zone": "the group's one subnet fixes the zone",
    "vpc_id": "the group's `vpc_id`",
    "subnet_id": "the group's `subnet_ids`",
    "data_disks": "the configuration's data disks take no encryption input: no scratch data disk",
    "hpc_cluster_id": "As.ScalingConfig takes no HPC cluster: HCC types stay per-node instances",
}


def _types(instance: Mapping[str, Any]) -> dict[str, Any]:
    return {"instance_types": [instance["instance_type"]]}


def ranked_types(carried: dict[str, Any], fallback_types: tuple[str, ...]) -> dict[str, Any]:
    """`carried` with the stack's `fallback_types` after its instance type, rank order (the
    configuration tries them in turn when a type has no stock: `clouds.tencentcloud.capacity`)."""
    return {**carried, "instance_types": [*carried["instance_types"], *fallback_types]}


def _placement(instance: Mapping[str, Any]) -> dict[str, Any]:
    return {"disaster_recover_group_ids": [instance["placement_group_id"]]}


def _spot_type(instance: Mapping[str, Any]) -> dict[str, Any]:
    return {"spot_instance_type": str(instance["spot_instance_type"]).lower()}


def _tags(instance: Mapping[str, Any]) -> dict[str, Any]:
    return {"instance_tags": instance["tags"], "tags": instance["tags"]}


FOLDED = {
    "instance_type": _types,
    "placement_group_id": _placement,
    "spot_instance_type": _spot_type,
    "tags": _tags,
}


def names(name: str) -> dict[str, Any]:
    """The instance name and host-name prefix every node of the group gets (AS makes them unique)."""
    prefix = re.sub(r"[^a-z0-9-]+", "-", name.lower()).strip("-")[: HOST_NAME_MAX - len("-node")].rstrip("-")
    return {
        "instance_name_settings": {"instance_name": f"{name}-node", "instance_name_style": "UNIQUE"},
        "host_name_settings": {"host_name": f"{prefix or 'gpu'}-node", "host_name_style": "UNIQUE"},
    }


def configuration_args(name: str, instance: dict[str, Any], fallback_types: tuple[str, ...] = ()) -> dict[str, Any]:
    """`As.ScalingConfig` arguments from the arguments one `instance.Instance` node would get.

    Args:
        name: the cluster name (`{name}-node-config`, instances `{name}-node`).
        instance: `profile.node_args(...)` of one node.
        fallback_types: further types after the instance's, rank order (`ranked_types`).

    Raises:
        ValueError: an instance argument this mapping does not know
            (`components.node_group.carried_args`).
    """
    carried = ranked_types(carried_args(instance, SAME_MEANING, NOT_CARRIED, FOLDED, __name__), fallback_types)
    return {"configuration_name": f"{name}-node-config", **carried, **names(name)}


def group_args(name: str, nodes: int, vpc_id: Any, subnet_ids: Any, tags: dict[str, str]) -> dict[str, Any]:
    """`As.ScalingGroup` arguments (without `configuration_id`) of a group that keeps `nodes`
    instances on `subnet_ids` (one id, or a list: the cluster's zone first, then each of its
    `fallback_zones`, tried in that order: `multi_zone_subnet_policy` PRIORITY, "Multi zone or
    subnet strategy, Valid values: PRIORITY and EQUALITY", tencentcloud-iac-pulumi 0.2.3).

    Raises:
        ValueError: `nodes` outside 1..`GROUP_MAX_NODES`.
    """
    ids = list(subnet_ids) if isinstance(subnet_ids, list | tuple) else [subnet_ids]
    return {
        "scaling_group_name": f"{name}-nodes",
        **fixed_size(nodes, GROUP_MAX_NODES, "a Tencent scaling group", ("min_size", "max_size", "desired_capacity")),
        "vpc_id": vpc_id,
        "subnet_ids": ids,
        **({"multi_zone_subnet_policy": "PRIORITY"} if len(ids) > 1 else {}),
        "health_check_type": HEALTH_CHECK_TYPE,
        "replace_monitor_unhealthy": True,
        "tags": tags,
    }
