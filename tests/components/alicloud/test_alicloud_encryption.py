"""Encryption at rest of the Alibaba cluster: the encrypted system disk, and the CPFS gap."""

from __future__ import annotations

import inspect

import pulumi_alicloud as alicloud

from policies import evaluate
from tests.components.alicloud.alicloud_harness import build, make_config

CONFIGURATION = "alicloud:ess/scalingConfiguration:ScalingConfiguration"
NAS = "alicloud:nas/fileSystem:FileSystem"


def test_every_system_disk_is_encrypted_with_the_service_key():
    plan = build(make_config(nodes=3))
    disks = [r["inputs"] for r in plan.of_type(CONFIGURATION)]  # every node is made from it
    assert [(d["systemDiskEncrypted"], d["systemDiskCategory"]) for d in disks] == [(True, "cloud_essd")]
    # No key given: ECS uses its service key alias/acs/ecs; no data disks to encrypt.
    assert not any({"systemDiskKmsKeyId", "dataDisks"} & set(d) for d in disks)


def test_cpfs_is_created_without_encrypt_type_and_the_rule_says_so():
    plan = build(make_config())
    (cpfs,) = plan.of_type(NAS)
    assert cpfs["inputs"]["fileSystemType"] == "cpfs" and "encryptType" not in cpfs["inputs"]
    (result,) = [r for r in evaluate(plan.records) if r.rule == "disks-encrypted"]
    assert result.status == "passed"  # the system disks are checked and encrypted
    assert [(v.resource, v.message.split(":")[0]) for v in result.not_applicable] == [
        ("c-cpfs", "cpfs file system not encrypted")
    ]


def test_sdk_offers_encrypt_type_managed_keys_only_for_standard_and_extreme():
    doc = inspect.getdoc(alicloud.nas.FileSystemArgs.__init__)
    assert "NAS managed keys are supported when FileSystemType = standard or extreme" in doc
