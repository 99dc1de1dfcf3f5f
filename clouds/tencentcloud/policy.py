"""What the policy rules read off Tencent Cloud resources (`clouds.policy.PolicyReaders`).

Encryption inputs, from tencentcloud-iac-pulumi 0.2.3: CVM `dataDisks[].encrypt` and CBS
`encrypt` (the default cloud-disk key when no `kmsKeyId`); the CVM system disk and CFS have no
encryption input (n/a gaps), and neither have the disks of an Auto Scaling launch configuration
(`As.ScalingConfig` data disks take no `encrypt`; the component gives the group's nodes no data
disk). Security groups: a `GroupRuleSet`'s `ingresses` with action `ACCEPT`, `port` as
`low-high` or a list. Spot: `instanceChargeType: SPOTPAID`, on instances and launch
configurations alike.

Least privilege (`no-wildcard-permissions`): a CAM policy's `document` (`version` 2.0,
lowercase `statement`/`effect`/`action`/`resource`), on `Cam/policy`, `Cam/policyByName` and
`Cam/policyVersion` (its `policyDocument`); attaching the preset `AdministratorAccess` policy
(every action on every resource, Tencent CAM "preset policies") to a role by name counts as `*`.
`ingress-has-source`: a `GroupRuleSet` ingress or a `GroupRule` of type ingress naming none of
its CIDR, security group or address-template sources.
"""

from __future__ import annotations

from clouds.policy import (
    Encryption,
    Grant,
    Inputs,
    Opening,
    PolicyReaders,
    data_disks_encrypted,
    document_grants,
    flag_set,
    is_world,
    no_encryption_input,
    sourceless_line,
    text_ports,
)

INSTANCE = "tencentcloud:Instance/instance:Instance"
# The Auto Scaling launch configuration: the disks and purchase of every node its group creates.
CONFIGURATION = "tencentcloud:As/scalingConfig:ScalingConfig"


def _rules(inputs: Inputs) -> list[Opening]:
    return [
        ("0.0.0.0/0", text_ports(rule.get("port"), "-,"))
        for rule in inputs.get("ingresses") or []
        if rule.get("action") == "ACCEPT" and (is_world(rule.get("cidrBlock")) or is_world(rule.get("ipv6CidrBlock")))
    ]


_SET_SOURCES = ("cidrBlock", "ipv6CidrBlock", "sourceSecurityId", "addressTemplateId", "addressTemplateGroup")
_RULE_SOURCES = ("cidrIp", "sourceSgid", "addressTemplate")
_ADMIN_POLICIES = ("AdministratorAccess",)


def _sourceless_set(inputs: Inputs) -> list[str]:
    return [
        line
        for rule in inputs.get("ingresses") or []
        if isinstance(rule, dict) and rule.get("action") == "ACCEPT" and not any(rule.get(k) for k in _SET_SOURCES)
        for line in sourceless_line(f"ingress rule for port {rule.get('port', 'ALL')}", _SET_SOURCES)
    ]


def _sourceless_rule(inputs: Inputs) -> list[str]:
    if str(inputs.get("type", "")).lower() != "ingress" or inputs.get("policy", "ACCEPT").upper() != "ACCEPT":
        return []
    if any(inputs.get(k) for k in _RULE_SOURCES):
        return []
    return sourceless_line(f"ingress rule for port {inputs.get('portRange', 'ALL')}", _RULE_SOURCES)


def _attached_by_name(inputs: Inputs) -> list[Grant]:
    name = str(inputs.get("policyName", ""))
    return [(["*"], ["*"])] if name in _ADMIN_POLICIES else [([name], [])]


POLICY = PolicyReaders(
    world_ingress={"tencentcloud:Security/groupRuleSet:GroupRuleSet": _rules},
    sourceless_ingress={
        "tencentcloud:Security/groupRuleSet:GroupRuleSet": _sourceless_set,
        "tencentcloud:Security/groupRule:GroupRule": _sourceless_rule,
    },
    permissions={
        "tencentcloud:Cam/policy:Policy": lambda inputs: document_grants(inputs.get("document")),
        "tencentcloud:Cam/policyByName:PolicyByName": lambda inputs: document_grants(inputs.get("document")),
        "tencentcloud:Cam/policyVersion:PolicyVersion": lambda inputs: document_grants(inputs.get("policyDocument")),
        "tencentcloud:Cam/rolePolicyAttachmentByName:RolePolicyAttachmentByName": _attached_by_name,
    },
    encryption={
        "tencentcloud:Cbs/storage:Storage": Encryption(flag_set("encrypt")),
        INSTANCE: Encryption(
            lambda inputs: data_disks_encrypted(inputs, "encrypt"),
            lambda inputs: bool(inputs.get("dataDisks")),
            lambda inputs: [
                "system disk not encrypted: tencentcloud-iac-pulumi 0.2.3 `Instance` has no system-disk encryption input"
            ],
        ),
        CONFIGURATION: no_encryption_input(
            "system disk not encrypted: tencentcloud-iac-pulumi 0.2.3 `As.ScalingConfig` has no disk encryption input"
        ),
        "tencentcloud:Cfs/fileSystem:FileSystem": no_encryption_input(
            "CFS file system not encrypted: tencentcloud-iac-pulumi 0.2.3 `cfs.FileSystem` has no encryption input"
        ),
    },
    spot={kind: lambda inputs: inputs.get("instanceChargeType") == "SPOTPAID" for kind in (INSTANCE, CONFIGURATION)},
)
