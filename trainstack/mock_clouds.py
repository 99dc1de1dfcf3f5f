"""What Azure and GCP would report for a resource, for `trainstack.mocks.TrainstackMocks`.

Each function takes the mock's resource args and returns `(id, extra outputs)` that the
real provider computes: ARM ids and names, AMLFS client info and TLS keys on Azure; NIC
IPs, self links, service-account emails, Filestore addresses, Lustre mount points and TPU
endpoints on GCP. All values are deterministic.
"""

from __future__ import annotations

from typing import Any

from pulumi.runtime.mocks import MockResourceArgs

SUBSCRIPTION = "00000000-0000-0000-0000-000000000000"
MGS_ADDRESS = "10.0.16.4"
PUBLIC_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMockMockMockMockMockMockMockMockMockMock mock"
PRIVATE_KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nmock\n-----END OPENSSH PRIVATE KEY-----\n"
GCP_PROJECT_ID = "mock-project"
COMPUTE_API = "https://www.googleapis.com/compute/v1"

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


def _arm_id(typ: str, name: str, inputs: dict[str, Any]) -> str:
    if typ == "azure-native:resources:ResourceGroup":
        return f"/subscriptions/{SUBSCRIPTION}/resourceGroups/{name}"
    group = f"/subscriptions/{SUBSCRIPTION}/resourceGroups/{inputs.get('resourceGroupName')}"
    if typ == "azure-native:network:Subnet":
        vnet = inputs.get("virtualNetworkName")
        return f"{group}/providers/Microsoft.Network/virtualNetworks/{vnet}/subnets/{name}"
    return f"{group}/providers/{_ARM_TYPES.get(typ, 'Mock.Unknown/things')}/{name}"


def azure_outputs(args: MockResourceArgs) -> tuple[str | None, dict[str, Any]]:
    """ARM id and name for azure-native resources; AMLFS client info; TLS key pair."""
    if args.typ == "tls:index/privateKey:PrivateKey":
        return None, {"publicKeyOpenssh": PUBLIC_KEY, "privateKeyOpenssh": PRIVATE_KEY}
    resource_id = _arm_id(args.typ, args.name, args.inputs)
    outputs: dict[str, Any] = {"id": resource_id, "name": args.inputs.get("name", args.name)}
    if args.typ == "azure-native:network:NetworkInterface":
        # the first address Azure hands out in a subnet (it keeps .0-.3)
        outputs["ipConfigurations"] = [
            {**config, "privateIPAddress": "10.0.0.4"} for config in args.inputs.get("ipConfigurations", [])
        ]
    if args.typ == "azure-native:storagecache:AmlFilesystem":
        outputs["clientInfo"] = {
            "mgsAddress": MGS_ADDRESS,
            "mountCommand": f"sudo mount -t lustre -o noatime,flock {MGS_ADDRESS}@tcp:/lustrefs /lustre",
            "lustreVersion": "2.15.7",
        }
    return resource_id, outputs


def _ip(name: str, nic: int = 0) -> str:
    index = int(name.rsplit("-", 1)[-1]) if name.rsplit("-", 1)[-1].isdigit() else 0
    return f"10.{nic}.{index // 250}.{index % 250 + 10}"


def gcp_outputs(args: MockResourceArgs) -> dict[str, Any]:
    """Outputs pulumi_gcp resources would report beyond their inputs."""
    outputs: dict[str, Any] = {
        "name": args.inputs.get("name", args.name),
        "selfLink": f"{COMPUTE_API}/projects/{GCP_PROJECT_ID}/{args.name}",
    }
    if args.typ == "gcp:compute/instance:Instance":
        outputs["networkInterfaces"] = [
            {**nic, "networkIp": _ip(args.name, i)} for i, nic in enumerate(args.inputs.get("networkInterfaces", []))
        ]
    elif args.typ == "gcp:compute/instanceTemplate:InstanceTemplate":
        # the API's unique self link carries the template's numeric id (one version here)
        outputs["selfLinkUnique"] = f"{outputs['selfLink']}?uniqueId=1"
    elif args.typ == "gcp:serviceaccount/account:Account":
        outputs["email"] = f"{args.inputs['accountId']}@{GCP_PROJECT_ID}.iam.gserviceaccount.com"
    elif args.typ == "gcp:filestore/instance:Instance":
        outputs["networks"] = [{**net, "ipAddresses": ["10.99.0.2"]} for net in args.inputs["networks"]]
    elif args.typ == "gcp:lustre/instance:Instance":
        outputs["mountPoint"] = f"10.252.0.5@tcp:/{args.inputs['filesystem']}"
    elif args.typ == "gcp:tpu/v2Vm:V2Vm":
        outputs["networkEndpoints"] = [{"ipAddress": _ip(args.name)}]
    return outputs


GCP_INVOKES = {
    "gcp:organizations/getProject:getProject": {"id": GCP_PROJECT_ID, "projectId": GCP_PROJECT_ID, "number": "123456"},
}
