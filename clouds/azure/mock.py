"""What Azure would report for a resource, for `trainstack.mocks.TrainstackMocks` (no Pulumi import).

`azure_outputs` returns `(id, extra outputs)` that the real provider computes: ARM ids and
names, AMLFS client info, and the TLS key pair the Azure (and other) components generate.
All values are deterministic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clouds.base import Mock

SUBSCRIPTION = "00000000-0000-0000-0000-000000000000"
MGS_ADDRESS = "10.0.16.4"
PUBLIC_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMockMockMockMockMockMockMockMockMockMock mock"
PRIVATE_KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nmock\n-----END OPENSSH PRIVATE KEY-----\n"

# azure-native type token -> ARM resource type path under the resource group.
_ARM_TYPES = {
    "azure-native:compute:VirtualMachineScaleSet": "Microsoft.Compute/virtualMachineScaleSets",
    "azure-native:compute:ProximityPlacementGroup": "Microsoft.Compute/proximityPlacementGroups",
    "azure-native:network:VirtualNetwork": "Microsoft.Network/virtualNetworks",
    "azure-native:network:NetworkSecurityGroup": "Microsoft.Network/networkSecurityGroups",
    "azure-native:network:NetworkInterface": "Microsoft.Network/networkInterfaces",
    "azure-native:compute:VirtualMachine": "Microsoft.Compute/virtualMachines",
    "azure-native:storagecache:AmlFilesystem": "Microsoft.StorageCache/amlFilesystems",
}


def _arm_id(typ: str, name: str, inputs: Mapping[str, Any]) -> str:
    if typ == "azure-native:resources:ResourceGroup":
        return f"/subscriptions/{SUBSCRIPTION}/resourceGroups/{name}"
    group = f"/subscriptions/{SUBSCRIPTION}/resourceGroups/{inputs.get('resourceGroupName')}"
    if typ == "azure-native:network:Subnet":
        vnet = inputs.get("virtualNetworkName")
        return f"{group}/providers/Microsoft.Network/virtualNetworks/{vnet}/subnets/{name}"
    return f"{group}/providers/{_ARM_TYPES.get(typ, 'Mock.Unknown/things')}/{name}"


def azure_outputs(
    typ: str, name: str, inputs: Mapping[str, Any], region: str = ""
) -> tuple[str | None, dict[str, Any]]:
    """ARM id and name for azure-native resources; AMLFS client info; TLS key pair."""
    if typ == "tls:index/privateKey:PrivateKey":
        return None, {"publicKeyOpenssh": PUBLIC_KEY, "privateKeyOpenssh": PRIVATE_KEY}
    resource_id = _arm_id(typ, name, inputs)
    outputs: dict[str, Any] = {"id": resource_id, "name": inputs.get("name", name)}
    if typ == "azure-native:network:NetworkInterface":
        # the first address Azure hands out in a subnet (it keeps .0-.3)
        outputs["ipConfigurations"] = [
            {**config, "privateIPAddress": "10.0.0.4"} for config in inputs.get("ipConfigurations", [])
        ]
    if typ == "azure-native:storagecache:AmlFilesystem":
        outputs["clientInfo"] = {
            "mgsAddress": MGS_ADDRESS,
            "mountCommand": f"sudo mount -t lustre -o noatime,flock {MGS_ADDRESS}@tcp:/lustrefs /lustre",
            "lustreVersion": "2.15.7",
        }
    return resource_id, outputs


MOCK = Mock(
    prefixes=(
        "azure-native:",
        "tls:",
    ),
    outputs=azure_outputs,
)
