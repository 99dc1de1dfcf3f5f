"""What every Tencent node looks like, as plain `instance.Instance` arguments.

Sources and decisions:
  * Placement (china-clouds.md section 3, official): the placement group
    (`placement.Group`, `type` HOST | SW | RACK, `affinity` 1-10, default 1) is a
    disaster-recovery *spread* group, not a cluster group; pulumi 0.2.3 has no
    `strategy`. This component uses `HOST` with affinity 1: GPU nodes that fill a host
    lose nothing by being on different hosts, while SW or RACK spreading would push nodes
    apart in the network. What keeps RDMA nodes together is the HPC cluster: HCC types are
    created into one (`hpc_cluster_id`, section 3). Whether Tencent accepts an HCC node in
    a placement group and an HPC cluster at once is unverified.
  * Image: the first public Ubuntu 22.04 64-bit image the type accepts
    (`images.get_instance(image_types=["PUBLIC_IMAGE"], image_name_regex=...,
    instance_type=...)`); the regex style follows the SDK doc (`^CentOS\\s+6\\.8\\s+64\\w*`).
    A public image with the GPU driver, RDMA stack or TCCL preinstalled is not named in
    shared/reference-facts, so none is assumed (driver setup left open).
  * Disks: the system disk cannot be encrypted through tencentcloud-iac-pulumi 0.2.3
    (`instance.Instance` has `system_disk_type`/`_size`/`_name`/`_id`, no encryption
    argument), so it stays unencrypted (README). Node scratch space is one encrypted data
    disk (`data_disks[].encrypt=True`, SDK: "Decides whether the disk is encrypted";
    `kms_key_id` is optional, and without it Tencent uses the CMK it creates for cloud-disk
    encryption on first use, CBS doc "Cloud Disk Encryption"), deleted with the instance.
    Types and sizes are choices, not sourced figures.
  * No public IP; login only with the given key pair (`key_ids`).
"""

from __future__ import annotations

import re
from typing import Any

from clouds.contract import ClusterConfig
from clouds.tencentcloud.purchase import charge_settings

PLACEMENT_TYPE = "HOST"
PLACEMENT_AFFINITY = 1
IMAGE_TYPES = ["PUBLIC_IMAGE"]
IMAGE_NAME_REGEX = r"^Ubuntu\s+Server\s+22\.04\s+LTS\s+64"
SYSTEM_DISK_TYPE = "CLOUD_SSD"
SYSTEM_DISK_GB = 200
DATA_DISK_TYPE = "CLOUD_SSD"
DATA_DISK_GB = 500
HOSTNAME_MAX = 60  # Linux host names: 2-60 characters (SDK `hostname` doc)


def hostname(name: str, index: int) -> str:
    """A Linux host name for node `index`: lowercase letters, digits and hyphens."""
    cleaned = re.sub(r"[^a-z0-9-]+", "-", name.lower()).strip("-") or "node"
    suffix = f"-{index}"
    return cleaned[: HOSTNAME_MAX - len(suffix)].rstrip("-") + suffix


def node_args(
    name: str,
    index: int,
    args: ClusterConfig,
    network: dict[str, Any],
    image_id: Any,
    placement: dict[str, Any],
    spot_max_price: str | None,
    tags: dict[str, str],
) -> dict[str, Any]:
    """All `instance.Instance` arguments of node `index`.

    Args:
        name: the cluster name (instance and host names).
        index: node index, 0-based.
        args: the cluster config (zone, type, purchase).
        network: `{"vpc_id", "subnet_id", "security_group_id"}`.
        image_id: the looked-up image id.
        placement: `placement_group_id`, plus `hpc_cluster_id` (HCC) and `key_ids` if any.
        spot_max_price: the spot bid (spot only), see `purchase`.
        tags: tags for the instance.
    """
    return {
        "instance_name": f"{name}-node-{index}",
        "hostname": hostname(name, index),
        "availability_zone": args.zone,
        "instance_type": args.instance_type,
        "image_id": image_id,
        "vpc_id": network["vpc_id"],
        "subnet_id": network["subnet_id"],
        "orderly_security_groups": [network["security_group_id"]],
        "allocate_public_ip": False,
        "system_disk_type": SYSTEM_DISK_TYPE,
        "system_disk_size": SYSTEM_DISK_GB,
        "data_disks": [
            {
                "data_disk_type": DATA_DISK_TYPE,
                "data_disk_size": DATA_DISK_GB,
                "encrypt": True,
                "delete_with_instance": True,
            }
        ],
        **charge_settings(args.purchase, spot_max_price),
        **placement,
        "tags": tags,
    }
