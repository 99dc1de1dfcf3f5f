"""`VolcengineGpuCluster` under Pulumi mocks: the resource tree, its inputs and outputs."""

from __future__ import annotations

from typing import Any

import pytest

from clouds.contract import OUTPUT_NAMES
from clouds.volcengine.mock import EXISTING_SUBNET_ID, EXISTING_VPC_ID, IMAGE_ID, mock_id
from clouds.volcengine.tags import tags_as_dict
from components.volcengine.cluster import TYPE_TOKEN
from tests.components.harness import by_type, check_tree_and_tags, one

INSTANCE = "volcengine:ecs/instance:Instance"
HPC = "volcengine:ecs/hpcCluster:HpcCluster"
DPS = "volcengine:ecs/deploymentSet:DeploymentSet"
KEYPAIR = "volcengine:ecs/keyPair:KeyPair"
SG = "volcengine:vpc/securityGroup:SecurityGroup"
RULE = "volcengine:vpc/securityGroupRule:SecurityGroupRule"
VPC, SUBNET = "volcengine:vpc/vpc:Vpc", "volcengine:vpc/subnet:Subnet"
VEPFS = "volcengine:vepfs/fileSystem:FileSystem"
MOUNT = "volcengine:vepfs/mountService:MountService"
ATTACH = "volcengine:vepfs/mountServiceAttachment:MountServiceAttachment"
TLS_KEY = "tls:index/privateKey:PrivateKey"
GROUP = "volcengine:autoscaling/scalingGroup:ScalingGroup"
CONFIG = "volcengine:autoscaling/scalingConfiguration:ScalingConfiguration"
ATTACH_CONFIG = "volcengine:autoscaling/scalingConfigurationAttachment:ScalingConfigurationAttachment"
ENABLER = "volcengine:autoscaling/scalingGroupEnabler:ScalingGroupEnabler"
UNTAGGABLE = {RULE, MOUNT, ATTACH, TLS_KEY, ATTACH_CONFIG, ENABLER}
TAGS = {"trainstack:cluster": "c", "trainstack:provider": "volcengine"}
PLAIN_GPU = {"instance_type": "ecs.pni2.28xlarge", "interconnect": "none"}
# pulumi_volcengine.ecs imports its deprecated data-source aliases on first use.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:pulumi_volcengine.*")


def node_group(records: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The inputs of the scaling group and of its configuration."""
    return one(records, GROUP)["inputs"], one(records, CONFIG)["inputs"]


@pytest.mark.parametrize("interconnect", ["rdma", "none"])
def test_hpc_types_are_a_scaling_group_in_one_hpc_cluster(vc_records, vc_config, interconnect):
    records = vc_records(vc_config(nodes=3, interconnect=interconnect))
    cluster = one(records, HPC)
    assert (cluster["inputs"]["zoneId"], cluster["inputs"]["name"]) == ("cn-beijing-a", "c-hpc")
    assert not by_type(records, DPS) and not by_type(records, INSTANCE)
    group, config = node_group(records)
    assert group == {
        "scalingGroupName": "c-nodes",
        "minInstanceNumber": 3,
        "maxInstanceNumber": 3,
        "desireInstanceNumber": 3,
        "subnetIds": [mock_id(SUBNET, "c-subnet")],
        "tags": [{"key": k, "value": v} for k, v in TAGS.items()],
    }
    assert config["scalingGroupId"] == mock_id(GROUP, "c-nodes")
    assert config["hpcClusterId"] == mock_id(HPC, "c-hpc")
    assert (config["instanceTypes"], config["imageId"], config["instanceName"]) == (
        ["ecs.hpcpni2.28xlarge"],
        IMAGE_ID,
        "c-node",
    )
    assert config["securityGroupIds"] == [mock_id(SG, "c-sg")]
    assert config["keyPairName"] == "c-keypair"
    assert config["volumes"] == [{"volumeType": "ESSD_PL0", "size": 200, "deleteWithInstance": True}]


def test_the_configuration_is_made_active_and_the_group_enabled_after_it(vc_run, vc_config):
    _, monitor, _ = vc_run(vc_config())
    records = monitor.records()
    assert one(records, ATTACH_CONFIG)["inputs"] == {"scalingConfigurationId": mock_id(CONFIG, "c-node-config")}
    assert one(records, ENABLER)["inputs"] == {"scalingGroupId": mock_id(GROUP, "c-nodes")}
    assert "c-node-config-active" in monitor.depends_on["c-nodes-enabled"]
    # A new subnet brings a new group (old one first); destroy leaves the active
    # configuration to the group's deletion.
    assert monitor.options["c-nodes"] == {"replaceOnChanges": ["subnetIds"], "deleteBeforeReplace": True}
    assert (monitor.retained["c-node-config"], monitor.retained["c-nodes"]) == (True, False)


def test_plain_gpu_types_join_no_placement(vc_records, vc_config):
    records = vc_records(vc_config(**PLAIN_GPU))
    assert not by_type(records, HPC) and not by_type(records, DPS)
    _, config = node_group(records)
    assert "hpcClusterId" not in config and "deploymentSetId" not in config


@pytest.mark.parametrize(
    ("purchase", "strategy"),
    [
        pytest.param("spot", "SpotAsPriceGo", id="spot"),
        pytest.param("on-demand", "NoSpot", id="on-demand"),
    ],
)
def test_purchase_sets_the_spot_strategy(vc_records, vc_config, purchase, strategy):
    _, config = node_group(vc_records(vc_config(purchase=purchase)))
    assert config["spotStrategy"] == strategy


def test_image_lookup_is_restricted_to_the_type(vc_run, vc_config):
    mocks, _, _ = vc_run(vc_config())
    (args,) = [args for token, args in mocks.calls if token == "volcengine:ecs/getImages:getImages"]
    got = (args["instanceTypeId"], args["osType"], args["visibility"])
    assert got == ("ecs.hpcpni2.28xlarge", "Linux", "public")


def test_ssh_only_from_configured_cidrs_and_nothing_open_to_the_world(vc_records, vc_config):
    records = vc_records(vc_config(ssh_cidrs=("203.0.113.0/24",)))
    rules = {rule["name"]: rule["inputs"] for rule in by_type(records, RULE)}
    assert sorted(rules) == ["c-sg-internal", "c-sg-ssh-0"]
    group = mock_id(SG, "c-sg")
    assert rules["c-sg-internal"]["sourceGroupId"] == group
    assert "cidrIp" not in rules["c-sg-internal"]
    ssh = rules["c-sg-ssh-0"]
    assert (ssh["cidrIp"], ssh["portStart"], ssh["portEnd"], ssh["protocol"]) == (
        "203.0.113.0/24",
        22,
        22,
        "tcp",
    )
    for rule in rules.values():
        assert rule["securityGroupId"] == group
        assert rule.get("sourceGroupId") or rule["cidrIp"] not in ("0.0.0.0/0", "")
    assert [r["name"] for r in by_type(vc_records(vc_config()), RULE)] == ["c-sg-internal"]


def test_vepfs_store_type_capacity_mount_service_and_protect(vc_records, vc_config):
    records = vc_records(vc_config())
    vepfs = one(records, VEPFS)
    assert (vepfs["name"], vepfs["protect"]) == ("c-vepfs", True)
    subnet = mock_id(SUBNET, "c-subnet")
    assert vepfs["inputs"] == {
        "fileSystemName": "c-vepfs",
        "subnetId": subnet,
        "storeType": "Advance_100",
        "capacity": 5,
        "tags": [*[{"key": k, "value": v} for k, v in TAGS.items()]],
    }
    assert one(records, MOUNT)["inputs"] == {
        "mountServiceName": "c-mount",
        "subnetId": subnet,
        "nodeType": "ecs.g4i.large",
    }
    assert one(records, ATTACH)["inputs"] == {
        "mountServiceId": mock_id(MOUNT, "c-mount"),
        "fileSystemId": mock_id(VEPFS, "c-vepfs"),
    }
    assert [record["name"] for record in records if record["protect"]] == ["c-vepfs"]


def test_tags_parenting_and_no_providers(vc_records, vc_config):
    records = vc_records(vc_config(tags={"team": "ml"}))
    types = check_tree_and_tags(records, TYPE_TOKEN, UNTAGGABLE, {**TAGS, "team": "ml"}, tags_as_dict)
    assert types - UNTAGGABLE == {VPC, SUBNET, SG, HPC, KEYPAIR, GROUP, CONFIG, VEPFS}


def test_outputs_have_real_values_and_are_registered(vc_run, vc_config):
    _, monitor, outputs = vc_run(vc_config())
    fs_id = mock_id(VEPFS, "c-vepfs")
    assert {key: outputs[key] for key in OUTPUT_NAMES} == {
        "node_ids": [mock_id(GROUP, "c-nodes")],
        "node_private_ips": [],
        "placement_group": mock_id(HPC, "c-hpc"),
        "file_system_dns": fs_id,
        "file_system_mount_name": fs_id,
        "usd_per_hour": 44.0,
        "file_system_mount_command": None,  # vePFS needs its own client: the nodes do not mount it
    }
    # None outputs are registered as unset (the mount command: its nodes do not mount the file system)
    assert sorted(monitor.registered_outputs["c"]) == sorted(set(OUTPUT_NAMES) - {"file_system_mount_command"})
    assert outputs["ssh_private_key"].startswith("-----BEGIN OPENSSH PRIVATE KEY-----")
    assert one(monitor.records(), TLS_KEY)["inputs"] == {"algorithm": "RSA", "rsaBits": 4096}


def test_given_key_existing_subnet_and_no_file_system(vc_run, vc_config):
    given = "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQmock user@host"
    _, monitor, outputs = vc_run(
        vc_config(**PLAIN_GPU, ssh_public_key=given, subnet_id=EXISTING_SUBNET_ID, file_system=None)
    )
    records = monitor.records()
    assert not {TLS_KEY, VEPFS, MOUNT, ATTACH, VPC, SUBNET} & {record["type"] for record in records}
    assert one(records, KEYPAIR)["inputs"]["publicKey"] == given
    assert one(records, SG)["inputs"]["vpcId"] == EXISTING_VPC_ID
    assert one(records, GROUP)["inputs"]["subnetIds"] == [EXISTING_SUBNET_ID]
    keys = ("ssh_private_key", "file_system_dns", "file_system_mount_name")
    assert [outputs[key] for key in keys] == [None, None, None]
    assert outputs["placement_group"] is None  # a plain GPU type joins no placement
