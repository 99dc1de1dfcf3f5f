"""What the policy rules read off Azure resources (`clouds.policy.PolicyReaders`).

Managed disks, virtual machines and scale sets, and Azure Managed Lustre are encrypted at rest
by the platform with no switch to turn it off. Network security groups open a port to the
internet with an inbound Allow rule whose source is `*`, `Internet` or a wide CIDR. An Azure ML
AmlCompute cluster opens SSH (22) to the internet unless its nodes have no public IP or remote
login is disabled: `enableNodePublicIp` defaults to true, and `remoteLoginPortPublicAccess`
`NotSpecified` (the default) opens SSH when admin credentials are given (Microsoft.MachineLearningServices
AmlComputeProperties reference). Spot VMs have `priority: Spot` (`Low` on older API versions);
AmlCompute's spare capacity is `vmPriority: LowPriority`.
"""

from __future__ import annotations

from clouds.policy import PLATFORM_ENCRYPTED, Grant, Inputs, Opening, PolicyReaders, is_world, port_range

SCALE_SET = "azure-native:compute:VirtualMachineScaleSet"
VIRTUAL_MACHINE = "azure-native:compute:VirtualMachine"
AML_COMPUTE = "azure-native:machinelearningservices:Compute"


def _rule(rule: Inputs) -> list[Opening]:
    if rule.get("direction") != "Inbound" or rule.get("access") != "Allow":
        return []
    sources = [rule.get("sourceAddressPrefix"), *(rule.get("sourceAddressPrefixes") or [])]
    world = [s for s in sources if is_world(s)]
    if world and str(rule.get("protocol", "*")).lower() in ("*", "tcp", "udp"):
        ranges = [rule.get("destinationPortRange"), *(rule.get("destinationPortRanges") or [])]
        return [(world[0], [port_range(p) for p in ranges if p])]
    return []


_SOURCES = ("sourceAddressPrefix", "sourceAddressPrefixes", "sourceApplicationSecurityGroups")
# Built-in roles that allow every action (Azure "built-in roles": Owner, Contributor).
_EVERY_ACTION_ROLES = ("8e3af657-a8ff-443c-a75c-2fe8c4bcb635", "b24988ac-6180-42a0-ab88-20f7382dd24c")


def _sourceless(rule: Inputs) -> list[str]:
    if rule.get("direction") != "Inbound" or rule.get("access") != "Allow" or any(rule.get(k) for k in _SOURCES):
        return []
    return [f"inbound rule {rule.get('name', '')!s} names no source; set sourceAddressPrefix(es)"]


def _assignment(inputs: Inputs) -> list[Grant]:
    role = str(inputs.get("roleDefinitionId", "")).lower()
    return [(["*"], [str(inputs.get("scope", ""))])] if role.endswith(_EVERY_ACTION_ROLES) else []


def _definition(inputs: Inputs) -> list[Grant]:
    scopes = [str(s) for s in inputs.get("assignableScopes") or []]
    return [
        ([*(p.get("actions") or []), *(p.get("dataActions") or [])], scopes)
        for p in inputs.get("permissions") or []
        if isinstance(p, dict)
    ]


def _aml_properties(inputs: Inputs) -> Inputs:
    outer = inputs.get("properties") or {}
    inner = outer.get("properties") if isinstance(outer, dict) else None
    return inner if isinstance(inner, dict) else {}


def _aml_ssh(inputs: Inputs) -> list[Opening]:
    """SSH open to the internet on an AmlCompute cluster's nodes (see the module docstring)."""
    props = _aml_properties(inputs)
    if props.get("enableNodePublicIp") is False:
        return []
    login = props.get("remoteLoginPortPublicAccess", "NotSpecified")
    if login == "Enabled" or (login == "NotSpecified" and props.get("userAccountCredentials")):
        return [("0.0.0.0/0", [(22, 22)])]
    return []


def _spot(inputs: Inputs) -> bool:
    profile = inputs.get("virtualMachineProfile") or inputs
    return isinstance(profile, dict) and profile.get("priority") in ("Spot", "Low")


POLICY = PolicyReaders(
    world_ingress={
        "azure-native:network:NetworkSecurityGroup": lambda inputs: [
            opening for rule in inputs.get("securityRules") or [] for opening in _rule(rule)
        ],
        "azure-native:network:SecurityRule": _rule,
        AML_COMPUTE: _aml_ssh,
    },
    sourceless_ingress={
        "azure-native:network:NetworkSecurityGroup": lambda inputs: [
            problem for rule in inputs.get("securityRules") or [] for problem in _sourceless(rule)
        ],
        "azure-native:network:SecurityRule": _sourceless,
    },
    permissions={
        "azure-native:authorization:RoleAssignment": _assignment,
        "azure-native:authorization:RoleDefinition": _definition,
    },
    encryption={
        "azure-native:compute:Disk": PLATFORM_ENCRYPTED,
        VIRTUAL_MACHINE: PLATFORM_ENCRYPTED,
        SCALE_SET: PLATFORM_ENCRYPTED,
        "azure-native:storagecache:AmlFilesystem": PLATFORM_ENCRYPTED,
    },
    spot={
        SCALE_SET: _spot,
        VIRTUAL_MACHINE: _spot,
        AML_COMPUTE: lambda inputs: _aml_properties(inputs).get("vmPriority") == "LowPriority",
    },
)
