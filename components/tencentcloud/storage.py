"""The shared CFS Turbo file system of the Tencent cluster and what it needs to be reached.

CFS Turbo is reached through a Cloud Connect Network (CCN): the file system takes
`net_interface="CCN"`, a `ccn_id` and its own `cidr_block`, and the cluster VPC is
attached to the same CCN (china-clouds.md section 4 and tencentcloud-iac-pulumi 0.2.3
`cfs.FileSystem` docs). A permission group lets the VPC mount it read-write.

The file system is the one stateful child: `protect=True`, and its name and inputs depend
only on the cluster name, region, zone, network and file-system config, never on node
count, instance type or purchase option.
"""

from __future__ import annotations

from typing import NamedTuple

import pulumi
import tencentcloud_iac_pulumi as tencentcloud

from clouds.contract import FileSystemConfig
from clouds.tencentcloud.turbo import NET_INTERFACE, PROTOCOL, turbo_sizing
from components.cluster_base import protected
from components.tencentcloud.security import TURBO_CIDR, VPC_CIDR

# A choice: root on the nodes keeps root (training containers often run as root).
RW_PERMISSION, USER_PERMISSION = "RW", "no_root_squash"


class SharedFileSystem(NamedTuple):
    """The CFS Turbo file system and its network and access children.

    Attributes:
        ccn: `{name}-ccn`, the Cloud Connect Network the Turbo file system lives in.
        ccn_attachment: `{name}-ccn-vpc`, the cluster VPC attached to it.
        access_group: `{name}-cfs-access`; access_rule: `{name}-cfs-rule` (VPC CIDR, RW).
        file_system: `{name}-cfs`, protected; `mount_ip` and `fs_id` say where to mount.
    """

    ccn: tencentcloud.ccn.Instance
    ccn_attachment: tencentcloud.ccn.AttachmentV2
    access_group: tencentcloud.cfs.AccessGroup
    access_rule: tencentcloud.cfs.AccessRule
    file_system: tencentcloud.cfs.FileSystem


def create_file_system(
    name: str,
    config: FileSystemConfig,
    region: str,
    zone: str,
    vpc_id: pulumi.Input[str],
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> SharedFileSystem:
    """Create the CCN, attach the VPC, and create the protected CFS Turbo file system.

    Args:
        name: the cluster name; children are named as in `SharedFileSystem`.
        config: capacity (GiB, rounded up per section 4) and Turbo type (`TB`/`TP`).
        region: the cluster region (the VPC attachment's region).
        zone: the zone of the file system (the nodes' zone).
        vpc_id: the cluster VPC.
        tags: tags for the CCN and the file system (attachments and access rules take none).
        opts: child options; `protect=True` is added for the file system.

    Raises:
        ValueError: for an unknown Turbo type or a capacity above 100 PiB.
    """
    sizing = turbo_sizing(config)
    ccn = tencentcloud.ccn.Instance(
        f"{name}-ccn", name=f"{name}-ccn", description=f"{name}: CFS Turbo network", tags=tags, opts=opts
    )
    attachment = tencentcloud.ccn.AttachmentV2(
        f"{name}-ccn-vpc",
        ccn_id=ccn.id,
        instance_type="VPC",
        instance_id=vpc_id,
        instance_region=region,
        opts=opts,
    )
    group, rule = _create_access(name, opts)
    file_system = tencentcloud.cfs.FileSystem(
        f"{name}-cfs",
        name=f"{name}-cfs",
        availability_zone=zone,
        access_group_id=group.id,
        protocol=PROTOCOL,
        storage_type=sizing.storage_type,
        capacity=sizing.capacity_gib,
        net_interface=NET_INTERFACE,
        ccn_id=ccn.id,
        cidr_block=TURBO_CIDR,
        tags=tags,
        opts=protected(opts, depends_on=[attachment]),
    )
    return SharedFileSystem(ccn, attachment, group, rule, file_system)


def _create_access(
    name: str, opts: pulumi.ResourceOptions
) -> tuple[tencentcloud.cfs.AccessGroup, tencentcloud.cfs.AccessRule]:
    """The CFS permission group `{name}-cfs-access` with one rule: the VPC CIDR, read-write."""
    group = tencentcloud.cfs.AccessGroup(
        f"{name}-cfs-access", name=f"{name}-cfs-access", description=f"{name}: cluster VPC", opts=opts
    )
    rule = tencentcloud.cfs.AccessRule(
        f"{name}-cfs-rule",
        access_group_id=group.id,
        auth_client_ip=VPC_CIDR,
        priority=1,
        rw_permission=RW_PERMISSION,
        user_permission=USER_PERMISSION,
        opts=opts,
    )
    return group, rule
