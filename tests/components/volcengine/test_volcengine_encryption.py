"""Encryption at rest of the Volcengine cluster: no SDK input exists, so nothing is encrypted
and the `disks-encrypted` rule reports n/a instead of passing."""

from __future__ import annotations

import inspect

import pulumi_volcengine as volcengine
import pulumi_volcenginecc as volcenginecc
import pytest

from policies import evaluate


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(volcengine.ecs.InstanceArgs, id="ecs-instance"),
        pytest.param(volcengine.ecs.InstanceDataVolumeArgs, id="ecs-data-volume"),
        pytest.param(volcengine.vepfs.FileSystemArgs, id="vepfs"),
        pytest.param(volcengine.autoscaling.ScalingConfigurationArgs, id="scaling-configuration"),
        pytest.param(volcengine.autoscaling.ScalingConfigurationVolumeArgs, id="scaling-volume"),
        pytest.param(volcenginecc.ecs.InstanceArgs, id="cc-instance"),
        pytest.param(volcenginecc.ecs.InstanceSystemVolumeArgs, id="cc-system-volume"),
        pytest.param(volcenginecc.ecs.InstanceDataVolumeArgs, id="cc-data-volume"),
    ],
)
def test_sdks_have_no_encryption_input(args):
    parameters = inspect.signature(args.__init__).parameters
    assert not [p for p in parameters if "encrypt" in p or "kms" in p]


def test_the_rule_lists_the_node_configuration_and_the_vepfs_as_na(vc_records, vc_config):
    records = vc_records(vc_config())
    (result,) = [r for r in evaluate(records) if r.rule == "disks-encrypted"]
    assert (result.status, result.passed) == ("n/a", True)
    assert sorted(v.resource for v in result.not_applicable) == ["c-node-config", "c-vepfs"]
