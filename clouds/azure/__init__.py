"""Azure: what trainstack knows about it, as one `Cloud` (see `clouds.base`); its pure
rules (validation, sizing, facts, mock answers, replace-on-change inputs) sit beside it."""

from __future__ import annotations

import re

from clouds.base import GROUP_RESTART_HOURS, Cloud, FileSystemRule, Healing

CLOUD = Cloud(
    name="azure",
    display_name="Azure",
    extra="azure",
    sdk="pulumi-azure-native",
    guidance="profiles.preflight_guidance:azure_guidance",
    region_key="azure-native:location",
    mainland=re.compile(r"^china(north|east)\d?$"),
    file_system=FileSystemRule("clouds.azure.amlfs:amlfs_sizing", "Azure Managed Lustre", by_numbers=True),
    healing=Healing(
        True,
        True,
        GROUP_RESTART_HOURS,
        "the scale set restores evicted spot VMs and repairs unhealthy ones, which rejoin the job "
        f"(unsourced {GROUP_RESTART_HOURS:g} h per interruption)",
    ),
    notice_watcher="azure",
    nccl="clouds.azure.nccl:kit_environment",
    shared_mount="/fsx",  # components/node_bootstrap.SHARED_MOUNT (every cloud mounts it there)
    # Off on-demand: unsourced [1y 30-40 %, 3y 55-65 % on Linux] (pricing-models.md), the low end.
    reserved_discount={"1y": 0.30, "3y": 0.55},
    stateful=frozenset(
        {
            "azure-native:storagecache:AmlFilesystem",
            "azure-native:storage:StorageAccount",
            "azure-native:compute:Disk",
        }
    ),
    untaggable=frozenset(
        {
            "azure-native:network:Subnet",
            "azure-native:network:SecurityRule",
            "azure-native:authorization:RoleAssignment",
            "azure-native:storage:BlobContainer",  # ARM tags the account, not its containers
            "tls:index/privateKey:PrivateKey",
        }
    ),
)
