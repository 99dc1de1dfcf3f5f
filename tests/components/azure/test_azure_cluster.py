"""`AzureGpuCluster` under Pulumi mocks: the resource tree, its inputs and outputs."""

from __future__ import annotations

import base64
from typing import Any

import pulumi
import pytest

from clouds.contract import OUTPUT_NAMES
from components.azure.cluster import TYPE_TOKEN, AzureGpuCluster
from tests.components.azure.azure_mocks import MGS_ADDRESS, PRIVATE_KEY, PUBLIC_KEY, SUBSCRIPTION
from tests.components.harness import by_type, check_tree_and_tags, one

GROUP = f"/subscriptions/{SUBSCRIPTION}/resourceGroups/c-rg"
SCALE_SET_ID = f"{GROUP}/providers/Microsoft.Compute/virtualMachineScaleSets/c-nodes"
PPG_ID = f"{GROUP}/providers/Microsoft.Compute/proximityPlacementGroups/c-ppg"
NSG_ID = f"{GROUP}/providers/Microsoft.Network/networkSecurityGroups/c-nsg"
VNET = f"{GROUP}/providers/Microsoft.Network/virtualNetworks/c-vnet"
VMSS = "azure-native:compute:VirtualMachineScaleSet"
AMLFS = "azure-native:storagecache:AmlFilesystem"
NSG = "azure-native:network:NetworkSecurityGroup"
SUBNET = "azure-native:network:Subnet"


def scale_set_profile(records: list[dict[str, Any]]) -> dict[str, Any]:
    return one(records, VMSS)["inputs"]["virtualMachineProfile"]


def test_all_nodes_in_one_uniform_scale_set_in_one_placement_group(azure_records, azure_config):
    records = azure_records(azure_config())
    scale_set = one(records, VMSS)
    inputs = scale_set["inputs"]
    assert scale_set["name"] == "c-nodes" and scale_set["parent"] == "c"
    assert inputs["orchestrationMode"] == "Uniform"
    assert inputs["singlePlacementGroup"] is True
    assert inputs["overprovision"] is False
    assert inputs["zones"] == ["1"]  # the file system's zone, as its placement group (test_azure_zones.py)
    assert inputs["sku"] == {"name": "Standard_ND96asr_v4", "tier": "Standard", "capacity": 2}
    assert inputs["proximityPlacementGroup"] == {"id": PPG_ID}
    assert inputs["location"] == "eastus"
    assert inputs["upgradePolicy"] == {"mode": "Manual"}


def test_node_profile_image_disk_and_nic(azure_records, azure_config):
    profile = scale_set_profile(azure_records(azure_config()))
    storage = profile["storageProfile"]
    assert storage["imageReference"] == {
        "publisher": "microsoft-dsvm",
        "offer": "ubuntu-hpc",
        "sku": "2204",
        "version": "22.04.2026072901",  # pinned, not latest
    }
    assert storage["osDisk"]["managedDisk"] == {"storageAccountType": "Premium_LRS"}
    assert storage["osDisk"]["createOption"] == "FromImage"
    assert "securityProfile" not in profile  # encryption at host off: the API default
    nic = profile["networkProfile"]["networkInterfaceConfigurations"][0]
    assert nic["enableAcceleratedNetworking"] is True
    assert nic["networkSecurityGroup"] == {"id": NSG_ID}
    assert nic["ipConfigurations"][0]["subnet"] == {"id": f"{VNET}/subnets/c-nodes-subnet"}


@pytest.mark.parametrize(
    ("purchase", "expected"),
    [
        pytest.param(
            "spot",
            {"priority": "Spot", "evictionPolicy": "Delete", "billingProfile": {"maxPrice": -1}},
            id="spot",
        ),
        pytest.param(
            "on-demand",
            {"priority": "Regular", "evictionPolicy": None, "billingProfile": None},
            id="on-demand",
        ),
    ],
)
def test_purchase_sets_priority_eviction_and_max_price(azure_records, azure_config, purchase, expected):
    profile = scale_set_profile(azure_records(azure_config(purchase=purchase)))
    assert {key: profile.get(key) for key in expected} == expected


def test_ssh_only_from_configured_cidrs_and_keys_only(azure_records, azure_config):
    records = azure_records(azure_config(ssh_cidrs=("203.0.113.0/24",)))
    rules = {rule["name"]: rule for rule in one(records, NSG)["inputs"]["securityRules"]}
    assert set(rules) == {"allow-ssh", "allow-vnet", "deny-internet"}
    assert rules["allow-ssh"]["sourceAddressPrefixes"] == ["203.0.113.0/24"]
    assert rules["allow-ssh"]["destinationPortRange"] == "22"
    assert rules["deny-internet"]["sourceAddressPrefix"] == "Internet"
    assert rules["deny-internet"]["access"] == "Deny"
    os_profile = scale_set_profile(records)["osProfile"]
    assert os_profile["linuxConfiguration"]["disablePasswordAuthentication"] is True
    assert "adminPassword" not in os_profile


def test_no_ssh_rule_by_default(azure_records, azure_config):
    rules = one(azure_records(azure_config()), NSG)["inputs"]["securityRules"]
    assert [rule["name"] for rule in rules] == ["allow-vnet", "deny-internet"]


def test_amlfs_sku_capacity_own_subnet_and_protect(azure_records, azure_config):
    records = azure_records(azure_config())
    fs = one(records, AMLFS)
    assert fs["name"] == "c-lustre" and fs["parent"] == "c"
    assert fs["protect"] is True
    inputs = fs["inputs"]
    assert inputs["sku"] == {"name": "AMLFS-Durable-Premium-250"}
    assert inputs["storageCapacityTiB"] == 8
    assert inputs["filesystemSubnet"] == f"{VNET}/subnets/c-lustre-subnet"
    assert inputs["maintenanceWindow"] == {"dayOfWeek": "Sunday", "timeOfDayUTC": "02:00"}
    assert inputs["zones"] == ["1"]  # eastus has zones; AMLFS needs one (layout.placement_zones)
    subnets = {r["name"]: r["inputs"]["addressPrefix"] for r in by_type(records, SUBNET)}
    assert subnets == {"c-nodes-subnet": "10.0.0.0/20", "c-lustre-subnet": "10.0.16.0/22"}
    assert [r["name"] for r in records if r["protect"]] == ["c-lustre"]


def test_tags_parenting_and_no_providers(azure_records, azure_config):
    records = azure_records(azure_config(tags={"team": "ml"}))
    untaggable = {SUBNET, "tls:index/privateKey:PrivateKey"}
    tags = {"trainstack:cluster": "c", "trainstack:provider": "azure", "team": "ml"}
    assert check_tree_and_tags(records, TYPE_TOKEN, untaggable, tags) == {
        "azure-native:resources:ResourceGroup",
        "azure-native:network:VirtualNetwork",
        SUBNET,
        "azure-native:network:NatGateway",
        "azure-native:network:PublicIPAddress",
        NSG,
        "azure-native:compute:ProximityPlacementGroup",
        AMLFS,
        "tls:index/privateKey:PrivateKey",
        VMSS,
    }


def test_outputs_have_real_values_and_are_registered(azure_run, azure_config):
    monitor, outputs = azure_run(azure_config())
    assert {key: outputs[key] for key in OUTPUT_NAMES} == {
        "node_ids": [SCALE_SET_ID],
        "node_private_ips": [],
        "placement_group": PPG_ID,
        "file_system_dns": MGS_ADDRESS,
        "file_system_mount_name": "lustrefs",
        "usd_per_hour": 55.0,
        # where the nodes mount it, not AMLFS's own suggestion (/lustre)
        "file_system_mount_command": f"sudo mkdir -p /fsx && sudo mount -t lustre -o noatime,flock {MGS_ADDRESS}@tcp:/lustrefs /fsx",
    }
    assert sorted(monitor.registered_outputs["c"]) == sorted(OUTPUT_NAMES)
    # every node's custom data mounts this file system (its MGS address and file system name) at /fsx
    custom_data = one(monitor.records(), VMSS)["inputs"]["virtualMachineProfile"]["osProfile"]["customData"]
    script = base64.b64decode(custom_data).decode()
    assert f"echo '{MGS_ADDRESS}@tcp:/lustrefs /fsx lustre " in script and "mount /fsx" in script


@pulumi.runtime.test
def test_generated_admin_key_is_ed25519_and_secret(azure_monitor, azure_config):
    cluster = AzureGpuCluster("c", azure_config())

    def check(values: list[Any]) -> None:
        private_key, is_secret, username = values
        assert (private_key, is_secret, username) == (PRIVATE_KEY, True, "azureuser")
        records = azure_monitor.records()
        assert one(records, "tls:index/privateKey:PrivateKey")["inputs"] == {"algorithm": "ED25519"}
        keys = scale_set_profile(records)["osProfile"]["linuxConfiguration"]["ssh"]["publicKeys"]
        assert keys == [{"path": "/home/azureuser/.ssh/authorized_keys", "keyData": PUBLIC_KEY}]

    secret = pulumi.Output.from_input(cluster.ssh_private_key.is_secret())
    return pulumi.Output.all(cluster.ssh_private_key, secret, cluster.admin_username, cluster.scale_set.id).apply(
        lambda values: check(values[:3])
    )


@pulumi.runtime.test
def test_given_public_key_is_used_and_no_key_is_generated(azure_monitor, azure_config):
    given = "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQmock user@host"
    cluster = AzureGpuCluster("c", azure_config(ssh_public_key=given, file_system=None))

    def check(values: list[Any]) -> None:
        private_key, dns, mount_name = values[:3]
        assert (private_key, dns, mount_name) == (None, None, None)
        records = azure_monitor.records()
        assert not by_type(records, "tls:index/privateKey:PrivateKey")
        assert not by_type(records, AMLFS)
        assert [r["name"] for r in by_type(records, SUBNET)] == ["c-nodes-subnet"]
        keys = scale_set_profile(records)["osProfile"]["linuxConfiguration"]["ssh"]["publicKeys"]
        assert keys[0]["keyData"] == given

    return pulumi.Output.all(
        cluster.ssh_private_key,
        cluster.file_system_dns,
        cluster.file_system_mount_name,
        cluster.scale_set.id,
    ).apply(check)


def test_invalid_config_registers_nothing(azure_monitor, azure_config):
    with pytest.raises(ValueError, match="nodes: 101 exceeds 100"):
        AzureGpuCluster("c", azure_config(nodes=101))
    with pytest.raises(ValueError, match="instance_type Standard_NC24ads_A100_v4"):
        AzureGpuCluster("c", azure_config(instance_type="Standard_NC24ads_A100_v4"))
    assert azure_monitor.records() == []
