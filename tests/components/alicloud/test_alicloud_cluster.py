"""`AlicloudGpuCluster` under Pulumi mocks: the resource tree, its inputs and outputs."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from clouds.alicloud.mock import ALICLOUD_IMAGE_ID, alicloud_id, mount_target_domain
from clouds.contract import OUTPUT_NAMES
from components.alicloud.cluster import TYPE_TOKEN
from tests.components.alicloud.alicloud_harness import build, make_config

INSTANCE = "alicloud:ecs/instance:Instance"
DEPLOYMENT_SET = "alicloud:ecs/ecsDeploymentSet:EcsDeploymentSet"
RULE = "alicloud:ecs/securityGroupRule:SecurityGroupRule"
NAS = "alicloud:nas/fileSystem:FileSystem"
MOUNT = "alicloud:nas/mountTarget:MountTarget"
DS_ID = alicloud_id(DEPLOYMENT_SET, "c-ds")
SG_ID = alicloud_id("alicloud:ecs/securityGroup:SecurityGroup", "c-sg")
VSW_ID = alicloud_id("alicloud:vpc/switch:Switch", "c-vsw")
VPC_ID = alicloud_id("alicloud:vpc/network:Network", "c-vpc")
FS_ID = alicloud_id(NAS, "c-cpfs")
TAGS = {"trainstack:cluster": "c", "trainstack:provider": "alicloud"}


def nodes(plan) -> list[dict[str, Any]]:
    return [record["inputs"] for record in plan.of_type(INSTANCE)]


def test_on_demand_nodes_join_one_low_latency_deployment_set():
    plan = build(make_config(nodes=3))
    (ds,) = plan.of_type(DEPLOYMENT_SET)
    assert ds["inputs"]["strategy"] == "LowLatency"
    assert ds["parent"] == "c"
    assert [node["deploymentSetId"] for node in nodes(plan)] == [DS_ID] * 3
    assert plan.outputs["placement_group"] == DS_ID


def test_spot_nodes_join_no_deployment_set_and_say_so(caplog):
    with caplog.at_level(logging.WARNING):
        plan = build(make_config(purchase="spot", nodes=24))
    assert plan.of_type(DEPLOYMENT_SET) == []
    assert len(nodes(plan)) == 24  # no LowLatency 20-instance limit without a set
    assert all("deploymentSetId" not in node for node in nodes(plan))
    assert plan.outputs["placement_group"] is None
    assert "spot instances cannot join a deployment set" in caplog.text


@pytest.mark.parametrize(
    ("purchase", "expected"),
    [
        pytest.param(
            "spot",
            {
                "instanceChargeType": "PostPaid",
                "spotStrategy": "SpotAsPriceGo",
                "spotDuration": 1,
                "spotInterruptionBehavior": "Terminate",
                "spotPriceLimit": None,
            },
            id="spot",
        ),
        pytest.param(
            "on-demand",
            {
                "instanceChargeType": "PostPaid",
                "spotStrategy": "NoSpot",
                "spotDuration": None,
                "spotInterruptionBehavior": None,
                "spotPriceLimit": None,
            },
            id="on-demand",
        ),
    ],
)
def test_purchase_sets_spot_arguments(purchase, expected):
    for node in nodes(build(make_config(purchase=purchase))):
        assert {key: node.get(key) for key in expected} == expected


@pytest.mark.parametrize(
    ("changes", "primary", "secondary"),
    [
        pytest.param(
            {},
            {"networkInterfaceTrafficMode": "HighPerformance", "networkCardIndex": 0},
            {
                "networkCardIndex": 1,
                "networkInterfaceTrafficMode": "HighPerformance",
                "securityGroupIds": [SG_ID],
                "vswitchId": VSW_ID,
            },
            id="ebmgn7ex-two-eris",
        ),
        pytest.param(
            {"instance_type": "ecs.gn8is-8x.32xlarge"},
            {"networkInterfaceTrafficMode": "HighPerformance", "networkCardIndex": 0},
            None,
            id="gn8is-one-eri",
        ),
        pytest.param({"interconnect": "none"}, {}, None, id="ebmgn7ex-no-rdma"),
        pytest.param({"instance_type": "ecs.gn7e-c16g1.32xlarge", "interconnect": "none"}, {}, None, id="gn7e-plain"),
    ],
)
def test_erdma_interfaces_only_on_rdma_types(changes, primary, secondary):
    keys = ("networkInterfaceTrafficMode", "networkCardIndex")
    for node in nodes(build(make_config(**changes))):
        assert {key: node[key] for key in keys if key in node} == primary
        assert node.get("networkInterfaces") == secondary


def test_node_image_disk_network_and_no_public_ip():
    plan = build(make_config(ssh_public_key="ssh-ed25519 AAAAmock user@host"))
    node = plan.named("c-node-1")["inputs"]
    assert node["imageId"] == ALICLOUD_IMAGE_ID
    assert (node["systemDiskEncrypted"], node["systemDiskCategory"], node["systemDiskSize"]) == (
        True,
        "cloud_essd",
        256,
    )
    assert (node["vswitchId"], node["securityGroups"], node["availabilityZone"]) == (VSW_ID, [SG_ID], "cn-beijing-h")
    assert node["internetMaxBandwidthOut"] == 0
    assert node["keyName"] == "c-key"
    assert (node["instanceName"], node["hostName"]) == ("c-node-1", "c-1")
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
    component = plan.named("c")
    assert (component["type"], component["parent"]) == (TYPE_TOKEN, None)
    children = [r for r in plan.records if r is not component]
    assert {r["parent"] for r in children} == {"c"}
    assert not [r for r in plan.records if r["type"].startswith("pulumi:providers:")]
    untaggable = {DEPLOYMENT_SET, RULE, MOUNT}
    for record in children:
        if record["type"] not in untaggable:
            assert record["inputs"]["tags"] == {**TAGS, "team": "ml"}, record["name"]
    for node in nodes(plan):
        assert node["volumeTags"] == {**TAGS, "team": "ml"}
    assert {r["type"] for r in children} == untaggable | {
        "alicloud:vpc/network:Network",
        "alicloud:vpc/switch:Switch",
        "alicloud:ecs/securityGroup:SecurityGroup",
        "alicloud:ecs/ecsKeyPair:EcsKeyPair",
        INSTANCE,
        NAS,
    }


def test_outputs_have_real_values_and_are_registered():
    plan = build(make_config())
    expected = {
        "node_ids": [alicloud_id(INSTANCE, "c-node-0"), alicloud_id(INSTANCE, "c-node-1")],
        "node_private_ips": ["10.0.0.10", "10.0.0.11"],
        "placement_group": DS_ID,
        "file_system_dns": mount_target_domain(FS_ID),
        "file_system_mount_name": FS_ID,
        "usd_per_hour": 80.0,
    }
    assert plan.outputs == expected
    assert plan.registered_outputs == expected
    assert sorted(plan.registered_outputs) == sorted(OUTPUT_NAMES)


def test_without_file_system_outputs_are_none():
    plan = build(make_config(file_system=None))
    assert plan.of_type(NAS) == plan.of_type(MOUNT) == []
    assert (plan.outputs["file_system_dns"], plan.outputs["file_system_mount_name"]) == (None, None)
