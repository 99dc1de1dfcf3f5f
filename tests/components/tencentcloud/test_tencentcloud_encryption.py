"""Encryption at rest of the Tencent cluster: encrypted data disks on per-node (HCC)
instances, no unencrypted disk on the Auto Scaling group's nodes, and the gaps the SDK leaves
(system disk, CFS Turbo)."""

from __future__ import annotations

import inspect

import tencentcloud_iac_pulumi as tencentcloud

from policies import evaluate
from tests.components.tencentcloud.tencentcloud_harness import HCC_TYPE, build, make_config

INSTANCE = "tencentcloud:Instance/instance:Instance"
HCC = {"instance_type": HCC_TYPE, "interconnect": "rdma"}


def test_every_data_disk_is_encrypted_with_the_default_key():
    plan = build(make_config(nodes=3, **HCC))
    disks = [d for r in plan.of_type(INSTANCE) for d in r["inputs"]["dataDisks"]]
    assert len(disks) == 3 and all(d["encrypt"] is True and "kmsKeyId" not in d for d in disks)


def test_system_disk_and_cfs_turbo_have_no_encryption_input():
    for cls in (tencentcloud.instance.InstanceArgs, tencentcloud.cfs.FileSystemArgs):
        parameters = inspect.signature(cls.__init__).parameters
        assert not [p for p in parameters if "encrypt" in p or "kms" in p], cls
    assert {"encrypt", "kms_key_id"} <= set(inspect.signature(tencentcloud.instance.InstanceDataDiskArgs).parameters)


def test_the_group_launch_configuration_has_no_data_disk_since_none_could_be_encrypted():
    assert "encrypt" not in inspect.signature(tencentcloud.as_.ScalingConfigDataDiskArgs).parameters
    (config,) = build(make_config()).of_type("tencentcloud:As/scalingConfig:ScalingConfig")
    assert "dataDisks" not in config["inputs"]


def test_the_group_system_disk_is_an_n_a_gap_not_a_pass():
    plan = build(make_config())
    (result,) = [r for r in evaluate(plan.records) if r.rule == "disks-encrypted"]
    assert result.status == "n/a" and result.violations == ()
    assert sorted((v.resource, v.message.split(":")[0]) for v in result.not_applicable) == [
        ("c-cfs", "CFS file system not encrypted"),
        ("c-node-config", "system disk not encrypted"),
    ]


def test_the_rule_passes_the_data_disks_and_lists_the_gaps():
    plan = build(make_config(**HCC))
    (result,) = [r for r in evaluate(plan.records) if r.rule == "disks-encrypted"]
    assert result.status == "passed" and result.violations == ()
    assert sorted((v.resource, v.message.split(":")[0]) for v in result.not_applicable) == [
        ("c-cfs", "CFS file system not encrypted"),
        ("c-node-0", "system disk not encrypted"),
        ("c-node-1", "system disk not encrypted"),
    ]
