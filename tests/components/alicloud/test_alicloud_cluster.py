"""`AlicloudGpuCluster` under Pulumi mocks: the resource tree, its inputs and outputs."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from clouds.alicloud.mock import ALICLOUD_IMAGE_ID, alicloud_id, mount_target_domain
from clouds.contract import OUTPUT_NAMES
from components.alicloud.cluster import TYPE_TOKEN
from tests.components.alicloud.alicloud_harness import build, make_config
from tests.components.harness import check_tree_and_tags

GROUP = "alicloud:ess/scalingGroup:ScalingGroup"
CONFIGURATION = "alicloud:ess/scalingConfiguration:ScalingConfiguration"
RULE = "alicloud:ecs/securityGroupRule:SecurityGroupRule"
NAS = "alicloud:nas/fileSystem:FileSystem"
MOUNT = "alicloud:nas/mountTarget:MountTarget"
VPC = "alicloud:vpc/network:Network"
VSWITCH = "alicloud:vpc/switch:Switch"
SG = "alicloud:ecs/securityGroup:SecurityGroup"
KEYPAIR = "alicloud:ecs/ecsKeyPair:EcsKeyPair"
SG_ID = alicloud_id("alicloud:ecs/securityGroup:SecurityGroup", "c-sg")
VSW_ID = alicloud_id("alicloud:vpc/switch:Switch", "c-vsw")
VPC_ID = alicloud_id("alicloud:vpc/network:Network", "c-vpc")
GROUP_ID = alicloud_id(GROUP, "c-nodes")
FS_ID = alicloud_id(NAS, "c-cpfs")
TAGS = {"trainstack:cluster": "c", "trainstack:provider": "alicloud"}


def configuration(plan) -> dict[str, Any]:
    (record,) = plan.of_type(CONFIGURATION)
    return record["inputs"]


def group(plan) -> dict[str, Any]:
    (record,) = plan.of_type(GROUP)
    return record["inputs"]


@pytest.mark.parametrize(
    ("purchase", "nodes", "remedy"),
    [pytest.param("on-demand", 3, False, id="on-demand"), pytest.param("spot", 24, True, id="spot")],
)
def test_nodes_are_one_scaling_group_that_keeps_its_size(purchase, nodes, remedy):
    plan = build(make_config(purchase=purchase, nodes=nodes))
    assert plan.of_type("alicloud:ecs/instance:Instance") == []
    assert group(plan) == {
        "scalingGroupName": "c-nodes",
        "minSize": nodes,
        "maxSize": nodes,
        "desiredCapacity": nodes,
        "vswitchIds": [VSW_ID],
        "healthCheckTypes": ["ECS"],
        "spotInstanceRemedy": remedy,
        "tags": TAGS,
    }
    config = configuration(plan)
    assert config["scalingGroupId"] == GROUP_ID
    assert (config["active"], config["enable"], config["forceDelete"]) == (True, True, True)


@pytest.mark.fresh_runs  # reads the run's log
@pytest.mark.parametrize(
    ("purchase", "nodes", "interconnect"),
    [("on-demand", 24, "rdma"), ("spot", 24, "rdma"), pytest.param("on-demand", 1, "none", id="one-node")],
)
def test_no_deployment_set_and_the_log_says_why(purchase, nodes, interconnect, caplog):
    with caplog.at_level(logging.WARNING):
        plan = build(make_config(purchase=purchase, nodes=nodes, interconnect=interconnect))
    assert plan.of_type("alicloud:ecs/ecsDeploymentSet:EcsDeploymentSet") == []
    assert "deploymentSetId" not in configuration(plan)
    assert plan.outputs["placement_group"] is None
    # one node has no node-to-node traffic: the missing LowLatency set is not worth a warning
    assert ("take no deployment set" in caplog.text) is (nodes > 1)
    assert ("spot instances cannot join a deployment set" in caplog.text) is (purchase == "spot")


@pytest.mark.parametrize(
    ("purchase", "expected"),
    [
        pytest.param("spot", {"spotStrategy": "SpotAsPriceGo", "spotDuration": 1}, id="spot"),
        pytest.param("on-demand", {"spotStrategy": "NoSpot", "spotDuration": None}, id="on-demand"),
    ],
)
def test_purchase_sets_spot_arguments_of_the_configuration(purchase, expected):
    config = configuration(build(make_config(purchase=purchase)))
    assert {key: config.get(key) for key in expected} == expected
    assert "instanceChargeType" not in config and "spotInterruptionBehavior" not in config


PRIMARY_ERI = {"instanceType": "Primary", "networkInterfaceTrafficMode": "HighPerformance", "securityGroupIds": [SG_ID]}


@pytest.mark.parametrize(
    ("changes", "interfaces"),
    [
        pytest.param(
            {},
            [PRIMARY_ERI, {**PRIMARY_ERI, "instanceType": "Secondary"}],
            id="ebmgn7ex-two-eris",
        ),
        pytest.param({"instance_type": "ecs.gn8is-8x.32xlarge"}, [PRIMARY_ERI], id="gn8is-one-eri"),
        pytest.param({"interconnect": "none"}, None, id="ebmgn7ex-no-rdma"),
        pytest.param({"instance_type": "ecs.gn7e-c16g1.32xlarge", "interconnect": "none"}, None, id="gn7e-plain"),
    ],
)
def test_erdma_interfaces_only_on_rdma_types(changes, interfaces):
    config = configuration(build(make_config(**changes)))
    assert config.get("networkInterfaces") == interfaces
    # With interfaces the security group goes on each interface, never beside them (ESS API).
    assert config.get("securityGroupIds") == (None if interfaces else [SG_ID])
    assert "securityGroupId" not in config


def test_configuration_image_disk_key_and_no_public_ip():
    plan = build(make_config(ssh_public_key="ssh-ed25519 AAAAmock user@host"))
    config = configuration(plan)
    assert config["imageId"] == ALICLOUD_IMAGE_ID
    assert config["instanceType"] == "ecs.ebmgn7ex.32xlarge"
    assert (config["systemDiskEncrypted"], config["systemDiskCategory"], config["systemDiskSize"]) == (
        True,
        "cloud_essd",
        256,
    )
    assert config["internetMaxBandwidthOut"] == 0
    assert config["keyName"] == "c-key"
    assert (config["instanceName"], config["scalingConfigurationName"]) == ("c-node", "c-node-config")
    assert config["tags"] == TAGS
    ((token, lookup),) = plan.calls
    assert token == "alicloud:ecs/getImages:getImages"
    assert lookup == {
        "owners": "system",
        "nameRegex": "^ubuntu_22_04_x64",
        "mostRecent": True,
        "instanceType": "ecs.ebmgn7ex.32xlarge",
        "osType": "linux",
        "architecture": "x86_64",
    }


def test_no_key_pair_no_key_name():
    plan = build(make_config())
    assert "keyName" not in configuration(plan)
    assert plan.of_type("alicloud:ecs/ecsKeyPair:EcsKeyPair") == []


def test_ssh_only_from_configured_cidrs_and_nothing_open_to_the_world():
    plan = build(make_config(ssh_cidrs=("203.0.113.0/24", "198.51.100.7/32")))
    rules = {r["name"]: r["inputs"] for r in plan.of_type(RULE)}
    assert set(rules) == {"c-sg-vpc", "c-sg-ssh-0", "c-sg-ssh-1"}
    assert [
        (rules[n]["cidrIp"], rules[n]["portRange"], rules[n]["ipProtocol"]) for n in ("c-sg-ssh-0", "c-sg-ssh-1")
    ] == [("203.0.113.0/24", "22/22", "tcp"), ("198.51.100.7/32", "22/22", "tcp")]
    assert rules["c-sg-vpc"]["cidrIp"] == "10.0.0.0/16"
    assert all(rule["type"] == "ingress" and rule["cidrIp"] != "0.0.0.0/0" for rule in rules.values())
    group = plan.named("c-sg")["inputs"]
    assert (group["vpcId"], group["innerAccessPolicy"]) == (VPC_ID, "Accept")


def test_no_ssh_rule_by_default():
    assert [r["name"] for r in build(make_config()).of_type(RULE)] == ["c-sg-vpc"]


def test_cpfs_is_protected_sized_by_throughput_with_a_mount_target():
    plan = build(make_config(file_system={"capacity_gib": 3600, "throughput_mbps_per_tib": 100}))
    fs = plan.named("c-cpfs")
    assert (fs["type"], fs["protect"]) == (NAS, True)
    assert fs["inputs"] == {
        "capacity": 3600,
        "description": "c shared training data",
        "fileSystemType": "cpfs",
        "protocolType": "cpfs",
        "storageType": "advance_100",
        "tags": TAGS,
        "vpcId": VPC_ID,
        "vswitchId": VSW_ID,
        "zoneId": "cn-beijing-h",
    }
    mount = plan.named("c-cpfs-mount")["inputs"]
    assert (mount["fileSystemId"], mount["vswitchId"], mount["networkType"]) == (FS_ID, VSW_ID, "Vpc")
    assert [r["name"] for r in plan.records if r["protect"]] == ["c-cpfs"]


def test_tags_parenting_and_no_providers():
    plan = build(make_config(tags={"team": "ml"}, ssh_cidrs=("203.0.113.0/24",), ssh_public_key="ssh-ed25519 AAAAmock"))
    untaggable = {RULE, MOUNT}
    types = check_tree_and_tags(plan.records, TYPE_TOKEN, untaggable, {**TAGS, "team": "ml"})
    assert types == untaggable | {VPC, VSWITCH, SG, KEYPAIR, GROUP, CONFIGURATION, NAS}


def test_outputs_have_real_values_and_are_registered():
    plan = build(make_config())
    expected = {
        "node_ids": [GROUP_ID],
        "node_private_ips": [],
        "placement_group": None,
        "file_system_dns": mount_target_domain(FS_ID),
        "file_system_mount_name": FS_ID,
        "usd_per_hour": 80.0,
        "file_system_mount_command": None,  # CPFS needs its own client: the nodes do not mount it
    }
    assert plan.outputs == expected
    # A None output is registered as unset, so the monitor sees every other name.
    assert plan.registered_outputs == {key: value for key, value in expected.items() if value is not None}
    assert sorted(expected) == sorted(OUTPUT_NAMES)


def test_without_file_system_outputs_are_none():
    plan = build(make_config(file_system=None))
    assert plan.of_type(NAS) == plan.of_type(MOUNT) == []
    assert (plan.outputs["file_system_dns"], plan.outputs["file_system_mount_name"]) == (None, None)
