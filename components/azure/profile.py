"""The scale set's VM profile (what every node looks like), as plain data.

Sources and decisions:
  * Image: `microsoft-dsvm:ubuntu-hpc:2204:22.04.2026072901 (pinned, `clouds/azure/facts.py` `HPC_IMAGE_FACTS`)`, Gen2 Ubuntu 22.04 with the InfiniBand,
    NVIDIA driver and NCCL stack (Azure/azhpc-images; see `facts.HPC_IMAGE`). ND sizes take
    Gen2 images only (Z1, Z3, Z4, Z6 in interconnect.md).
  * OS disk: managed, Premium_LRS. See "Encryption" below.
  * Security type: left unset, which is Standard at the compute API version azure-native
    3.x uses (2024-11-01). Azure Managed Lustre clients need the Standard type: "Choosing
    Trusted Launch or Confidential prevents the Lustre module from being properly
    installed" (MicrosoftDocs azure-managed-lustre connect-clients.md). Open risk: Azure
    announced Trusted Launch as the default for new Gen2 scale sets (public preview, May
    2025); if that default reaches this API version, set `security_type` to Standard
    explicitly (older API versions accept that only with the subscription feature
    `Microsoft.Compute/UseStandardSecurityType`).
  * Login: SSH keys only (`disable_password_authentication=True`); no password is set.
    Azure accepts RSA (2048 bits or more) and ED25519 public keys for Linux VMs (Azure
    "Create and manage SSH keys" docs; ED25519 was first released as a preview).
  * NIC: one NIC with accelerated networking. InfiniBand is not a VNet NIC; Azure wires it
    between VMs of the same scale set (Z2, Z5, Z7).

Encryption (MicrosoftDocs/azure-compute-docs articles/virtual-machines/disk-encryption.md
unless noted):
  * Encrypted: the managed OS disk, at rest, by Azure Storage server-side encryption with
    platform-managed keys (AES-256; "All managed disks ... are automatically encrypted-at-
    rest with platform-managed keys"). The AMLFS file system: Microsoft-managed keys by
    default (AMLFS Resource Manager template guide). Nothing here needs turning on.
  * Not encrypted by default: the temporary disk and the local NVMe disks of the ND sizes
    (ND H100 v5: a 1,024 GiB temp disk and 8 NVMe disks, size page ndh100v5-series.md),
    and the OS-disk cache on the host. "Temporary disks are not managed disks and are not
    encrypted by SSE, unless you enable encryption at host." The same page says VMs of
    version 5 and above "automatically encrypt their temporary disks"; whether that covers
    the ND v5 sizes and their NVMe disks is not stated, and the ND A100 v4 sizes are v4.
    Keep secrets and regulated data off those disks (encryption at host is documented for
    the temp disk; whether it covers the NVMe disks is not stated either).
  * Encryption at host (`ENCRYPTION_AT_HOST`) encrypts the temp disk and the disk caches
    on the host with platform-managed keys and adds no CPU cost. It stays off so a plain
    subscription can deploy: "You must enable the feature for your subscription before you
    use the EncryptionAtHost property for your VM/VMSS" (linux/disks-enable-host-based-
    encryption-cli.md). To turn it on: `az feature register --namespace Microsoft.Compute
    --name EncryptionAtHost`, wait until `az feature show` says Registered, check that the
    VM size reports `EncryptionAtHostSupported=True` in `az vm list-skus --location
    <region> --all`, then set `ENCRYPTION_AT_HOST = True`. No Microsoft source found lists
    the ND sizes as supported; check with that command. Turning it off later only affects
    VMs created afterwards (same guide).
"""

from __future__ import annotations

import re
from typing import Any

from clouds.azure.facts import HPC_IMAGE
from clouds.contract import ClusterConfig
from components.azure.purchase import priority_settings

ADMIN_USERNAME = "azureuser"
# Choices, not sourced figures: room for containers and staged checkpoints, and a short
# hostname prefix (Azure appends the instance suffix).
OS_DISK_GIB = 256
COMPUTER_NAME_PREFIX_LEN = 15
OS_DISK_TYPE = "Premium_LRS"
# Encryption at host for every node. Off: it needs the `Microsoft.Compute/EncryptionAtHost`
# subscription feature and VM-size support; see "Encryption" in the module docstring.
ENCRYPTION_AT_HOST = False


def computer_name_prefix(name: str) -> str:
    """A Linux hostname prefix from the cluster name: lowercase letters, digits, hyphens.

    Args:
        name: the cluster name.

    Returns:
        At most `COMPUTER_NAME_PREFIX_LEN` characters, never starting or ending with a
        hyphen; `node` when nothing usable remains.
    """
    cleaned = re.sub(r"[^a-z0-9-]+", "-", name.lower())[:COMPUTER_NAME_PREFIX_LEN]
    return cleaned.strip("-") or "node"


def vm_profile(
    name: str, args: ClusterConfig, subnet_id: Any, security_group_id: Any, public_key: Any, custom_data: Any = None
) -> dict[str, Any]:
    """`VirtualMachineScaleSetVMProfileArgs` for the cluster's nodes, as a dict.

    Args:
        name: the cluster name (hostname prefix, NIC and IP-configuration names).
        args: the cluster config (`purchase` picks the priority fields).
        subnet_id: the node subnet id (string or Pulumi output).
        security_group_id: the cluster NSG id, attached to the NIC.
        public_key: the admin OpenSSH public key (string or Pulumi output).
        custom_data: base64 node bootstrap (`bootstrap.custom_data`), or None for none.

    Returns:
        Priority (see `purchase.priority_settings`), OS, storage and network profiles, plus
        `security_profile` when `ENCRYPTION_AT_HOST` is on (see `security_settings`).
    """
    return {
        **priority_settings(args.purchase),
        "os_profile": {
            "computer_name_prefix": computer_name_prefix(name),
            "admin_username": ADMIN_USERNAME,
            **({"custom_data": custom_data} if custom_data is not None else {}),
            "linux_configuration": {
                "disable_password_authentication": True,
                "provision_vm_agent": True,
                "ssh": {
                    "public_keys": [
                        {
                            "path": f"/home/{ADMIN_USERNAME}/.ssh/authorized_keys",
                            "key_data": public_key,
                        }
                    ]
                },
            },
        },
        "storage_profile": {
            "image_reference": dict(HPC_IMAGE),
            "os_disk": {
                "create_option": "FromImage",
                "caching": "ReadWrite",
                "delete_option": "Delete",
                "disk_size_gb": OS_DISK_GIB,
                "managed_disk": {"storage_account_type": OS_DISK_TYPE},
            },
        },
        "network_profile": {"network_interface_configurations": [_nic(name, subnet_id, security_group_id)]},
        **security_settings(ENCRYPTION_AT_HOST),
    }


def security_settings(encryption_at_host: bool) -> dict[str, Any]:
    """The scale set's `security_profile` for the encryption-at-host switch.

    Off sends no `security_profile` at all: the API's default is off ("The Encryption at
    host will be disabled unless this property is set to true for the resource", compute
    `SecurityProfile.encryptionAtHost` reference, also in azure-native's docstring), and
    leaving the profile out keeps the security type at its default (Standard, see the
    module docstring).

    Args:
        encryption_at_host: `ENCRYPTION_AT_HOST`.

    Returns:
        `{"security_profile": {"encryption_at_host": True}}` when on, else `{}`.
    """
    return {"security_profile": {"encryption_at_host": True}} if encryption_at_host else {}


def _nic(name: str, subnet_id: Any, security_group_id: Any) -> dict[str, Any]:
    return {
        "name": f"{name}-nic",
        "primary": True,
        "enable_accelerated_networking": True,
        "network_security_group": {"id": security_group_id},
        "ip_configurations": [{"name": f"{name}-ip", "primary": True, "subnet": {"id": subnet_id}}],
    }
