"""`HuaweicloudGpuCluster` under Pulumi mocks: the resource tree, its inputs and outputs."""

from __future__ import annotations

from typing import Any

import pytest

from clouds.contract import OUTPUT_NAMES
from clouds.huaweicloud.mock import (
    EXISTING_SUBNET_ID,
    EXISTING_VPC_ID,
    IMAGE_ID,
    SFS_TURBO_HOST,
    mock_id,
)
from components.huaweicloud.cluster import TYPE_TOKEN
from tests.components.harness import by_type, check_tree_and_tags, one

INSTANCE = "huaweicloud:Ecs/instance:Instance"
SERVER_GROUP = "huaweicloud:Ecs/servergroup:Servergroup"
KEYPAIR = "huaweicloud:Ecs/keypair:Keypair"
SECGROUP = "huaweicloud:Vpc/secgroup:Secgroup"
RULE = "huaweicloud:Vpc/secgroupRule:SecgroupRule"
TURBO = "huaweicloud:Sfs/turbo:Turbo"
VPC, SUBNET = "huaweicloud:Vpc/vpc:Vpc", "huaweicloud:Vpc/subnet:Subnet"
TLS_KEY = "tls:index/privateKey:PrivateKey"
UNTAGGABLE = {RULE, SERVER_GROUP, KEYPAIR, TLS_KEY}
TAGS = {"trainstack-cluster": "c", "trainstack-provider": "huaweicloud"}


def named(records: list[dict[str, Any]], name: str) -> dict[str, Any]:
    (record,) = [record for record in records if record["name"] == name]
    return record


def test_every_node_joins_the_anti_affinity_server_group(hw_records, hw_config):
    records = hw_records(hw_config(nodes=3))
    group = one(records, SERVER_GROUP)
    assert group["inputs"] == {"policies": ["anti-affinity"]}
    group_id = mock_id(SERVER_GROUP, "c-group")
    nodes = by_type(records, INSTANCE)
    assert [node["name"] for node in nodes] == ["c-node-0", "c-node-1", "c-node-2"]
    for node in nodes:
        inputs = node["inputs"]
        assert inputs["schedulerHints"] == [{"group": group_id}]
        assert inputs["flavorId"] == "p3.16xlarge.8"
        assert inputs["availabilityZone"] == "cn-north-4a"
        assert inputs["imageId"] == IMAGE_ID
        assert inputs["networks"] == [{"uuid": mock_id(SUBNET, "c-subnet")}]
        assert inputs["securityGroupIds"] == [mock_id(SECGROUP, "c-sg")]
        assert inputs["keyPair"] == "c-keypair"
        assert (inputs["systemDiskType"], inputs["systemDiskSize"]) == ("GPSSD", 200)
        assert "systemDiskKmsKeyId" not in inputs and "eipType" not in inputs


@pytest.mark.parametrize(
    ("purchase", "expected"),
    [
        pytest.param("spot", {"chargingMode": "spot", "spotMaximumPrice": None}, id="spot"),
        # On-demand nodes without kms_key_id are the AS group (test_huaweicloud_group.py); with
        # a key they are per-node pay-per-use instances.
        pytest.param("on-demand", {"chargingMode": "postPaid", "spotMaximumPrice": None}, id="on-demand"),
    ],
)
def test_purchase_sets_the_charging_mode(hw_records, hw_config, purchase, expected):
    nodes = by_type(hw_records(hw_config(purchase=purchase, kms_key_id="kms-1")), INSTANCE)
    assert len(nodes) == 2
    for node in nodes:
        assert {key: node["inputs"].get(key) for key in expected} == expected


def test_image_lookup_is_restricted_to_the_flavor_and_never_replaces_nodes(hw_run, hw_config):
    mocks, monitor, _ = hw_run(hw_config())
    assert monitor.ignore_changes["c-node-0"] == monitor.ignore_changes["c-node-1"] == ["imageId"]
    (args,) = [args for token, args in mocks.calls if token == "huaweicloud:Ims/getImage:getImage"]
    assert args["flavorId"] == "p3.16xlarge.8"
    assert (args["visibility"], args["mostRecent"]) == ("public", True)
    assert args["nameRegex"].startswith("^Ubuntu 22")


def test_ssh_only_from_configured_cidrs_and_nothing_open_to_the_world(hw_records, hw_config):
    records = hw_records(hw_config(ssh_cidrs=("203.0.113.0/24", "198.51.100.7/32")))
    node_group, fs_group = mock_id(SECGROUP, "c-sg"), mock_id(SECGROUP, "c-sfs-sg")
    groups = by_type(records, SECGROUP)
    assert all(group["inputs"]["deleteDefaultRules"] is True for group in groups)
    rules = {rule["name"]: rule["inputs"] for rule in by_type(records, RULE)}
    assert sorted(rules) == [
        "c-sfs-sg-egress",
        "c-sfs-sg-from-nodes",
        "c-sg-egress",
        "c-sg-internal",
        "c-sg-ssh-0",
        "c-sg-ssh-1",
    ]
    ssh = {name: rule for name, rule in rules.items() if rule.get("portRangeMin") == 22}
    sources = {rule["remoteIpPrefix"] for rule in ssh.values()}
    assert sources == {"203.0.113.0/24", "198.51.100.7/32"}
    assert all(rule["protocol"] == "tcp" and rule["portRangeMax"] == 22 for rule in ssh.values())
    assert rules["c-sg-internal"]["remoteGroupId"] == node_group
    assert rules["c-sfs-sg-from-nodes"]["remoteGroupId"] == node_group
    assert rules["c-sfs-sg-from-nodes"]["securityGroupId"] == fs_group
    for rule in rules.values():
        if rule["direction"] == "ingress":
            assert rule.get("remoteGroupId") or rule["remoteIpPrefix"] not in ("0.0.0.0/0", "")


def test_no_ssh_rule_by_default(hw_records, hw_config):
    rules = [rule["name"] for rule in by_type(hw_records(hw_config()), RULE)]
    assert not [name for name in rules if "ssh" in name]


def test_sfs_turbo_sizing_network_and_protect(hw_records, hw_config):
    records = hw_records(hw_config())
    turbo = one(records, TURBO)
    assert (turbo["name"], turbo["parent"], turbo["protect"]) == ("c-sfs", "c", True)
    assert turbo["inputs"] == {
        "shareType": "HPC",
        "shareProto": "NFS",
        "hpcBandwidth": "250M",
        "size": 4915,
        "availabilityZone": "cn-north-4a",
        "vpcId": mock_id(VPC, "c-vpc"),
        "subnetId": mock_id(SUBNET, "c-subnet"),
        "securityGroupId": mock_id(SECGROUP, "c-sfs-sg"),
        "tags": TAGS,
    }
    assert [record["name"] for record in records if record["protect"]] == ["c-sfs"]


def test_tags_parenting_and_no_providers(hw_records, hw_config):
    records = hw_records(hw_config(tags={"team": "ml", "cost:center": "r&d"}))
    types = check_tree_and_tags(records, TYPE_TOKEN, UNTAGGABLE, {**TAGS, "team": "ml", "cost-center": "r-d"})
    assert types - UNTAGGABLE == {VPC, SUBNET, SECGROUP, INSTANCE, TURBO}


def test_outputs_have_real_values_and_are_registered(hw_run, hw_config):
    _, monitor, outputs = hw_run(hw_config())
    assert {key: outputs[key] for key in OUTPUT_NAMES} == {
        "node_ids": [mock_id(INSTANCE, "c-node-0"), mock_id(INSTANCE, "c-node-1")],
        "node_private_ips": ["10.0.0.10", "10.0.0.11"],
        "placement_group": mock_id(SERVER_GROUP, "c-group"),
        "file_system_dns": SFS_TURBO_HOST,
        "file_system_mount_name": "/",
        "usd_per_hour": 48.0,
        "file_system_mount_command": None,  # its nodes do not mount SFS Turbo
    }
    # None outputs are registered as unset (the mount command: its nodes do not mount the file system)
    assert sorted(monitor.registered_outputs["c"]) == sorted(set(OUTPUT_NAMES) - {"file_system_mount_command"})
    assert outputs["ssh_private_key"].startswith("-----BEGIN OPENSSH PRIVATE KEY-----")
    key = one(monitor.records(), TLS_KEY)
    assert key["inputs"] == {"algorithm": "RSA", "rsaBits": 4096}


def test_given_key_existing_subnet_and_no_file_system(hw_run, hw_config):
    given = "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQmock user@host"
    _, monitor, outputs = hw_run(hw_config(ssh_public_key=given, subnet_id=EXISTING_SUBNET_ID, file_system=None))
    records = monitor.records()
    assert not by_type(records, TLS_KEY) and not by_type(records, TURBO)
    assert not by_type(records, VPC) and not by_type(records, SUBNET)
    assert one(records, KEYPAIR)["inputs"] == {"publicKey": given}
    assert [r["name"] for r in by_type(records, SECGROUP)] == ["c-sg"]
    for node in by_type(records, INSTANCE):
        assert node["inputs"]["networks"] == [{"uuid": EXISTING_SUBNET_ID}]
    keys = ("ssh_private_key", "file_system_dns", "file_system_mount_name")
    assert [outputs[key] for key in keys] == [None, None, None]


def test_existing_subnet_with_file_system_uses_the_subnets_vpc(hw_records, hw_config):
    turbo = one(hw_records(hw_config(subnet_id=EXISTING_SUBNET_ID)), TURBO)
    inputs = turbo["inputs"]
    assert (inputs["vpcId"], inputs["subnetId"]) == (EXISTING_VPC_ID, EXISTING_SUBNET_ID)
