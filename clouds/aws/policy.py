"""What the policy rules read off AWS resources (`clouds.policy.PolicyReaders`).

Encryption is a setting on AWS: EBS volumes and EFS `encrypted`, the launch template's
`blockDeviceMappings[].ebs.encrypted`, an instance's root and EBS block devices. FSx for Lustre
is encrypted at rest by the platform with no switch to turn it off. Instance metadata: launch
templates, launch configurations and instances must require IMDSv2 session tokens
(`metadataOptions.httpTokens: required`). EFA needs a security group with an all-traffic rule
to and from itself (AWS EFA guide, "Prepare an EFA-enabled security group"; D1 in
shared/reference-facts/interconnect.md). A HyperPod cluster's EFA interfaces are HyperPod's own:
the instances of an EFA-capable type in its instance groups get them in the cluster's
`VpcConfig` security groups (CreateCluster; the deep health check `InstanceConnectivity` tests
EFA between its nodes), so those groups need the rule too.
"""

from __future__ import annotations

from typing import Any

from clouds.policy import (
    PLATFORM_ENCRYPTED,
    UNKNOWN,
    Encryption,
    Grant,
    Inputs,
    Opening,
    PolicyReaders,
    document_grants,
    flag_set,
    is_true,
    is_world,
)
from facts.aws import max_efa_interfaces

LAUNCH_TEMPLATE = "aws:ec2/launchTemplate:LaunchTemplate"
INSTANCE = "aws:ec2/instance:Instance"
NETWORK_INTERFACE = "aws:ec2/networkInterface:NetworkInterface"
SECURITY_GROUP = "aws:ec2/securityGroup:SecurityGroup"
INGRESS = "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule"
EGRESS = "aws:vpc/securityGroupEgressRule:SecurityGroupEgressRule"
LEGACY_RULE = "aws:ec2/securityGroupRule:SecurityGroupRule"
HYPERPOD_CLUSTER = "pulumi-python:dynamic/aws:HyperPodCluster"  # components.aws.hyperpod
EFA_TYPES = ("efa", "efa-only")
ALL_TRAFFIC = ("-1", "all")


def _rule(rule: Inputs, sources: list[Any], protocol_key: str = "protocol") -> list[Opening]:
    world = [s for s in sources if is_world(s)]
    protocol = str(rule.get(protocol_key, "-1")).lower()
    if not world or protocol not in ("-1", "all", "tcp", "udp", "6", "17"):
        return []
    if protocol in ("-1", "all") or rule.get("fromPort") is None:
        return [(world[0], [(0, 65535)])]
    low = int(rule["fromPort"])
    return [(world[0], [(low, int(rule["toPort"]) if "toPort" in rule else low)])]


def _cidrs(rule: Inputs) -> list[Any]:
    return [*(rule.get("cidrBlocks") or []), *(rule.get("ipv6CidrBlocks") or [])]


def _ingress_rule(inputs: Inputs) -> list[Opening]:
    return _rule(inputs, [inputs.get("cidrIpv4"), inputs.get("cidrIpv6")], "ipProtocol")


def _legacy_rule(inputs: Inputs) -> list[Opening]:
    return _rule(inputs, _cidrs(inputs)) if inputs.get("type") == "ingress" else []


def _group(inputs: Inputs) -> list[Opening]:
    return [opening for rule in inputs.get("ingress") or [] for opening in _rule(rule, _cidrs(rule))]


# An ingress rule's possible sources, per resource shape (the provider's input names).
_GROUP_SOURCES = ("cidrBlocks", "ipv6CidrBlocks", "prefixListIds", "securityGroups", "self")
_RULE_SOURCES = ("cidrIpv4", "cidrIpv6", "prefixListId", "referencedSecurityGroupId")
_LEGACY_SOURCES = ("cidrBlocks", "ipv6CidrBlocks", "prefixListIds", "sourceSecurityGroupId", "self")


# AWS managed policies that allow every action ("AWS managed policies for job functions").
_EVERY_ACTION_POLICIES = (":policy/AdministratorAccess", ":policy/PowerUserAccess")


def _attached(inputs: Inputs) -> list[Grant]:
    arn = str(inputs.get("policyArn", ""))
    return [(["*"], ["*"])] if arn.endswith(_EVERY_ACTION_POLICIES) else [([arn], [])]


def _sourceless(rule: Inputs, keys: tuple[str, ...]) -> list[str]:
    if any(rule.get(key) not in (None, [], "", False) for key in keys):
        return []
    return [
        f"inbound rule for ports {rule.get('fromPort', 'all')}-{rule.get('toPort', 'all')} names no source; set one of {', '.join(keys)}"
    ]


def _imdsv2(inputs: Inputs, on_instance: bool = False) -> list[str]:
    options = inputs.get("metadataOptions")
    if on_instance and inputs.get("launchTemplate") and not options:
        return []  # the launch template's own metadataOptions are checked on the template
    options = options if isinstance(options, dict) else {}
    if options.get("httpEndpoint") == "disabled" or options.get("httpTokens") in ("required", UNKNOWN):
        return []
    return ['IMDSv1 allowed; set metadataOptions.httpTokens to "required"']


def _template_disks(inputs: Inputs) -> list[str]:
    ebs = [m.get("ebs") or {} for m in inputs.get("blockDeviceMappings") or [] if isinstance(m, dict)]
    if not ebs:
        return ["root volume not declared; add a blockDeviceMappings entry with ebs.encrypted: true"]
    if all(is_true(e.get("encrypted")) for e in ebs):
        return []
    return ["EBS volume not encrypted; set blockDeviceMappings[].ebs.encrypted: true"]


def _instance_disks(inputs: Inputs) -> list[str]:
    root = inputs.get("rootBlockDevice")
    volumes = [root] if isinstance(root, dict) else []
    volumes += [v for v in inputs.get("ebsBlockDevices") or [] if isinstance(v, dict)]
    if not volumes and not inputs.get("launchTemplate"):
        return ["root volume encryption not set; set rootBlockDevice.encrypted: true"]
    if all(is_true(v.get("encrypted")) for v in volumes):
        return []
    return ["EBS volume not encrypted; set rootBlockDevice/ebsBlockDevices encrypted: true"]


def _market_spot(inputs: Inputs) -> bool:
    market = inputs.get("instanceMarketOptions")
    return isinstance(market, dict) and market.get("marketType") == "spot"


def _group_spot(inputs: Inputs) -> bool:
    distribution = (inputs.get("mixedInstancesPolicy") or {}).get("instancesDistribution") or {}
    base, above = (
        distribution.get("onDemandBaseCapacity", 0),
        distribution.get("onDemandPercentageAboveBaseCapacity"),
    )
    return bool(inputs.get("mixedInstancesPolicy")) and above is not None and above < 100 and not base


def _efa_groups(interfaces: Any) -> list[list[Any]]:
    return [
        interface.get("securityGroups") or []
        for interface in (interfaces if isinstance(interfaces, list) else [])
        if isinstance(interface, dict) and interface.get("interfaceType") in EFA_TYPES
    ]


def _hyperpod_efa_groups(request: Any) -> list[list[Any]]:
    """The security groups of a HyperPod cluster's EFA interfaces: its `VpcConfig` groups when
    an instance group is of an EFA-capable type (`ml.p5.48xlarge`: `p5.48xlarge`'s facts)."""
    if not isinstance(request, dict):
        return []
    groups = request.get("InstanceGroups") or []
    types = [str(g.get("InstanceType", "")).removeprefix("ml.") for g in groups if isinstance(g, dict)]
    if not any(max_efa_interfaces(t) > 0 for t in types):
        return []
    network = request.get("VpcConfig")
    return [list((network.get("SecurityGroupIds") if isinstance(network, dict) else None) or [UNKNOWN])]


def _referencing_itself(record: dict[str, Any]) -> list[tuple[Any, Any]]:
    inputs = record["inputs"]
    group = inputs.get("securityGroupId")
    if str(inputs.get("ipProtocol")) not in ALL_TRAFFIC or group is None:
        return []
    if inputs.get("referencedSecurityGroupId") not in (group, UNKNOWN):
        return []
    return [("ingress" if record["type"] == INGRESS else "egress", group)]


def _legacy_self(record: dict[str, Any]) -> list[tuple[Any, Any]]:
    inputs = record["inputs"]
    if inputs.get("self") is True and str(inputs.get("protocol")) in ALL_TRAFFIC:
        return [(inputs.get("type"), inputs.get("securityGroupId"))]
    return []


def _group_self(record: dict[str, Any]) -> list[tuple[Any, Any]]:
    return [
        (direction, f"{record['name']}-id")
        for direction in ("ingress", "egress")
        for rule in record["inputs"].get(direction) or []
        if rule.get("self") is True and str(rule.get("protocol")) in ALL_TRAFFIC
    ]


POLICY = PolicyReaders(
    world_ingress={INGRESS: _ingress_rule, LEGACY_RULE: _legacy_rule, SECURITY_GROUP: _group},
    metadata={
        LAUNCH_TEMPLATE: _imdsv2,
        INSTANCE: lambda inputs: _imdsv2(inputs, on_instance=True),
        "aws:ec2/launchConfiguration:LaunchConfiguration": _imdsv2,
    },
    encryption={
        "aws:fsx/lustreFileSystem:LustreFileSystem": PLATFORM_ENCRYPTED,
        "aws:ebs/volume:Volume": Encryption(flag_set("encrypted")),
        "aws:efs/fileSystem:FileSystem": Encryption(flag_set("encrypted")),
        LAUNCH_TEMPLATE: Encryption(_template_disks),
        INSTANCE: Encryption(_instance_disks),
    },
    spot={INSTANCE: _market_spot, LAUNCH_TEMPLATE: _market_spot, "aws:autoscaling/group:Group": _group_spot},
    efa_interfaces={
        LAUNCH_TEMPLATE: lambda inputs: _efa_groups(inputs.get("networkInterfaces")),
        NETWORK_INTERFACE: lambda inputs: _efa_groups([inputs]),
        HYPERPOD_CLUSTER: lambda inputs: _hyperpod_efa_groups(inputs.get("request")),
    },
    permissions={
        "aws:iam/role:Role": lambda inputs: document_grants(inputs.get("assumeRolePolicy")),
        "aws:iam/rolePolicyAttachment:RolePolicyAttachment": _attached,
        "aws:iam/rolePolicy:RolePolicy": lambda inputs: document_grants(inputs.get("policy")),
        "aws:iam/policy:Policy": lambda inputs: document_grants(inputs.get("policy")),
        "aws:s3/bucketPolicy:BucketPolicy": lambda inputs: document_grants(inputs.get("policy")),
    },
    sourceless_ingress={
        INGRESS: lambda inputs: _sourceless(inputs, _RULE_SOURCES),
        LEGACY_RULE: lambda inputs: _sourceless(inputs, _LEGACY_SOURCES) if inputs.get("type") == "ingress" else [],
        SECURITY_GROUP: lambda inputs: [
            p for rule in inputs.get("ingress") or [] for p in _sourceless(rule, _GROUP_SOURCES)
        ],
    },
    self_rules={
        INGRESS: _referencing_itself,
        EGRESS: _referencing_itself,
        LEGACY_RULE: _legacy_self,
        SECURITY_GROUP: _group_self,
    },
)
