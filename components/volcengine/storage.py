"""The shared vePFS file system of the cluster (a stateful, protected child) and the mount
service compute nodes mount it through.

"The mount service is the connection point for the file system in a network environment.
The file system must be mounted on compute nodes to enable data access and storage"
(pulumi_volcenginecc `vepfs.MountService` doc, official). So with a file system the
component always creates a mount service in the node subnet and attaches the file system
to it. Whether RDMA clients on `hpc*` nodes could bypass it is unsourced.

The mount service's `node_type` (its client-management node) has no documented list of
valid values; `ecs.g4i.large` is the value of the volcenginecc `MountService` registry
example (the pulumi_volcengine example uses `ecs.g1ie.large`). It holds no data, so it is
not protected; its inputs never depend on the training nodes.
"""

from __future__ import annotations

from typing import NamedTuple

import pulumi
import pulumi_volcengine as volcengine

from clouds.contract import FileSystemConfig
from clouds.volcengine.vepfs import vepfs_sizing
from components.cluster_base import protected

MOUNT_SERVICE_NODE_TYPE = "ecs.g4i.large"


class FileSystem(NamedTuple):
    """The vePFS children.

    Attributes:
        file_system: the protected vePFS file system `{name}-vepfs`.
        mount_service: the mount service `{name}-mount`.
        attachment: the file system attached to the mount service `{name}-mount-vepfs`.
    """

    file_system: volcengine.vepfs.FileSystem
    mount_service: volcengine.vepfs.MountService
    attachment: volcengine.vepfs.MountServiceAttachment


def create_file_system(
    name: str,
    config: FileSystemConfig,
    subnet_id: pulumi.Input[str],
    tags: list[dict[str, str]],
    opts: pulumi.ResourceOptions,
) -> FileSystem:
    """Create a vePFS file system (protected), a mount service and the attachment.

    Their names and inputs depend only on the cluster name, the subnet and the file-system
    config, never on node count, instance type or purchase option, so changing those never
    replaces them.

    Args:
        name: the cluster name.
        config: capacity (GiB, rounded up to whole TiB) and throughput or store type; see
            `vepfs.vepfs_sizing`.
        subnet_id: the node subnet (it fixes the zone).
        tags: tags for the file system (the mount service and attachment take none).
        opts: child options; `protect=True` is added to the file system.
    """
    sizing = vepfs_sizing(config)
    file_system = volcengine.vepfs.FileSystem(
        f"{name}-vepfs",
        file_system_name=f"{name}-vepfs",
        subnet_id=subnet_id,
        store_type=sizing.store_type,
        capacity=sizing.capacity_tib,
        tags=tags,
        opts=protected(opts),
    )
    mount_service = volcengine.vepfs.MountService(
        f"{name}-mount",
        mount_service_name=f"{name}-mount",
        subnet_id=subnet_id,
        node_type=MOUNT_SERVICE_NODE_TYPE,
        opts=opts,
    )
    attachment = volcengine.vepfs.MountServiceAttachment(
        f"{name}-mount-vepfs",
        mount_service_id=mount_service.id,
        file_system_id=file_system.id,
        opts=opts,
    )
    return FileSystem(file_system, mount_service, attachment)
