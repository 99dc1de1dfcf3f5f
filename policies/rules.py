"""Resource rules: each takes one recorded resource and returns one-line violation messages.

A record is `{"type", "name", "parent", "protect", "inputs"}` with the provider's camelCase
inputs. A value a real preview cannot know yet arrives as `UNKNOWN`; rules never flag it.

Encryption: on AWS it is a setting (EBS and EFS `encrypted`). Azure managed disks and Azure
Managed Lustre, GCP persistent disks, Filestore and TPU VMs, and FSx for Lustre are encrypted
at rest by the platform with no switch to turn it off, so they always pass. The Chinese
clouds' inputs, from their Pulumi SDKs: Alibaba ECS `systemDiskEncrypted` and
`dataDisks[].encrypted`, NAS `encryptType` (managed key only for `standard` and `extreme`);
Tencent CVM `dataDisks[].encrypt` and CBS `encrypt` (default key when no `kmsKeyId`). Where no
input can encrypt a disk without a customer KMS key, if at all (Tencent CVM system disk and
CFS, CPFS, Huawei without a key id, Volcengine, Baidu BCC), `encryption_gaps` says so: an
"n/a" line, never a violation, since no change to the stack can fix it (see `RULE_SCOPES`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from policies import china_rules
from policies.cidr import is_world

UNKNOWN = "<unknown>"
# Remote-administration ports: SSH, Telnet, RDP, VNC, WinRM (HTTP and HTTPS).
ADMIN_PORTS = (22, 23, 3389, 5900, 5985, 5986)
TAG_KEYS = (("trainstack:cluster", "trainstack-cluster"), ("trainstack:provider", "trainstack-provider"))
# Stateful resources: data that must outlive the nodes (protect=True in the component).
STATEFUL = frozenset({
    "aws:fsx/lustreFileSystem:LustreFileSystem", "aws:efs/fileSystem:FileSystem",
    "aws:ebs/volume:Volume", "aws:s3/bucket:Bucket", "aws:s3/bucketV2:BucketV2",
    "azure-native:storagecache:AmlFilesystem", "azure-native:storage:StorageAccount",
    "azure-native:compute:Disk", "gcp:filestore/instance:Instance", "gcp:lustre/instance:Instance",
    "gcp:storage/bucket:Bucket", "gcp:compute/disk:Disk",
    "alicloud:nas/fileSystem:FileSystem", "tencentcloud:Cfs/fileSystem:FileSystem",
    "huaweicloud:Sfs/turbo:Turbo", "volcengine:vepfs/fileSystem:FileSystem",
})
# Resource types whose API takes no tags or labels.
UNTAGGABLE = frozenset({
    "aws:iam/rolePolicyAttachment:RolePolicyAttachment", "aws:ec2/routeTableAssociation:RouteTableAssociation",
    "azure-native:network:Subnet", "azure-native:network:SecurityRule", "tls:index/privateKey:PrivateKey",
    "gcp:compute/network:Network", "gcp:compute/subnetwork:Subnetwork", "gcp:compute/firewall:Firewall",
    "gcp:compute/router:Router", "gcp:compute/routerNat:RouterNat", "gcp:compute/resourcePolicy:ResourcePolicy",
    "gcp:projects/iAMMember:IAMMember", "gcp:serviceaccount/account:Account",
    "gcp:servicenetworking/connection:Connection",
    "alicloud:ecs/ecsDeploymentSet:EcsDeploymentSet", "alicloud:ecs/securityGroupRule:SecurityGroupRule",
    "alicloud:nas/mountTarget:MountTarget", "tencentcloud:Cvm/hpcCluster:HpcCluster",
    "tencentcloud:Security/groupRuleSet:GroupRuleSet", "tencentcloud:Ccn/attachmentV2:AttachmentV2",
    "tencentcloud:Cfs/accessGroup:AccessGroup", "tencentcloud:Cfs/accessRule:AccessRule",
    "huaweicloud:Vpc/secgroupRule:SecgroupRule", "huaweicloud:Ecs/servergroup:Servergroup",
    "huaweicloud:Ecs/keypair:Keypair", "volcengine:vpc/securityGroupRule:SecurityGroupRule",
    "volcengine:ecs/deploymentSet:DeploymentSet", "volcengine:vepfs/mountService:MountService",
    "volcengine:vepfs/mountServiceAttachment:MountServiceAttachment",
    "pulumi-python:dynamic/baiducloud:DeploySet", "pulumi-python:dynamic/baiducloud:EhcCluster",
    "pulumi-python:dynamic/baiducloud:Keypair",
})
LAUNCH_TEMPLATE = "aws:ec2/launchTemplate:LaunchTemplate"
INSTANCE = "aws:ec2/instance:Instance"
EC2_METADATA = frozenset({LAUNCH_TEMPLATE, INSTANCE, "aws:ec2/launchConfiguration:LaunchConfiguration"})
# Encrypted at rest by the platform, always (module docstring).
PLATFORM_ENCRYPTED = frozenset({
    "aws:fsx/lustreFileSystem:LustreFileSystem", "azure-native:compute:Disk",
    "azure-native:compute:VirtualMachine", "azure-native:compute:VirtualMachineScaleSet",
    "azure-native:storagecache:AmlFilesystem", "gcp:compute/instance:Instance", "gcp:compute/disk:Disk",
    "gcp:filestore/instance:Instance", "gcp:lustre/instance:Instance", "gcp:tpu/v2Vm:V2Vm",
})
ALI_INSTANCE, ALI_NAS = "alicloud:ecs/instance:Instance", "alicloud:nas/fileSystem:FileSystem"
TENCENT_INSTANCE = "tencentcloud:Instance/instance:Instance"
# Disk types with an encryption flag that needs no customer key: type -> input name.
DISK_FLAGS = {"aws:ebs/volume:Volume": "encrypted", "aws:efs/fileSystem:FileSystem": "encrypted",
              "alicloud:ecs/ecsDisk:EcsDisk": "encrypted", "alicloud:ecs/disk:Disk": "encrypted",
              "tencentcloud:Cbs/storage:Storage": "encrypt"}
NAS_MANAGED_KEY_TYPES = ("standard", "extreme")  # pulumi-alicloud 4.0.0 `nas.FileSystem.encrypt_type`
# Huawei encrypts only with a KMS key id: type -> (key input, what), pulumi_huaweicloud 0.0.12.
HUAWEI_KEYS = {"huaweicloud:Ecs/instance:Instance": ("systemDiskKmsKeyId", "disks"),
               "huaweicloud:Sfs/turbo:Turbo": ("cryptKeyId", "SFS Turbo file system"),
               "huaweicloud:Evs/volume:Volume": ("kmsId", "EVS volume")}
HUAWEI_GAP = ("{what} not encrypted: Huawei encrypts only with a KMS key id ({key}), which the cluster "
              "config does not carry; set components.huaweicloud.compute.DISK_KMS_KEY_ID")
# Data no SDK input encrypts: type -> why (the SDKs as installed).
NO_ENCRYPTION_INPUT = {
    "tencentcloud:Cfs/fileSystem:FileSystem": "CFS file system not encrypted: tencentcloud-iac-pulumi 0.2.3 "
                                              "`cfs.FileSystem` has no encryption input",
    "volcengine:ecs/instance:Instance": "system volume not encrypted: neither pulumi_volcengine 0.0.47 nor "
                                        "pulumi_volcenginecc 0.0.64 has a volume encryption input",
    "volcengine:vepfs/fileSystem:FileSystem": "vePFS file system not encrypted: pulumi_volcengine 0.0.47 "
                                              "`vepfs.FileSystem` has no encryption input",
    "pulumi-python:dynamic/baiducloud:BccInstance": "root disk not encrypted: BCC `create_instance_by_spec` "
                                                    "(bce-python-sdk 0.9.79) takes no root-disk encryption",
}


@dataclass(frozen=True)
class Violation:
    """One broken rule.

    Attributes:
        rule: the rule id, e.g. `imdsv2-required`.
        resource: the offending resource's logical name, or None for the whole stack.
        message: one line saying what is wrong and what to change.
    """

    rule: str
    resource: str | None
    message: str


def admin_ports_open(record: dict[str, Any]) -> list[str]:
    """SSH, RDP and other admin ports must not be reachable from 0.0.0.0/0 or ::/0."""
    found = []
    for source, ports in _world_ingress(record["type"], record["inputs"]):
        exposed = [p for p in ADMIN_PORTS if any(lo <= p <= hi for lo, hi in ports)]
        if exposed:
            found.append(f"admin port(s) {', '.join(map(str, exposed))} open to {source}; "
                         "allow only office or bastion CIDRs (or use SSM / IAP / Bastion)")
    return found


def imdsv2_required(record: dict[str, Any]) -> list[str]:
    """EC2 launch templates and instances must require IMDSv2 session tokens."""
    kind, inputs = record["type"], record["inputs"]
    if kind not in EC2_METADATA:
        return []
    options = inputs.get("metadataOptions")
    if kind == INSTANCE and inputs.get("launchTemplate") and not options:
        return []  # the launch template's own metadataOptions are checked on the template
    options = options if isinstance(options, dict) else {}
    if options.get("httpEndpoint") == "disabled" or options.get("httpTokens") in ("required", UNKNOWN):
        return []
    return ["IMDSv1 allowed; set metadataOptions.httpTokens to \"required\""]


def disks_encrypted(record: dict[str, Any]) -> list[str]:
    """Root and data disks and file systems must be encrypted where an input can do it
    without a customer key (AWS, Alibaba, Tencent; see the module docstring)."""
    kind, inputs = record["type"], record["inputs"]
    if kind in DISK_FLAGS:
        flag = DISK_FLAGS[kind]
        return [] if _true(inputs.get(flag)) else [f"not encrypted; set {flag}: true"]
    if kind == LAUNCH_TEMPLATE:
        ebs = [m.get("ebs") or {} for m in inputs.get("blockDeviceMappings") or [] if isinstance(m, dict)]
        if not ebs:
            return ["root volume not declared; add a blockDeviceMappings entry with ebs.encrypted: true"]
        return [] if all(_true(e.get("encrypted")) for e in ebs) else \
            ["EBS volume not encrypted; set blockDeviceMappings[].ebs.encrypted: true"]
    if kind == INSTANCE:
        root = inputs.get("rootBlockDevice")
        volumes = [root] if isinstance(root, dict) else []
        volumes += [v for v in inputs.get("ebsBlockDevices") or [] if isinstance(v, dict)]
        if not volumes and not inputs.get("launchTemplate"):
            return ["root volume encryption not set; set rootBlockDevice.encrypted: true"]
        return [] if all(_true(v.get("encrypted")) for v in volumes) else \
            ["EBS volume not encrypted; set rootBlockDevice/ebsBlockDevices encrypted: true"]
    if kind == ALI_INSTANCE:
        system = [] if _true(inputs.get("systemDiskEncrypted")) else \
            ["system disk not encrypted; set systemDiskEncrypted: true (ECS service key, no key id needed)"]
        return system + _data_disks(inputs, "encrypted")
    if kind == TENCENT_INSTANCE:
        return _data_disks(inputs, "encrypt")
    if kind == ALI_NAS and _nas_type(inputs) in NAS_MANAGED_KEY_TYPES:
        return [] if str(inputs.get("encryptType")) in ("1", "2", UNKNOWN) else \
            ["NAS file system not encrypted; set encryptType: 1 (NAS-managed key)"]
    return []


def disks_checked(record: dict[str, Any]) -> bool:
    """True when `disks_encrypted` verifies at least one disk or file system of `record`."""
    kind, inputs = record["type"], record["inputs"]
    if kind in HUAWEI_KEYS:
        return bool(inputs.get(HUAWEI_KEYS[kind][0]))
    if kind == TENCENT_INSTANCE:
        return bool(inputs.get("dataDisks"))
    if kind == ALI_NAS:
        return _nas_type(inputs) in NAS_MANAGED_KEY_TYPES
    return kind in DISK_FLAGS or kind in PLATFORM_ENCRYPTED or kind in (LAUNCH_TEMPLATE, INSTANCE, ALI_INSTANCE)


def encryption_gaps(record: dict[str, Any]) -> list[str]:
    """Disks and file systems of `record` left unencrypted because no input can encrypt them
    without a customer KMS key, if at all; one line each, saying why."""
    kind, inputs = record["type"], record["inputs"]
    if kind in NO_ENCRYPTION_INPUT:
        return [NO_ENCRYPTION_INPUT[kind]]
    if kind == TENCENT_INSTANCE:
        return ["system disk not encrypted: tencentcloud-iac-pulumi 0.2.3 `Instance` has no system-disk "
                "encryption input"]
    if kind == ALI_NAS and _nas_type(inputs) not in NAS_MANAGED_KEY_TYPES:
        return [f"{_nas_type(inputs)} file system not encrypted: pulumi-alicloud 4.0.0 `encrypt_type` takes a "
                "managed key only for standard and extreme NAS"]
    if kind in HUAWEI_KEYS:
        key, what = HUAWEI_KEYS[kind]
        keys = [inputs.get(key)] + [d.get("kmsKeyId") for d in inputs.get("dataDisks") or [] if isinstance(d, dict)]
        return [] if all(keys) else [HUAWEI_GAP.format(what=what, key=key)]
    return []


def stateful_protected(record: dict[str, Any]) -> list[str]:
    """File systems, volumes and buckets must be created with protect=True."""
    if record["type"] in STATEFUL and not record.get("protect"):
        return ["stateful resource not protected; create it with ResourceOptions(protect=True)"]
    return []


def cost_tags(record: dict[str, Any]) -> list[str]:
    """Every taggable resource carries the trainstack cluster and provider cost tags/labels."""
    kind = record["type"]
    if kind in UNTAGGABLE or kind.startswith(("pulumi:", "trainstack:")):
        return []
    tags = record["inputs"].get("tags") or record["inputs"].get("labels")
    if tags == UNKNOWN:
        return []
    if isinstance(tags, list):  # Volcengine: [{"key": ..., "value": ...}]
        tags = {t.get("key"): t.get("value") for t in tags if isinstance(t, dict)}
    tags = tags if isinstance(tags, dict) else {}
    missing = [keys[0] for keys in TAG_KEYS if not any(tags.get(k) for k in keys)]
    if missing:
        return [f"cost tag(s) {', '.join(missing)} missing; pass the cluster tags to every resource"]
    return []


RESOURCE_RULES: dict[str, tuple[str, Callable[[dict[str, Any]], list[str]]]] = {
    "no-admin-port-from-internet": ("no SSH/RDP or other admin port open to 0.0.0.0/0 or ::/0", admin_ports_open),
    "imdsv2-required": ("EC2 instance metadata requires IMDSv2 tokens", imdsv2_required),
    "disks-encrypted": ("root disks and file systems encrypted at rest", disks_encrypted),
    "stateful-protected": ("file systems, volumes and buckets are protected", stateful_protected),
    "cost-tags": ("cost tags/labels on every taggable resource", cost_tags),
}


@dataclass(frozen=True)
class Scope:
    """What a resource rule can check, so a result can say "n/a" instead of passing vacuously.

    Attributes:
        checks: True for a record the rule verifies; with none in a stack the rule is n/a.
        absent: why the rule is n/a when no record is checked and none has a gap.
        gaps: one-line reasons a record is beyond the rule (no input can satisfy it); shown as
            n/a lines, never as violations.
    """

    checks: Callable[[dict[str, Any]], bool]
    absent: str
    gaps: Callable[[dict[str, Any]], list[str]] = lambda record: []


RULE_SCOPES: dict[str, Scope] = {
    "imdsv2-required": Scope(lambda record: record["type"] in EC2_METADATA,
                             "no EC2 instance, launch template or launch configuration (IMDSv2 is an EC2 setting)"),
    "disks-encrypted": Scope(disks_checked, "no disk or file system whose encryption can be checked",
                             encryption_gaps),
}


def check_resource(record: dict[str, Any]) -> list[Violation]:
    """All resource rules over one record."""
    return [Violation(rule, record.get("name"), message)
            for rule, (_, check) in RESOURCE_RULES.items() for message in check(record)]


def _true(value: Any) -> bool:
    return value is True or value in ("true", "True", UNKNOWN)


def _data_disks(inputs: dict[str, Any], flag: str) -> list[str]:
    disks = [d for d in inputs.get("dataDisks") or [] if isinstance(d, dict)]
    return [] if all(_true(d.get(flag)) for d in disks) else [f"data disk not encrypted; set dataDisks[].{flag}: true"]


def _nas_type(inputs: dict[str, Any]) -> str:
    return str(inputs.get("fileSystemType") or "standard")  # the SDK's default type


def _world_ingress(kind: str, inputs: dict[str, Any]) -> Iterable[tuple[str, list[tuple[int, int]]]]:
    """(world source, port ranges) of every inbound allow rule open to the internet."""
    if kind == "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule":
        yield from _aws_rule(inputs, [inputs.get("cidrIpv4"), inputs.get("cidrIpv6")], "ipProtocol")
    elif kind == "aws:ec2/securityGroupRule:SecurityGroupRule" and inputs.get("type") == "ingress":
        yield from _aws_rule(inputs, [*(inputs.get("cidrBlocks") or []), *(inputs.get("ipv6CidrBlocks") or [])])
    elif kind == "aws:ec2/securityGroup:SecurityGroup":
        for rule in inputs.get("ingress") or []:
            yield from _aws_rule(rule, [*(rule.get("cidrBlocks") or []), *(rule.get("ipv6CidrBlocks") or [])])
    elif kind == "azure-native:network:NetworkSecurityGroup":
        for rule in inputs.get("securityRules") or []:
            yield from _azure_rule(rule)
    elif kind == "azure-native:network:SecurityRule":
        yield from _azure_rule(inputs)
    elif kind in china_rules.BY_TYPE:
        yield from china_rules.BY_TYPE[kind](inputs)
    elif kind == "gcp:compute/firewall:Firewall" and inputs.get("direction", "INGRESS") == "INGRESS":
        sources = [s for s in inputs.get("sourceRanges") or [] if is_world(s)]
        allows = (inputs.get("allows") or []) if sources else []
        for allow in allows:
            if allow.get("protocol") in ("all", "tcp", "udp", "6", "17"):
                ports = allow.get("ports") or ["0-65535"]
                yield sources[0], [_port_range(p) for p in ports]


def _aws_rule(rule: dict[str, Any], sources: list[Any], protocol_key: str = "protocol"):
    world = [s for s in sources if is_world(s)]
    protocol = str(rule.get(protocol_key, "-1")).lower()
    if not world or protocol not in ("-1", "all", "tcp", "udp", "6", "17"):
        return
    if protocol in ("-1", "all") or rule.get("fromPort") is None:
        yield world[0], [(0, 65535)]
    else:
        yield world[0], [(int(rule["fromPort"]), int(rule.get("toPort", rule["fromPort"])))]


def _azure_rule(rule: dict[str, Any]):
    if rule.get("direction") != "Inbound" or rule.get("access") != "Allow":
        return
    sources = [rule.get("sourceAddressPrefix"), *(rule.get("sourceAddressPrefixes") or [])]
    world = [s for s in sources if is_world(s)]
    if world and str(rule.get("protocol", "*")).lower() in ("*", "tcp", "udp"):
        ports = [rule.get("destinationPortRange"), *(rule.get("destinationPortRanges") or [])]
        yield world[0], [_port_range(p) for p in ports if p]


def _port_range(text: Any) -> tuple[int, int]:
    text = str(text)
    if text in ("*", "", UNKNOWN):
        return (0, 65535)
    low, _, high = text.partition("-")
    return (int(low), int(high or low))
