"""Azure: what trainstack knows about it, as one `Cloud` (see `clouds.base`); its pure
rules (validation, sizing, facts, mock answers, replace-on-change inputs) sit beside it."""

from __future__ import annotations

import re

from clouds.base import Cloud, FileSystemRule

CLOUD = Cloud(
    name="azure",
    display_name="Azure",
    component="components.azure.cluster:AzureGpuCluster",
    validator="clouds.azure.validate:validate_args",
    fetcher="profiles.catalog.fetchers.azure:fetch",
    mock="clouds.azure.mock:MOCK",
    replacements="clouds.azure.replacements:REPLACEMENTS",
    extra="azure",
    sdk="pulumi-azure-native",
    guidance="profiles.preflight_guidance:azure_guidance",
    region_key="azure-native:location",
    mainland=re.compile(r"^china(north|east)\d?$"),
    file_system=FileSystemRule("clouds.azure.amlfs:amlfs_sizing", "Azure Managed Lustre", by_numbers=True),
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
