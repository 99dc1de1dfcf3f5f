"""The scale set's VM profile (what every node looks like), as plain data.

Sources and decisions:
  * Image: `microsoft-dsvm:ubuntu-hpc:2204:latest`, Gen2 Ubuntu 22.04 with the InfiniBand,
    NVIDIA driver and NCCL stack (Azure/azhpc-images; see `facts.HPC_IMAGE`). ND sizes take
    Gen2 images only (Z1, Z3, Z4, Z6 in interconnect.md).
  * OS disk: managed, Premium_LRS. Managed disks are always encrypted at rest by Azure
    Storage server-side encryption with platform-managed keys ("Azure-managed disks use
    Azure Storage to automatically encrypt data at rest", Azure host-based encryption
    docs). Encryption at host (which also covers the temp disk and disk caches) stays off:
    it needs the `Microsoft.Compute/EncryptionAtHost` feature registered on the
    subscription, and a deployment that asks for it on an unregistered subscription fails.
    Register the feature, then set `ENCRYPTION_AT_HOST = True` to turn it on.
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
"""

from __future__ import annotations

import re
from typing import Any

from components.azure.facts import HPC_IMAGE
from components.azure.purchase import priority_settings
from components.contract import ClusterConfig

ADMIN_USERNAME = "azureuser"
# Choices, not sourced figures: room for containers and staged checkpoints, and a short
# hostname prefix (Azure appends the instance suffix).
OS_DISK_GIB = 256
COMPUTER_NAME_PREFIX_LEN = 15
OS_DISK_TYPE = "Premium_LRS"
ENCRYPTION_AT_HOST = False  # needs the subscription feature; see the module docstring


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
    name: str, args: ClusterConfig, subnet_id: Any, security_group_id: Any, public_key: Any
) -> dict[str, Any]:
    """`VirtualMachineScaleSetVMProfileArgs` for the cluster's nodes, as a dict.

    Args:
        name: the cluster name (hostname prefix, NIC and IP-configuration names).
        args: the cluster config (`purchase` picks the priority fields).
        subnet_id: the node subnet id (string or Pulumi output).
        security_group_id: the cluster NSG id, attached to the NIC.
        public_key: the admin OpenSSH public key (string or Pulumi output).

    Returns:
        Priority (see `purchase.priority_settings`), OS, storage, network and security
        profiles.
    """
    return {
        **priority_settings(args.purchase),
        "os_profile": {
            "computer_name_prefix": computer_name_prefix(name),
            "admin_username": ADMIN_USERNAME,
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
        "network_profile": {
            "network_interface_configurations": [_nic(name, subnet_id, security_group_id)]
        },
        "security_profile": {"encryption_at_host": ENCRYPTION_AT_HOST},
    }


def _nic(name: str, subnet_id: Any, security_group_id: Any) -> dict[str, Any]:
    return {
        "name": f"{name}-nic",
        "primary": True,
        "enable_accelerated_networking": True,
        "network_security_group": {"id": security_group_id},
        "ip_configurations": [
            {"name": f"{name}-ip", "primary": True, "subnet": {"id": subnet_id}}
        ],
    }
