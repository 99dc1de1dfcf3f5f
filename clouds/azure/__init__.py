"""Azure: what trainstack knows about it, as one `Cloud` (see `clouds.base`); its pure
rules (validation, sizing, facts, mock answers, replace-on-change inputs) sit beside it."""

from __future__ import annotations

import re

from clouds.access import GROUP, NodeAccess
from clouds.base import GROUP_RESTART_HOURS, Cloud, FileSystemRule, Healing

# The nodes have no public IP (components/azure/egress.py) and one admin user
# (components/azure/profile.py ADMIN_USERNAME); Azure Bastion's native client reaches a scale
# set instance by its resource id (Azure Bastion docs "Connect to a VM using Bastion - Linux
# native client": Standard SKU; azure-cli PR #23698 accepts VMSS instance ids). The stack
# creates no Bastion host: BASTION and BASTION_RG name the user's own.
BASTION = "--name BASTION --resource-group BASTION_RG --target-resource-id {node}"
ACCESS = NodeAccess(
    service="Azure Bastion (native client)",
    needs=(
        "an Azure Bastion host (Standard SKU, native client on) in the cluster's virtual network; the stack "
        "creates none. The admin key: pulumi stack output ssh_private_key --show-secrets -s {stack} > key; "
        "chmod 600 key (your own key when the stack sets ssh_public_key)"
    ),
    find=f"az vmss list-instances --ids {GROUP} --query '[].id' --output tsv",
    shell=f"az network bastion ssh {BASTION} --auth-type ssh-key --username azureuser --ssh-key key",
    tunnel=f"az network bastion tunnel {BASTION} --resource-port 22 --port 50022",
    copy_to="scp -P 50022 -i key {file} azureuser@127.0.0.1:",
    copy_back="scp -P 50022 -i key azureuser@127.0.0.1:{remote} {local}",
)

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
    access=ACCESS,
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
