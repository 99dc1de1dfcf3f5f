"""What the policy rules read off Alibaba Cloud resources (`clouds.policy.PolicyReaders`).

Encryption inputs, from pulumi-alicloud 4.0.0: ECS `systemDiskEncrypted` and
`dataDisks[].encrypted` (the ECS service key, no key id needed), disks `encrypted`, NAS
`encryptType` (a NAS-managed key only for `standard` and `extreme` NAS; other types have no
input that encrypts them, an n/a gap). CPFS has no encryption input either. Security-group rules:
`type: ingress`, `policy: accept`, `cidrIp`/`ipv6CidrIp`, `portRange` as `low/high`. Spot:
`spotStrategy` other than `NoSpot`, on instances and on ESS scaling configurations alike.
Least privilege: a RAM policy's `policyDocument`; attaching the system policy
`AdministratorAccess` (every action on every resource) to a role, user or group counts as `*`.
"""

from __future__ import annotations

from clouds.policy import (
    UNKNOWN,
    Encryption,
    Grant,
    Inputs,
    Opening,
    PolicyReaders,
    data_disks_encrypted,
    document_grants,
    flag_set,
    is_true,
    is_world,
    text_ports,
)

# An ECS instance, and an ESS scaling configuration: the disks of every node its group creates.
NODE_TYPES = ("alicloud:ecs/instance:Instance", "alicloud:ess/scalingConfiguration:ScalingConfiguration")
NAS_MANAGED_KEY_TYPES = ("standard", "extreme")  # pulumi-alicloud 4.0.0 `nas.FileSystem.encrypt_type`


def _rule(inputs: Inputs) -> list[Opening]:
    if inputs.get("type") == "ingress" and inputs.get("policy", "accept") == "accept":
        if is_world(inputs.get("cidrIp")) or is_world(inputs.get("ipv6CidrIp")):
            return [("0.0.0.0/0", text_ports(inputs.get("portRange"), "/"))]
    return []


_SOURCES = ("cidrIp", "ipv6CidrIp", "sourceSecurityGroupId", "prefixListId")


def _sourceless(inputs: Inputs) -> list[str]:
    if inputs.get("type") != "ingress" or inputs.get("policy", "accept") != "accept":
        return []
    if any(inputs.get(key) for key in _SOURCES):
        return []
    return [
        f"ingress rule for {inputs.get('portRange', 'all ports')} names no source; set cidrIp or sourceSecurityGroupId"
    ]


def _attached(inputs: Inputs) -> list[Grant]:
    name = str(inputs.get("policyName", ""))
    return [(["*"], ["*"])] if name == "AdministratorAccess" else [([name], [])]


def _instance_disks(inputs: Inputs) -> list[str]:
    system = (
        []
        if is_true(inputs.get("systemDiskEncrypted"))
        else ["system disk not encrypted; set systemDiskEncrypted: true (ECS service key, no key id needed)"]
    )
    return system + data_disks_encrypted(inputs, "encrypted")


def _nas_type(inputs: Inputs) -> str:
    return str(inputs.get("fileSystemType") or "standard")  # the SDK's default type


def _nas_keyed(inputs: Inputs) -> bool:
    return _nas_type(inputs) in NAS_MANAGED_KEY_TYPES


def _nas(inputs: Inputs) -> list[str]:
    if not _nas_keyed(inputs) or str(inputs.get("encryptType")) in ("1", "2", UNKNOWN):
        return []
    return ["NAS file system not encrypted; set encryptType: 1 (NAS-managed key)"]


def _nas_gap(inputs: Inputs) -> list[str]:
    if _nas_keyed(inputs):
        return []
    return [
        f"{_nas_type(inputs)} file system not encrypted: pulumi-alicloud 4.0.0 `encrypt_type` takes a "
        "managed key only for standard and extreme NAS"
    ]


POLICY = PolicyReaders(
    world_ingress={"alicloud:ecs/securityGroupRule:SecurityGroupRule": _rule},
    sourceless_ingress={"alicloud:ecs/securityGroupRule:SecurityGroupRule": _sourceless},
    permissions={
        "alicloud:ram/policy:Policy": lambda inputs: document_grants(inputs.get("policyDocument")),
        **{
            f"alicloud:ram/{kind}PolicyAttachment:{kind.title()}PolicyAttachment": _attached
            for kind in ("role", "user", "group")
        },
    },
    encryption={
        "alicloud:ecs/ecsDisk:EcsDisk": Encryption(flag_set("encrypted")),
        "alicloud:ecs/disk:Disk": Encryption(flag_set("encrypted")),
        **{kind: Encryption(_instance_disks) for kind in NODE_TYPES},
        "alicloud:nas/fileSystem:FileSystem": Encryption(_nas, _nas_keyed, _nas_gap),
    },
    spot={kind: lambda inputs: inputs.get("spotStrategy") not in (None, "", "NoSpot") for kind in NODE_TYPES},
)
