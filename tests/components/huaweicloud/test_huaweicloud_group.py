"""The Huawei AS node group: its pure arguments (`components.huaweicloud.scaling`, checked
against the installed SDK) and the group the component builds under Pulumi mocks; spot
clusters and clusters with `kms_key_id` stay per-node instances."""

from __future__ import annotations

import inspect

import pulumi_huaweicloud as huaweicloud
import pytest

from clouds.healing import MANUAL_RESTART_HOURS, healing
from clouds.huaweicloud.mock import IMAGE_ID, mock_id
from components.huaweicloud.scaling import configuration_args, group_args
from policies import evaluate
from tests.components.harness import by_type, one

CONFIG = "huaweicloud:As/configuration:Configuration"
GROUP = "huaweicloud:As/group:Group"
INSTANCE = "huaweicloud:Ecs/instance:Instance"
TAGS = {"trainstack-cluster": "c", "trainstack-provider": "huaweicloud"}
CONFIG_PARAMS = set(inspect.signature(huaweicloud.as_.ConfigurationInstanceConfigArgs.__init__).parameters)
GROUP_PARAMS = set(inspect.signature(huaweicloud.as_.GroupArgs.__init__).parameters)


def test_on_demand_nodes_are_one_as_group_of_fixed_size(hw_run, hw_config):
    _, monitor, outputs = hw_run(hw_config(purchase="on-demand", nodes=4))
    records = monitor.records()
    assert by_type(records, INSTANCE) == []
    config = one(records, CONFIG)["inputs"]
    assert config == {
        "scalingConfigurationName": "c-node-config",
        "instanceConfig": {
            "flavor": "p3.16xlarge.8",
            "image": IMAGE_ID,
            "securityGroupIds": [mock_id("huaweicloud:Vpc/secgroup:Secgroup", "c-sg")],
            "keyName": "c-keypair",
            "ecsGroupId": mock_id("huaweicloud:Ecs/servergroup:Servergroup", "c-group"),
            "disks": [{"diskType": "SYS", "size": 200, "volumeType": "GPSSD"}],
        },
    }
    group = one(records, GROUP)["inputs"]
    assert group == {
        "scalingGroupName": "c-nodes",
        "scalingConfigurationId": mock_id(CONFIG, "c-node-config"),
        "minInstanceNumber": 4,
        "maxInstanceNumber": 4,
        "desireInstanceNumber": 4,
        "vpcId": mock_id("huaweicloud:Vpc/vpc:Vpc", "c-vpc"),
        "networks": [{"id": mock_id("huaweicloud:Vpc/subnet:Subnet", "c-subnet")}],
        "availabilityZones": ["cn-north-4a"],
        "healthPeriodicAuditMethod": "NOVA_AUDIT",
        "deleteInstances": "yes",
        "forceDelete": True,
        "tags": TAGS,
    }
    assert monitor.options["c-nodes"] == {
        "replaceOnChanges": ["availabilityZones", "networks"],
        "deleteBeforeReplace": True,
    }
    assert outputs["node_ids"] == [mock_id(GROUP, "c-nodes")] and outputs["node_private_ips"] == []


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        pytest.param({"purchase": "spot"}, "no spot charging mode", id="spot"),
        pytest.param({"purchase": "on-demand", "kms_key_id": "kms-1"}, "data disks only", id="kms"),
    ],
)
def test_spot_or_kms_clusters_stay_per_node_instances(hw_records, hw_config, changes, why):
    config = hw_config(**changes)
    records = hw_records(config)
    assert by_type(records, GROUP) == by_type(records, CONFIG) == []
    assert len(by_type(records, INSTANCE)) == 2
    entry = healing("huaweicloud", config.instance_type, purchase=config.purchase, kms_key_id=config.kms_key_id)
    assert (entry.replaces_nodes, entry.restart_hours) == (False, MANUAL_RESTART_HOURS)
    assert why in entry.summary and "per-node instances" in entry.summary


def test_on_demand_healing_says_the_group_replaces_but_the_job_restart_is_manual():
    entry = healing("huaweicloud", "p3.16xlarge.8", purchase="on-demand")
    assert (entry.replaces_nodes, entry.runs_job, entry.restart_hours) == (True, False, MANUAL_RESTART_HOURS)
    assert "AS group" in entry.summary and "restart it by hand (manual restart, unsourced 2 h)" in entry.summary


def test_the_group_system_disk_is_an_n_a_gap(hw_records, hw_config):
    (result,) = [r for r in evaluate(hw_records(hw_config(purchase="on-demand"))) if r.rule == "disks-encrypted"]
    assert (result.status, result.violations) == ("n/a", ())
    assert sorted(v.resource for v in result.not_applicable) == ["c-node-config", "c-sfs"]


def test_pure_arguments_fit_the_installed_sdk():
    instance = {
        "flavor_id": "f",
        "image_id": "i",
        "availability_zone": "z",
        "networks": [{"uuid": "s"}],
        "security_group_ids": ["sg"],
        "key_pair": "k",
        "scheduler_hints": [{"group": "g"}],
        "system_disk_type": "GPSSD",
        "system_disk_size": 200,
        "charging_mode": "postPaid",
        "tags": {},
    }
    assert set(configuration_args("c", instance)["instance_config"]) <= CONFIG_PARAMS
    assert set(group_args("c", 2, "z", "vpc", "s", {})) <= GROUP_PARAMS
    with pytest.raises(ValueError, match="node arguments user_data have no scaling-configuration counterpart"):
        configuration_args("c", {**instance, "user_data": "x"})
    with pytest.raises(ValueError, match="cannot be an AS group"):
        configuration_args("c", {**instance, "charging_mode": "spot"})
    with pytest.raises(ValueError, match="nodes: 301 is outside 1-300"):
        group_args("c", 301, "z", "vpc", "s", {})


@pytest.mark.parametrize(
    ("changes", "refused"),
    [
        pytest.param({"purchase": "on-demand", "nodes": 301}, True, id="group-301"),
        pytest.param({"purchase": "on-demand", "nodes": 300}, False, id="group-300"),
        pytest.param({"purchase": "spot", "nodes": 301}, False, id="per-node-spot-301"),
        pytest.param({"purchase": "on-demand", "kms_key_id": "k", "nodes": 301}, False, id="per-node-kms-301"),
    ],
)
def test_the_group_size_limit_binds_only_the_group(hw_config, changes, refused):
    from clouds.huaweicloud.validate import validate_args

    if refused:
        with pytest.raises(ValueError, match="the most a Huawei AS group holds"):
            validate_args(hw_config(**changes), "c")
    else:
        validate_args(hw_config(**changes), "c")
