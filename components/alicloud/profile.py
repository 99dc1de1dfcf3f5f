"""What every Alibaba node looks like, as plain `ecs.Instance` arguments.

Sources and decisions:
  * eRDMA (china-clouds.md section 3, official): `network_interface_traffic_mode =
    "HighPerformance"` turns an ENI into an Elastic RDMA Interface; the primary ENI takes
    it as an instance argument, a secondary ENI in `network_interfaces` with its own
    `network_card_index`. ebmgn7ex reaches 160 Gbit/s only with two ERIs on different NIC
    indexes, so it gets ERIs on NIC index 0 and 1 (`facts.eri_interfaces`).
    `queue_pair_number` and jumbo frames are left at Alibaba's defaults (no sourced value).
  * Image: the newest Alibaba *system* Ubuntu 22.04 x86_64 image that the instance type
    accepts (`get_images(owners="system", name_regex=IMAGE_NAME_REGEX, most_recent=True,
    instance_type=...)`). The name pattern follows pulumi-alicloud's own examples
    (`^ubuntu_[0-9]+_[0-9]+_x64*`). No system image with the NVIDIA driver and the eRDMA
    software stack preinstalled is named in shared/reference-facts, so none is assumed:
    the driver and eRDMA stack must come from user data or a custom image (left open).
  * System disk: ESSD, encrypted (`system_disk_encrypted=True`, default algorithm
    aes-256, pulumi-alicloud 4.0.0 `ecs.Instance`); without `system_disk_kms_key_id` ECS
    uses its service key `alias/acs/ecs`, created and managed by Alibaba (ECS doc "Encrypt
    cloud disks"; encryption at instance creation is for ESSD system disks, hence ESSD);
    256 GiB (a choice; the API accepts 20-500 GiB).
  * No public IP (`internet_max_bandwidth_out=0`); login only with the given key pair.
"""

from __future__ import annotations

import re
from typing import Any

from clouds.alicloud.facts import eri_interfaces
from clouds.contract import ClusterConfig
from components.alicloud.purchase import charge_settings

IMAGE_OWNERS = "system"
IMAGE_NAME_REGEX = r"^ubuntu_22_04_x64"
SYSTEM_DISK_CATEGORY = "cloud_essd"
SYSTEM_DISK_GIB = 256  # a choice: room for containers and staged checkpoints
ERI_MODE = "HighPerformance"
HOST_NAME_MAX = 64  # Linux host names, pulumi-alicloud `host_name` doc


def host_name(name: str, index: int) -> str:
    """A Linux host name for node `index`: lowercase letters, digits and hyphens.

    Example: `host_name("Train_A800", 3)` -> `train-a800-3`.
    """
    cleaned = re.sub(r"[^a-z0-9-]+", "-", name.lower()).strip("-") or "node"
    suffix = f"-{index}"
    return cleaned[: HOST_NAME_MAX - len(suffix)].rstrip("-") + suffix


def eri_settings(instance_type: str, interconnect: str, vswitch_id: Any, security_group_id: Any) -> dict[str, Any]:
    """eRDMA arguments of one node (empty without RDMA).

    Args:
        instance_type: ECS type (`facts.eri_interfaces` gives its ERI count).
        interconnect: `rdma` or `none`; `none` leaves plain ENIs.
        vswitch_id: the node vSwitch (for the secondary ERI).
        security_group_id: the cluster security group (for the secondary ERI).

    Returns:
        For 1 ERI: the primary ENI in `HighPerformance` mode on NIC index 0; for 2: also a
        secondary `HighPerformance` ENI on NIC index 1 (section 3, 160 Gbit/s).
    """
    count = eri_interfaces(instance_type) if interconnect == "rdma" else 0
    if count == 0:
        return {}
    settings: dict[str, Any] = {"network_interface_traffic_mode": ERI_MODE, "network_card_index": 0}
    if count > 1:
        settings["network_interfaces"] = {
            "network_card_index": 1,
            "network_interface_traffic_mode": ERI_MODE,
            "vswitch_id": vswitch_id,
            "security_group_ids": [security_group_id],
        }
    return settings


def node_args(
    name: str,
    args: ClusterConfig,
    network: dict[str, Any],
    image_id: Any,
    placement: dict[str, Any],
    tags: dict[str, str],
) -> dict[str, Any]:
    """All `ecs.Instance` arguments of one node, node 0's names included (the ESS group's
    configuration carries the rest; `scaling.NOT_CARRIED`: the group names its instances).

    Args:
        name: the cluster name (instance and host names).
        args: the cluster config (zone, type, purchase, interconnect).
        network: `{"vswitch_id": ..., "security_group_id": ...}`.
        image_id: the looked-up image id.
        placement: further arguments: `key_name` with a key pair, `role_name` with a RAM role.
        tags: tags for the instance and its disks.
    """
    vswitch_id, group_id = network["vswitch_id"], network["security_group_id"]
    return {
        "instance_name": f"{name}-node-0",
        "host_name": host_name(name, 0),
        "availability_zone": args.zone,
        "instance_type": args.instance_type,
        "image_id": image_id,
        "vswitch_id": vswitch_id,
        "security_groups": [group_id],
        "internet_max_bandwidth_out": 0,
        "system_disk_category": SYSTEM_DISK_CATEGORY,
        "system_disk_size": SYSTEM_DISK_GIB,
        "system_disk_encrypted": True,
        **charge_settings(args.purchase),
        **eri_settings(args.instance_type, args.interconnect, vswitch_id, group_id),
        **placement,
        "tags": tags,
        "volume_tags": tags,
    }
