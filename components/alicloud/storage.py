"""The shared CPFS file system of the Alibaba cluster and its mount target.

The file system is the one stateful child: `protect=True`, and its name and inputs depend
only on the cluster name, zone, network and the file-system config, never on node count,
instance type or purchase option, so changing those never replaces it.
"""

from __future__ import annotations

from typing import NamedTuple

import pulumi
import pulumi_alicloud as alicloud

from clouds.alicloud.cpfs import cpfs_sizing
from clouds.contract import FileSystemConfig
from components.cluster_base import protected

# The NAS default permission group for VPC mount targets (pulumi-alicloud
# `nas.ProtocolMountTarget` doc: "Default value: DEFAULT_VPC_GROUP_NAME").
ACCESS_GROUP = "DEFAULT_VPC_GROUP_NAME"
NETWORK_TYPE = "Vpc"


class SharedFileSystem(NamedTuple):
    """The CPFS file system and the mount target the nodes use.

    Attributes:
        file_system: `{name}-cpfs`, protected.
        mount_target: `{name}-cpfs-mount`; its `mount_target_domain` is the address
            clients mount.
    """

    file_system: alicloud.nas.FileSystem
    mount_target: alicloud.nas.MountTarget


def create_file_system(
    name: str,
    config: FileSystemConfig,
    zone: str,
    vpc_id: pulumi.Input[str],
    vswitch_id: pulumi.Input[str],
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> SharedFileSystem:
    """Create a CPFS file system in the cluster's vSwitch, protected, plus its mount target.

    Args:
        name: the cluster name; children are `{name}-cpfs` and `{name}-cpfs-mount`.
        config: capacity (GiB, passed through: CPFS sizes are unsourced) and throughput
            tier (100 or 200 MB/s per TiB, picks `advance_100` / `advance_200`, section 4).
        zone: the zone of the file system (the nodes' zone).
        vpc_id: the cluster VPC.
        vswitch_id: the node vSwitch.
        tags: tags for the file system (mount targets take none).
        opts: child options; `protect=True` is added for the file system.

    Raises:
        ValueError: for a throughput tier without a CPFS storage type.
    """
    sizing = cpfs_sizing(config)
    file_system = alicloud.nas.FileSystem(
        f"{name}-cpfs",
        file_system_type=sizing.file_system_type,
        protocol_type=sizing.protocol_type,
        storage_type=sizing.storage_type,
        capacity=sizing.capacity_gib,
        zone_id=zone,
        vpc_id=vpc_id,
        vswitch_id=vswitch_id,
        description=f"{name} shared training data",
        tags=tags,
        opts=protected(opts),
    )
    mount_target = alicloud.nas.MountTarget(
        f"{name}-cpfs-mount",
        file_system_id=file_system.id,
        vpc_id=vpc_id,
        vswitch_id=vswitch_id,
        network_type=NETWORK_TYPE,
        access_group_name=ACCESS_GROUP,
        opts=opts,
    )
    return SharedFileSystem(file_system, mount_target)
