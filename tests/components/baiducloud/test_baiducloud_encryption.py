"""Encryption at rest of the Baidu cluster: BCC takes no root-disk encryption, so the root
disks stay unencrypted and the `disks-encrypted` rule reports n/a instead of passing."""

from __future__ import annotations

import inspect

from baidubce.services.bcc import bcc_model
from baidubce.services.bcc.bcc_client import BccClient

from policies import evaluate


def sdk_parameters(function: str) -> list[str]:
    """Parameter names of a `BccClient` method; its `@required` decorator hides them from
    `inspect.signature`, so they are read from the wrapped function in its closure."""
    wrapper = getattr(BccClient, function)
    (wrapped,) = [c.cell_contents for c in wrapper.__closure__ or () if inspect.isfunction(c.cell_contents)]
    return list(inspect.signature(wrapped).parameters)


def test_create_instance_by_spec_has_no_root_disk_encryption():
    parameters = sdk_parameters("create_instance_by_spec")
    assert "create_cds_list" in parameters  # the source was read
    assert not [p for p in parameters if "encrypt" in p or "kms" in p]
    assert [p for p in parameters if p.startswith("root_disk")] == ["root_disk_size_in_gb", "root_disk_storage_type"]
    # Data disks (not created here) take a user KMS key, not a flag.
    assert "encryptKey" in inspect.signature(bcc_model.CreateCdsModel).parameters


def test_the_rule_lists_every_node_as_na(baidu_run, baidu_config):
    monitor, _ = baidu_run(baidu_config())
    records = monitor.records()
    (result,) = [r for r in evaluate(records) if r.rule == "disks-encrypted"]
    assert (result.status, result.passed) == ("n/a", True)
    nodes = sorted(r["name"] for r in records if r["type"] == "pulumi-python:dynamic/baiducloud:BccInstance")
    assert sorted(v.resource for v in result.not_applicable) == nodes
    assert all(v.message.startswith("root disk not encrypted") for v in result.not_applicable)
