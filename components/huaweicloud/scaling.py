"""The Huawei node group as plain arguments: an AS group that keeps `nodes` ECS instances on
the cluster's subnet and zone, and the AS configuration made from the arguments one per-node
instance would get (`compute.node_args`).

Sources (pulumi_huaweicloud 0.0.12 `as_.Group` / `as_.Configuration`, as installed; Huawei
Cloud Auto Scaling documentation):
  * `min_instance_number` = `max_instance_number` = `desire_instance_number` = nodes
    (`clouds.huaweicloud.group`).
  * `health_periodic_audit_method = "NOVA_AUDIT"` (the ECS health check; the SDK's default
    without a load balancer, set so it never depends on one): "A health check removes
    unhealthy instances from an AS group. Then, AS adds new instances to the AS group so that
    the number of instances is the same as the expected number ... If an instance is stopped
    or deleted, it is considered abnormal" (AS user guide, Health Check, as_06_0101). The
    check period is the SDK's default (5 minutes), the grace period its default (600 s).
  * A new configuration never touches running nodes: "When the AS configuration of an AS
    group is changed, the existing instances created using the original AS configuration are
    not affected" (API reference, Modifying an AS Group, as_06_0104). Every configuration
    input replaces the configuration ("Changing this will create a new resource"); the group
    then points at the new one in place.
  * `delete_instances = "yes"` and `force_delete`: deleting the group (`pulumi destroy`, or a
    new zone) deletes its instances instead of leaving them running outside any group.

What the configuration cannot carry (`NOT_CARRIED`): spot and the system disk's KMS key (such
clusters stay per-node instances, `clouds.huaweicloud.group`), per-node names, and instance
tags (the configuration has none; the group carries the tags).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clouds.huaweicloud.group import GROUP_MAX_NODES
from components.node_group import carried_args, fixed_size

HEALTH_CHECK_METHOD = "NOVA_AUDIT"
# Inputs whose change replaces the group (`components.node_group.group_options`): a new zone or
# subnet must bring new instances; the group alone would keep them where they are.
GROUP_REPLACED_ON = ("availabilityZones", "networks")

# ecs.Instance argument -> instance_config argument of the same meaning.
SAME_MEANING = {"flavor_id": "flavor", "image_id": "image", "key_pair": "key_name"}
SAME_MEANING |= {"security_group_ids": "security_group_ids"}  # the one that keeps its name
# ecs.Instance arguments the configuration cannot carry, and what happens instead.
NOT_CARRIED = {
    **dict.fromkeys(
        ("availability_zone", "networks", "tags"),
        "the group carries it (`availability_zones`, `networks`, `tags`); the configuration cannot",
    ),
    **dict.fromkeys(
        ("charging_mode", "spot_maximum_price"),
        "AS creates pay-per-use instances and takes no spot: spot clusters stay per-node instances",
    ),
    "system_disk_kms_key_id": "AS cannot encrypt a system disk: clusters with kms_key_id stay per-node instances",
}


def _disks(instance: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "disks": [
            {"disk_type": "SYS", "size": instance["system_disk_size"], "volume_type": instance["system_disk_type"]}
        ]
    }


def _server_group(instance: Mapping[str, Any]) -> dict[str, Any]:
    return {"ecs_group_id": instance["scheduler_hints"][0]["group"]}


FOLDED = {"system_disk_type": _disks, "system_disk_size": _disks, "scheduler_hints": _server_group}


def configuration_args(name: str, instance: dict[str, Any]) -> dict[str, Any]:
    """`as_.Configuration` arguments from the arguments one `ecs.Instance` node would get.

    Args:
        name: the cluster name (`{name}-node-config`).
        instance: `compute.node_args(...)`.

    Raises:
        ValueError: an instance argument this mapping does not know
            (`components.node_group.carried_args`), or one that keeps the cluster per-node
            (spot, `system_disk_kms_key_id`): the caller asks `clouds.huaweicloud.group` first.
    """
    if instance.get("charging_mode", "postPaid") != "postPaid" or instance.get("system_disk_kms_key_id"):
        raise ValueError("spot or KMS-encrypted Huawei nodes cannot be an AS group; see clouds/huaweicloud/group.py")
    config = carried_args(instance, SAME_MEANING, NOT_CARRIED, FOLDED, __name__)
    return {"scaling_configuration_name": f"{name}-node-config", "instance_config": config}


def group_args(name: str, nodes: int, zone: str, vpc_id: Any, subnet_id: Any, tags: dict[str, str]) -> dict[str, Any]:
    """`as_.Group` arguments (without `scaling_configuration_id`) of a group that keeps `nodes`
    instances in one zone and subnet.

    Raises:
        ValueError: `nodes` outside 1..`GROUP_MAX_NODES`.
    """
    sizes = ("min_instance_number", "max_instance_number", "desire_instance_number")
    return {
        "scaling_group_name": f"{name}-nodes",
        **fixed_size(nodes, GROUP_MAX_NODES, "a Huawei AS group", sizes),
        "vpc_id": vpc_id,
        "networks": [{"id": subnet_id}],
        "availability_zones": [zone],
        "health_periodic_audit_method": HEALTH_CHECK_METHOD,
        "delete_instances": "yes",
        "force_delete": True,
        "tags": tags,
    }
