"""The job's head node on Azure: one Regular-priority (never spot) VM on the node subnet that
keeps the c10d rendezvous store, with its NIC in the cluster's security group.

The NIC is its own resource: a replaced head VM attaches the same NIC, so its private IP, the
workers' rendezvous endpoint, stays (a dynamic private IP is kept while its NIC exists).
"""

from __future__ import annotations

import base64

import pulumi
import pulumi_azure_native as azure_native

from clouds.azure.facts import HPC_IMAGE
from components.azure.place import Place
from components.azure.profile import ADMIN_USERNAME, OS_DISK_GIB, OS_DISK_TYPE, computer_name_prefix

# A choice, not a sourced figure: 2 vCPU / 8 GiB is plenty for torch's TCPStore; a Gen2
# size, as the HPC image requires.
HEAD_VM_SIZE = "Standard_D2s_v5"


def create_head_node(
    place: Place,
    subnet_id: pulumi.Input[str],
    security_group_id: pulumi.Input[str],
    public_key: pulumi.Input[str],
    custom_data: pulumi.Input[str],
    channel: str = "",
    identity_id: pulumi.Input[str] | None = None,
) -> tuple[azure_native.network.NetworkInterface, azure_native.compute.VirtualMachine]:
    """Create `{name}-head-nic` (dynamic private IP) and the VM `{name}-head`.

    Args:
        place: the cluster's place (the VM goes in its zone).
        subnet_id: the node subnet.
        security_group_id: the cluster NSG.
        public_key: the admin OpenSSH public key.
        custom_data: base64 custom data (`bootstrap.custom_data(..., "head", ...)`).
        channel: the job channel (`clouds.job_bootstrap.channel_text`), written as the VM's
            user data, which Azure updates "without stopping or rebooting the VM" ("User Data
            for Azure Virtual Machine"); the head's store unit relays it to the workers
            (`nodeagent.publisher`). A job or node-count edit changes nothing else of the head.
        identity_id: the nodes' user-assigned identity, given to the head too when its MLflow
            server writes the artifacts with it (`clouds.mlflow_head`); None: no identity.

    Returns:
        The NIC (its private IP is the rendezvous host) and the VM.
    """
    name = place.name
    nic = azure_native.network.NetworkInterface(
        f"{name}-head-nic",
        **place.located(),
        ip_configurations=[
            {"name": f"{name}-head-ip", "subnet": {"id": subnet_id}, "private_ip_allocation_method": "Dynamic"}
        ],
        network_security_group={"id": security_group_id},
        opts=place.opts,
    )
    vm = azure_native.compute.VirtualMachine(
        f"{name}-head",
        **place.located(),
        zones=place.zones,
        priority="Regular",
        hardware_profile={"vm_size": HEAD_VM_SIZE},
        storage_profile={
            "image_reference": dict(HPC_IMAGE),
            "os_disk": {
                "create_option": "FromImage",
                "delete_option": "Delete",
                "disk_size_gb": OS_DISK_GIB,
                "managed_disk": {"storage_account_type": OS_DISK_TYPE},
            },
        },
        os_profile={
            "computer_name": f"{computer_name_prefix(name)}-head"[:15].strip("-"),
            "admin_username": ADMIN_USERNAME,
            "custom_data": custom_data,
            "linux_configuration": {
                "disable_password_authentication": True,
                "provision_vm_agent": True,
                "ssh": {
                    "public_keys": [{"path": f"/home/{ADMIN_USERNAME}/.ssh/authorized_keys", "key_data": public_key}]
                },
            },
        },
        network_profile={"network_interfaces": [{"id": nic.id, "primary": True}]},
        user_data=base64.b64encode(channel.encode()).decode() if channel else None,
        identity={"type": "UserAssigned", "user_assigned_identities": [identity_id]} if identity_id else None,
        # Custom data runs once, at creation; the head only serves the store, so a changed job
        # (command, env) must not recreate the rendezvous mid-training.
        # A replaced VM must free the NIC (and its private IP, the workers' rendezvous endpoint)
        # before the new one attaches it: delete first.
        # A newer pinned image (a trainstack upgrade) reaches new nodes, never the running head.
        opts=place.options(
            ignore_changes=["osProfile.customData", "storageProfile.imageReference"], delete_before_replace=True
        ),
    )
    return nic, vm


def private_ip(nic: azure_native.network.NetworkInterface) -> pulumi.Output[str | None]:
    """The NIC's first private IP address (the rendezvous host)."""
    return nic.ip_configurations.apply(lambda configs: configs[0].private_ip_address if configs else None)
