"""What Azure would report for a resource, for `trainstack.plan.mocks.TrainstackMocks` (no Pulumi import).

`azure_outputs` returns `(id, extra outputs)` that the real provider computes: ARM ids and
names, AMLFS client info, and the TLS key pair the Azure (and other) components generate.
All values are deterministic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clouds.base import Mock
from clouds.mock_answers import fixed_answers

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
    "azure-native:storagecache:AutoExportJob": "Microsoft.StorageCache/autoExportJobs",
    "azure-native:managedidentity:UserAssignedIdentity": "Microsoft.ManagedIdentity/userAssignedIdentities",
}
# The tenant's "HPC Cache Resource Provider" service principal (object id), and the deployer.
HPC_CACHE_PRINCIPAL_ID = "11111111-1111-1111-1111-111111111111"
INVOKES = {
    "azure-native:authorization:getClientConfig": {
        "subscriptionId": SUBSCRIPTION,
        "tenantId": "22222222-2222-2222-2222-222222222222",
        "clientId": "33333333-3333-3333-3333-333333333333",
        "objectId": "44444444-4444-4444-4444-444444444444",
    },
    "azuread:index/getServicePrincipal:getServicePrincipal": {
        "id": f"/servicePrincipals/{HPC_CACHE_PRINCIPAL_ID}",
        "objectId": HPC_CACHE_PRINCIPAL_ID,
        "displayName": "HPC Cache Resource Provider",
        "clientId": "55555555-5555-5555-5555-555555555555",
    },
}


def _arm_id(typ: str, name: str, inputs: Mapping[str, Any]) -> str:
    if typ == "azure-native:resources:ResourceGroup":
        return f"/subscriptions/{SUBSCRIPTION}/resourceGroups/{name}"
    group = f"/subscriptions/{SUBSCRIPTION}/resourceGroups/{inputs.get('resourceGroupName')}"
    if typ == "azure-native:network:Subnet":
        vnet = inputs.get("virtualNetworkName")
        return f"{group}/providers/Microsoft.Network/virtualNetworks/{vnet}/subnets/{name}"
    if typ == "azure-native:storage:BlobContainer":
        account = f"{group}/providers/Microsoft.Storage/storageAccounts/{inputs.get('accountName')}"
        return f"{account}/blobServices/default/containers/{inputs.get('containerName', name)}"
    if typ == "azure-native:keyvault:Secret":
        vault = f"{group}/providers/Microsoft.KeyVault/vaults/{inputs.get('vaultName')}"
        return f"{vault}/secrets/{inputs.get('secretName', name)}"
    if typ == "azure-native:keyvault:Vault":
        return f"{group}/providers/Microsoft.KeyVault/vaults/{inputs.get('vaultName', name)}"
    if typ == "azure-native:authorization:RoleAssignment":
        return f"{inputs.get('scope')}/providers/Microsoft.Authorization/roleAssignments/{name}"
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
    identity = inputs.get("identity")
    if isinstance(identity, Mapping) and isinstance(identity.get("userAssignedIdentities"), list):
        # ARM answers the identities as a map keyed by their resource ids.
        outputs["identity"] = {
            **identity,
            "userAssignedIdentities": {
                i: {"principalId": f"{i}-principal"} for i in identity["userAssignedIdentities"]
            },
        }
    if typ == "azure-native:managedidentity:UserAssignedIdentity":
        outputs.update(principalId=f"{name}-principal", clientId=f"{name}-client")
    return resource_id, outputs


MOCK = Mock(
    prefixes=(
        "azure-native:",
        "tls:",
        "azuread:",
    ),
    outputs=azure_outputs,
    invoke=fixed_answers(INVOKES),
)
