"""`VolcengineGpuCluster` under Pulumi mocks: the resource tree, its inputs and outputs."""

from __future__ import annotations

import pytest

from clouds.contract import OUTPUT_NAMES
from clouds.volcengine.mock import EXISTING_SUBNET_ID, EXISTING_VPC_ID, IMAGE_ID, mock_id
from clouds.volcengine.tags import tags_as_dict
from components.volcengine.cluster import TYPE_TOKEN
from tests.components.harness import by_type, one

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
UNTAGGABLE = {RULE, DPS, MOUNT, ATTACH, TLS_KEY}
TAGS = {"trainstack:cluster": "c", "trainstack:provider": "volcengine"}
PLAIN_GPU = {"instance_type": "ecs.pni2.28xlarge", "interconnect": "none"}
# pulumi_volcengine.ecs imports its deprecated data-source aliases on first use.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:pulumi_volcengine.*")


@pytest.mark.parametrize("interconnect", ["rdma", "none"])
def test_hpc_types_join_one_hpc_cluster_in_the_zone(vc_records, vc_config, interconnect):
    records = vc_records(vc_config(nodes=3, interconnect=interconnect))
    cluster = one(records, HPC)
    assert (cluster["inputs"]["zoneId"], cluster["inputs"]["name"]) == ("cn-beijing-a", "c-hpc")
    assert not by_type(records, DPS)
    nodes = by_type(records, INSTANCE)
    assert [node["name"] for node in nodes] == ["c-node-0", "c-node-1", "c-node-2"]
    for node in nodes:
        inputs = node["inputs"]
        assert inputs["hpcClusterId"] == mock_id(HPC, "c-hpc")
        assert "deploymentSetId" not in inputs
        assert (inputs["instanceType"], inputs["zoneId"], inputs["imageId"]) == (
            "ecs.hpcpni2.28xlarge",
            "cn-beijing-a",
            IMAGE_ID,
        )
        assert inputs["subnetId"] == mock_id(SUBNET, "c-subnet")
        assert inputs["securityGroupIds"] == [mock_id(SG, "c-sg")]
        assert inputs["keyPairName"] == "c-keypair"
        assert (inputs["systemVolumeType"], inputs["systemVolumeSize"]) == ("ESSD_PL0", 200)


def test_plain_gpu_types_join_a_host_spread_deployment_set(vc_records, vc_config):
    records = vc_records(vc_config(**PLAIN_GPU))
    assert one(records, DPS)["inputs"] == {
        "deploymentSetName": "c-dps",
        "strategy": "Availability",
        "granularity": "host",
    }
    assert not by_type(records, HPC)
    for node in by_type(records, INSTANCE):
        assert node["inputs"]["deploymentSetId"] == mock_id(DPS, "c-dps")
        assert "hpcClusterId" not in node["inputs"]


@pytest.mark.parametrize(
    ("purchase", "strategy"),
    [
        pytest.param("spot", "SpotAsPriceGo", id="spot"),
        pytest.param("on-demand", "NoSpot", id="on-demand"),
    ],
)
def test_purchase_sets_the_spot_strategy(vc_records, vc_config, purchase, strategy):
    expected = {"instanceChargeType": "PostPaid", "spotStrategy": strategy, "spotPriceLimit": None}
    for node in by_type(vc_records(vc_config(purchase=purchase)), INSTANCE):
        assert {key: node["inputs"].get(key) for key in expected} == expected


def test_image_lookup_is_restricted_to_the_type_and_never_replaces_nodes(vc_run, vc_config):
    mocks, monitor, _ = vc_run(vc_config())
    assert monitor.ignore_changes["c-node-0"] == monitor.ignore_changes["c-node-1"] == ["imageId"]
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
    component = one(records, TYPE_TOKEN)
    assert (component["name"], component["parent"]) == ("c", None)
    children = [record for record in records if record is not component]
    assert {record["parent"] for record in children} == {"c"}
    assert not [record for record in records if record["type"].startswith("pulumi:providers:")]
    tagged = [record for record in children if record["type"] not in UNTAGGABLE]
    assert {record["type"] for record in tagged} == {VPC, SUBNET, SG, HPC, KEYPAIR, INSTANCE, VEPFS}
    for record in tagged:
        assert tags_as_dict(record["inputs"]["tags"]) == {**TAGS, "team": "ml"}, record["name"]
    for record in children:
        if record["type"] in UNTAGGABLE:
            assert "tags" not in record["inputs"], record["name"]


def test_outputs_have_real_values_and_are_registered(vc_run, vc_config):
    _, monitor, outputs = vc_run(vc_config())
    fs_id = mock_id(VEPFS, "c-vepfs")
    assert {key: outputs[key] for key in OUTPUT_NAMES} == {
        "node_ids": [mock_id(INSTANCE, "c-node-0"), mock_id(INSTANCE, "c-node-1")],
        "node_private_ips": ["10.0.0.10", "10.0.0.11"],
        "placement_group": mock_id(HPC, "c-hpc"),
        "file_system_dns": fs_id,
        "file_system_mount_name": fs_id,
        "usd_per_hour": 44.0,
    }
    assert sorted(monitor.registered_outputs["c"]) == sorted(OUTPUT_NAMES)
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
    subnets = {node["inputs"]["subnetId"] for node in by_type(records, INSTANCE)}
    assert subnets == {EXISTING_SUBNET_ID}
    keys = ("ssh_private_key", "file_system_dns", "file_system_mount_name")
    assert [outputs[key] for key in keys] == [None, None, None]
    assert outputs["placement_group"] == mock_id(DPS, "c-dps")
