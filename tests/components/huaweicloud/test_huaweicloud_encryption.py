"""Encryption at rest of the Huawei cluster: only with a KMS key id (`kms_key_id`)."""

from __future__ import annotations

import inspect

import pulumi_huaweicloud as huaweicloud
import pytest

from components.huaweicloud import compute
from policies import evaluate

INSTANCE = "huaweicloud:Ecs/instance:Instance"
TURBO = "huaweicloud:Sfs/turbo:Turbo"
KEY_ID = "0d0466b0-0000-4000-8000-00000000cafe"


def disks_result(records):
    (result,) = [r for r in evaluate(records) if r.rule == "disks-encrypted"]
    return result


def test_the_module_constant_is_gone():
    assert not hasattr(compute, "DISK_KMS_KEY_ID")


def test_without_a_key_nothing_is_encrypted_and_the_rule_is_na(hw_records, hw_config):
    config = hw_config()
    assert config.kms_key_id is None
    records = hw_records(config)
    assert not any("systemDiskKmsKeyId" in r["inputs"] for r in records if r["type"] == INSTANCE)
    assert not any("cryptKeyId" in r["inputs"] for r in records if r["type"] == TURBO)
    result = disks_result(records)
    assert (result.status, result.passed) == ("n/a", True)
    assert sorted(v.resource for v in result.not_applicable) == ["c-node-0", "c-node-1", "c-sfs"]
    assert all("set kms_key_id in the stack's trainstack:cluster" in v.message for v in result.not_applicable)


def test_kms_key_id_encrypts_system_disks_and_sfs_turbo(hw_records, hw_config):
    records = hw_records(hw_config(kms_key_id=KEY_ID))
    nodes = [r["inputs"] for r in records if r["type"] == INSTANCE]
    assert [n["systemDiskKmsKeyId"] for n in nodes] == [KEY_ID, KEY_ID]
    (turbo,) = [r["inputs"] for r in records if r["type"] == TURBO]
    assert turbo["cryptKeyId"] == KEY_ID
    result = disks_result(records)
    assert (result.status, result.passed, result.not_applicable) == ("passed", True, ())


def test_kms_key_id_without_a_file_system_encrypts_the_nodes(hw_records, hw_config):
    records = hw_records(hw_config(kms_key_id=KEY_ID, file_system=None))
    assert [r["inputs"]["systemDiskKmsKeyId"] for r in records if r["type"] == INSTANCE] == [KEY_ID, KEY_ID]
    assert [r for r in records if r["type"] == TURBO] == []
    assert disks_result(records).status == "passed"


@pytest.mark.parametrize(
    ("args", "only_input"),
    [
        pytest.param(huaweicloud.ecs.InstanceArgs, "system_disk_kms_key_id", id="ecs-instance"),
        pytest.param(huaweicloud.sfs.TurboArgs, "crypt_key_id", id="sfs-turbo"),
    ],
)
def test_sdk_encrypts_only_with_a_key_id(args, only_input):
    parameters = inspect.signature(args.__init__).parameters
    assert [p for p in parameters if "crypt" in p or "kms" in p] == [only_input]
