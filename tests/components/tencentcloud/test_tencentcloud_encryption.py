"""Encryption at rest of the Tencent cluster: encrypted data disks, and the gaps the SDK
leaves (system disk, CFS Turbo)."""

from __future__ import annotations

import inspect

import tencentcloud_iac_pulumi as tencentcloud

from policies import evaluate
from tests.components.tencentcloud.tencentcloud_harness import build, make_config

INSTANCE = "tencentcloud:Instance/instance:Instance"


def test_every_data_disk_is_encrypted_with_the_default_key():
    plan = build(make_config(nodes=3))
    disks = [d for r in plan.of_type(INSTANCE) for d in r["inputs"]["dataDisks"]]
    assert len(disks) == 3 and all(d["encrypt"] is True and "kmsKeyId" not in d for d in disks)


def test_system_disk_and_cfs_turbo_have_no_encryption_input():
    for cls in (tencentcloud.instance.InstanceArgs, tencentcloud.cfs.FileSystemArgs):
        parameters = inspect.signature(cls.__init__).parameters
        assert not [p for p in parameters if "encrypt" in p or "kms" in p], cls
    assert {"encrypt", "kms_key_id"} <= set(inspect.signature(tencentcloud.instance.InstanceDataDiskArgs).parameters)


def test_the_rule_passes_the_data_disks_and_lists_the_gaps():
    plan = build(make_config())
    (result,) = [r for r in evaluate(plan.records) if r.rule == "disks-encrypted"]
    assert result.status == "passed" and result.violations == ()
    assert sorted((v.resource, v.message.split(":")[0]) for v in result.not_applicable) == [
        ("c-cfs", "CFS file system not encrypted"),
        ("c-node-0", "system disk not encrypted"),
        ("c-node-1", "system disk not encrypted"),
    ]
