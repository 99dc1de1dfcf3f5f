"""Disk and file-system encryption: the `disks-encrypted` rule, what it checks, and the gaps.

On AWS encryption is a setting (EBS and EFS `encrypted`). Azure managed disks and Azure
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

from typing import Any

from policies.records import INSTANCE, LAUNCH_TEMPLATE, UNKNOWN
from policies.records import is_true as _true

# Encrypted at rest by the platform, always (module docstring).
PLATFORM_ENCRYPTED = frozenset(
    {
        "aws:fsx/lustreFileSystem:LustreFileSystem",
        "azure-native:compute:Disk",
        "azure-native:compute:VirtualMachine",
        "azure-native:compute:VirtualMachineScaleSet",
        "azure-native:storagecache:AmlFilesystem",
        "gcp:compute/instance:Instance",
        "gcp:compute/instanceTemplate:InstanceTemplate",
        "gcp:compute/disk:Disk",
        "gcp:filestore/instance:Instance",
        "gcp:lustre/instance:Instance",
        "gcp:tpu/v2Vm:V2Vm",
    }
)
ALI_INSTANCE, ALI_NAS = "alicloud:ecs/instance:Instance", "alicloud:nas/fileSystem:FileSystem"
# An ESS scaling configuration: the system and data disks of every node its group creates.
ALI_NODE_TYPES = (ALI_INSTANCE, "alicloud:ess/scalingConfiguration:ScalingConfiguration")
TENCENT_INSTANCE = "tencentcloud:Instance/instance:Instance"
# Disk types with an encryption flag that needs no customer key: type -> input name.
DISK_FLAGS = {
    "aws:ebs/volume:Volume": "encrypted",
    "aws:efs/fileSystem:FileSystem": "encrypted",
    "alicloud:ecs/ecsDisk:EcsDisk": "encrypted",
    "alicloud:ecs/disk:Disk": "encrypted",
    "tencentcloud:Cbs/storage:Storage": "encrypt",
}
NAS_MANAGED_KEY_TYPES = ("standard", "extreme")  # pulumi-alicloud 4.0.0 `nas.FileSystem.encrypt_type`
# Huawei encrypts only with a KMS key id: type -> (key input, what), pulumi_huaweicloud 0.0.12.
HUAWEI_KEYS = {
    "huaweicloud:Ecs/instance:Instance": ("systemDiskKmsKeyId", "disks"),
    "huaweicloud:Sfs/turbo:Turbo": ("cryptKeyId", "SFS Turbo file system"),
    "huaweicloud:Evs/volume:Volume": ("kmsId", "EVS volume"),
}
HUAWEI_GAP = (
    "{what} not encrypted: Huawei encrypts only with a KMS key id ({key}), and none is set; "
    "set kms_key_id in the stack's trainstack:cluster"
)
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
        return (
            []
            if all(_true(e.get("encrypted")) for e in ebs)
            else ["EBS volume not encrypted; set blockDeviceMappings[].ebs.encrypted: true"]
        )
    if kind == INSTANCE:
        root = inputs.get("rootBlockDevice")
        volumes = [root] if isinstance(root, dict) else []
        volumes += [v for v in inputs.get("ebsBlockDevices") or [] if isinstance(v, dict)]
        if not volumes and not inputs.get("launchTemplate"):
            return ["root volume encryption not set; set rootBlockDevice.encrypted: true"]
        return (
            []
            if all(_true(v.get("encrypted")) for v in volumes)
            else ["EBS volume not encrypted; set rootBlockDevice/ebsBlockDevices encrypted: true"]
        )
    if kind in ALI_NODE_TYPES:
        system = (
            []
            if _true(inputs.get("systemDiskEncrypted"))
            else ["system disk not encrypted; set systemDiskEncrypted: true (ECS service key, no key id needed)"]
        )
        return system + _data_disks(inputs, "encrypted")
    if kind == TENCENT_INSTANCE:
        return _data_disks(inputs, "encrypt")
    if kind == ALI_NAS and _nas_type(inputs) in NAS_MANAGED_KEY_TYPES:
        return (
            []
            if str(inputs.get("encryptType")) in ("1", "2", UNKNOWN)
            else ["NAS file system not encrypted; set encryptType: 1 (NAS-managed key)"]
        )
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
    return kind in DISK_FLAGS or kind in PLATFORM_ENCRYPTED or kind in (LAUNCH_TEMPLATE, INSTANCE, *ALI_NODE_TYPES)


def encryption_gaps(record: dict[str, Any]) -> list[str]:
    """Disks and file systems of `record` left unencrypted because no input can encrypt them
    without a customer KMS key, if at all; one line each, saying why."""
    kind, inputs = record["type"], record["inputs"]
    if kind in NO_ENCRYPTION_INPUT:
        return [NO_ENCRYPTION_INPUT[kind]]
    if kind == TENCENT_INSTANCE:
        return [
            "system disk not encrypted: tencentcloud-iac-pulumi 0.2.3 `Instance` has no system-disk encryption input"
        ]
    if kind == ALI_NAS and _nas_type(inputs) not in NAS_MANAGED_KEY_TYPES:
        return [
            f"{_nas_type(inputs)} file system not encrypted: pulumi-alicloud 4.0.0 `encrypt_type` takes a "
            "managed key only for standard and extreme NAS"
        ]
    if kind in HUAWEI_KEYS:
        key, what = HUAWEI_KEYS[kind]
        keys = [inputs.get(key)] + [d.get("kmsKeyId") for d in inputs.get("dataDisks") or [] if isinstance(d, dict)]
        return [] if all(keys) else [HUAWEI_GAP.format(what=what, key=key)]
    return []


def _data_disks(inputs: dict[str, Any], flag: str) -> list[str]:
    disks = [d for d in inputs.get("dataDisks") or [] if isinstance(d, dict)]
    return [] if all(_true(d.get(flag)) for d in disks) else [f"data disk not encrypted; set dataDisks[].{flag}: true"]


def _nas_type(inputs: dict[str, Any]) -> str:
    return str(inputs.get("fileSystemType") or "standard")  # the SDK's default type
