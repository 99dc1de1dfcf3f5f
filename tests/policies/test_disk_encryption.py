"""`disks-encrypted` on the Chinese clouds' resource types: encrypted passes, unencrypted
fails where an input can encrypt without a customer key, and data no input can encrypt is
reported as n/a (never as passed, never as a violation)."""

import pytest

from policies import evaluate
from policies.rules import disks_encrypted, encryption_gaps
from tests.cases import cases

ALI_INSTANCE = "alicloud:ecs/instance:Instance"
ALI_NAS = "alicloud:nas/fileSystem:FileSystem"
TENCENT_INSTANCE = "tencentcloud:Instance/instance:Instance"
HUAWEI_INSTANCE = "huaweicloud:Ecs/instance:Instance"
HUAWEI_TURBO = "huaweicloud:Sfs/turbo:Turbo"
TENCENT_DISK = {"dataDiskType": "CLOUD_SSD", "dataDiskSize": 500}


def record(kind, name="r", **inputs):
    return {"type": kind, "name": name, "parent": "c", "protect": False, "inputs": inputs}


def disks(records):
    (result,) = [r for r in evaluate(records) if r.rule == "disks-encrypted"]
    return result


@pytest.mark.parametrize(
    ("kind", "encrypted", "unencrypted", "fix"),
    cases("disk_encryption.yaml", "kind", "encrypted", "unencrypted", "fix"),
)
def test_encrypted_passes_and_unencrypted_fails(kind, encrypted, unencrypted, fix):
    good, bad = record(kind, **encrypted), record(kind, **unencrypted)
    assert disks_encrypted(good) == []
    (message,) = disks_encrypted(bad)
    assert fix in message
    assert disks([good]).status == "passed"
    failed = disks([bad])
    assert failed.status == "failed" and not failed.passed and failed.violations[0].message == message


def test_unknown_values_in_a_preview_never_fail():
    assert disks_encrypted(record(ALI_INSTANCE, systemDiskEncrypted="<unknown>")) == []
    assert disks_encrypted(record(ALI_NAS, encryptType="<unknown>")) == []


@pytest.mark.parametrize(
    ("rec", "reason"),
    [
        pytest.param(
            record(ALI_NAS, fileSystemType="cpfs", protocolType="cpfs"),
            "cpfs file system not encrypted",
            id="alicloud-cpfs",
        ),
        pytest.param(
            record("tencentcloud:Cfs/fileSystem:FileSystem", protocol="TURBO"),
            "CFS file system not encrypted",
            id="tencent-cfs",
        ),
        pytest.param(record(HUAWEI_INSTANCE, systemDiskType="GPSSD"), "disks not encrypted", id="huawei-no-key"),
        pytest.param(
            record(HUAWEI_TURBO, shareType="HPC"), "SFS Turbo file system not encrypted", id="huawei-turbo-no-key"
        ),
        pytest.param(
            record("huaweicloud:Evs/volume:Volume", size=100), "EVS volume not encrypted", id="huawei-evs-no-key"
        ),
        pytest.param(
            record("volcengine:ecs/instance:Instance", systemVolumeType="ESSD_PL0"),
            "system volume not encrypted",
            id="volcengine-instance",
        ),
        pytest.param(record("volcengine:vepfs/fileSystem:FileSystem"), "vePFS file system not encrypted", id="vepfs"),
        pytest.param(
            record("pulumi-python:dynamic/baiducloud:BccInstance", spec="bcc.x"),
            "root disk not encrypted",
            id="baidu-bcc",
        ),
    ],
)
def test_data_no_input_can_encrypt_is_na_not_a_violation(rec, reason):
    assert disks_encrypted(rec) == []
    (gap,) = encryption_gaps(rec)
    assert gap.startswith(reason)
    result = disks([rec])
    assert (result.status, result.passed, result.violations) == ("n/a", True, ())
    assert [(v.resource, v.message) for v in result.not_applicable] == [("r", gap)]


@pytest.mark.parametrize(
    "rec",
    [
        pytest.param(record(HUAWEI_INSTANCE, systemDiskKmsKeyId="key-1"), id="huawei-instance"),
        pytest.param(
            record(HUAWEI_INSTANCE, systemDiskKmsKeyId="key-1", dataDisks=[{"size": 100, "kmsKeyId": "key-1"}]),
            id="huawei-instance-data-disk",
        ),
        pytest.param(record(HUAWEI_TURBO, cryptKeyId="key-1"), id="huawei-turbo"),
        pytest.param(record("huaweicloud:Evs/volume:Volume", kmsId="<unknown>"), id="huawei-evs-key-in-preview"),
    ],
)
def test_huawei_with_a_key_id_passes(rec):
    result = disks([rec])
    assert (result.status, result.not_applicable) == ("passed", ())


def test_huawei_data_disk_without_a_key_is_a_gap_even_when_the_system_disk_has_one():
    rec = record(HUAWEI_INSTANCE, systemDiskKmsKeyId="key-1", dataDisks=[{"size": 100}])
    result = disks([rec])
    assert result.status == "passed" and len(result.not_applicable) == 1


def test_tencent_system_disk_is_a_gap_beside_checked_data_disks():
    rec = record(TENCENT_INSTANCE, dataDisks=[{**TENCENT_DISK, "encrypt": True}])
    result = disks([rec, record("tencentcloud:Cfs/fileSystem:FileSystem", name="fs")])
    assert result.status == "passed"
    assert [v.resource for v in result.not_applicable] == ["r", "fs"]
    assert disks([record(TENCENT_INSTANCE)]).status == "n/a"  # no data disk: nothing checked


def test_a_violation_fails_the_rule_even_beside_gaps():
    result = disks([record(ALI_INSTANCE, name="node"), record(ALI_NAS, name="cpfs", fileSystemType="cpfs")])
    assert result.status == "failed"
    assert [v.resource for v in result.violations] == ["node"]
    assert [v.resource for v in result.not_applicable] == ["cpfs"]


@pytest.mark.parametrize(
    "kind",
    [
        "aws:fsx/lustreFileSystem:LustreFileSystem",
        "azure-native:compute:VirtualMachineScaleSet",
        "azure-native:storagecache:AmlFilesystem",
        "gcp:compute/instance:Instance",
        "gcp:filestore/instance:Instance",
        "gcp:tpu/v2Vm:V2Vm",
    ],
)
def test_platform_encrypted_types_pass(kind):
    result = disks([record(kind)])
    assert (result.status, result.not_applicable) == ("passed", ())
