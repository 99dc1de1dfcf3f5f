"""The Volcengine node group's pure arguments (`components.volcengine.scaling`), checked
against the installed pulumi_volcengine SDK."""

from __future__ import annotations

import inspect

import pulumi_volcengine as volcengine
import pytest

from clouds.healing import MANUAL_RESTART_HOURS, healing
from components.volcengine.scaling import configuration_args, group_args

CONFIG_PARAMS = set(inspect.signature(volcengine.autoscaling.ScalingConfigurationArgs.__init__).parameters)
GROUP_PARAMS = set(inspect.signature(volcengine.autoscaling.ScalingGroupArgs.__init__).parameters)
PLACEMENT = {"security_group_id": "sg-1", "key_pair_name": "kp", "image_id": "img-1"}


@pytest.mark.parametrize(
    ("changes", "hpc"),
    [
        pytest.param({}, "hpc-1", id="hpc-spot"),
        pytest.param(
            {"instance_type": "ecs.pni2.28xlarge", "interconnect": "none", "purchase": "on-demand"}, None, id="plain"
        ),
    ],
)
def test_configuration_from_the_node_arguments(vc_config, changes, hpc):
    placement = {**PLACEMENT, **({"hpc_cluster_id": hpc} if hpc else {})}
    config = vc_config(**changes)
    args = configuration_args("c", config, placement, [{"key": "k", "value": "v"}])
    assert set(args) <= CONFIG_PARAMS
    assert args == {
        "scaling_configuration_name": "c-node-config",
        "instance_name": "c-node",
        "instance_types": [config.instance_type],
        "image_id": "img-1",
        "security_group_ids": ["sg-1"],
        "key_pair_name": "kp",
        "volumes": [{"volume_type": "ESSD_PL0", "size": 200, "delete_with_instance": True}],
        "spot_strategy": "SpotAsPriceGo" if config.purchase == "spot" else "NoSpot",
        "tags": [{"key": "k", "value": "v"}],
        **({"hpc_cluster_id": hpc} if hpc else {}),
    }


def test_no_deployment_set_or_health_check_input_exists():
    assert not {"deployment_set_id", "health_check_type", "spot_instance_remedy"} & (CONFIG_PARAMS | GROUP_PARAMS)


def test_group_keeps_its_size():
    args = group_args("c", 7, "subnet-1", [])
    assert set(args) <= GROUP_PARAMS
    assert (args["min_instance_number"], args["max_instance_number"], args["desire_instance_number"]) == (7, 7, 7)
    assert args["subnet_ids"] == ["subnet-1"]
    with pytest.raises(ValueError, match="nodes: 101 is outside 1-100"):
        group_args("c", 101, "subnet-1", [])


def test_healing_says_the_group_replaces_but_the_job_restart_is_manual():
    entry = healing("volcengine", "ecs.hpcpni2.28xlarge")
    assert (entry.replaces_nodes, entry.runs_job, entry.restart_hours) == (True, False, MANUAL_RESTART_HOURS)
    assert "Auto Scaling group" in entry.summary and "unverified" in entry.summary
    assert "restart it by hand (manual restart, unsourced 2 h)" in entry.summary
