"""`TencentcloudGpuCluster` under Pulumi mocks: the resource tree, its inputs and outputs."""

from __future__ import annotations

import re
from functools import partial
from typing import Any

import pytest

from clouds.contract import OUTPUT_NAMES
from clouds.tencentcloud.mock import TENCENT_IMAGE_ID, tencentcloud_id
from components.tencentcloud.cluster import TYPE_TOKEN, TencentcloudGpuCluster
from tests.components.harness import check_tree_and_tags
from tests.components.tencentcloud.tencentcloud_harness import HCC_TYPE, build, install_mocks, make_config

INSTANCE = "tencentcloud:Instance/instance:Instance"
PLACEMENT = "tencentcloud:Placement/group:Group"
HPC = "tencentcloud:Cvm/hpcCluster:HpcCluster"
RULE_SET = "tencentcloud:Security/groupRuleSet:GroupRuleSet"
CFS = "tencentcloud:Cfs/fileSystem:FileSystem"
CCN = "tencentcloud:Ccn/instance:Instance"
ATTACHMENT = "tencentcloud:Ccn/attachmentV2:AttachmentV2"
ACCESS_GROUP = "tencentcloud:Cfs/accessGroup:AccessGroup"
ACCESS_RULE = "tencentcloud:Cfs/accessRule:AccessRule"
VPC = "tencentcloud:Vpc/instance:Instance"
SUBNET = "tencentcloud:Subnet/instance:Instance"
SG = "tencentcloud:Security/group:Group"
KEYPAIR = "tencentcloud:Key/pair:Pair"
PG_ID = tencentcloud_id(PLACEMENT, "c-pg")
HPC_ID = tencentcloud_id(HPC, "c-hpc")
VPC_ID = tencentcloud_id("tencentcloud:Vpc/instance:Instance", "c-vpc")
SG_ID = tencentcloud_id("tencentcloud:Security/group:Group", "c-sg")
TAGS = {"trainstack:cluster": "c", "trainstack:provider": "tencentcloud"}


def nodes(plan) -> list[dict[str, Any]]:
    return [record["inputs"] for record in plan.of_type(INSTANCE)]


# Per-node CVM instances: HCC (RDMA) types, which the Auto Scaling group cannot hold
# (clouds.tencentcloud.group; the group itself: test_tencentcloud_group.py).
hcc_config = partial(make_config, instance_type=HCC_TYPE, interconnect="rdma")


def test_every_node_in_one_host_placement_group():
    plan = build(hcc_config(nodes=3))
    (group,) = plan.of_type(PLACEMENT)
    assert (group["inputs"]["type"], group["inputs"]["affinity"]) == ("HOST", 1)
    assert [node["placementGroupId"] for node in nodes(plan)] == [PG_ID] * 3
    assert plan.outputs["placement_group"] == PG_ID
    assert len(plan.of_type(HPC)) == 1 and plan.of_type("tencentcloud:As/scalingGroup:ScalingGroup") == []


def test_hcc_nodes_are_created_into_one_hpc_cluster():
    plan = build(make_config(instance_type=HCC_TYPE, interconnect="rdma"))
    (hpc,) = plan.of_type(HPC)
    assert hpc["inputs"] == {"name": "c-hpc", "remark": "c: RDMA nodes", "zone": "ap-beijing-6"}
    assert [(n["hpcClusterId"], n["placementGroupId"]) for n in nodes(plan)] == [(HPC_ID, PG_ID)] * 2


@pytest.mark.parametrize(
    ("purchase", "expected"),
    [
        pytest.param(
            "spot",
            {"instanceChargeType": "SPOTPAID", "spotInstanceType": "ONE-TIME", "spotMaxPrice": "30.00"},
            id="spot",
        ),
        pytest.param(
            "on-demand",
            {"instanceChargeType": "POSTPAID_BY_HOUR", "spotInstanceType": None, "spotMaxPrice": None},
            id="on-demand",
        ),
    ],
)
def test_purchase_sets_spot_arguments(purchase, expected):
    found = nodes(build(hcc_config(purchase=purchase)))
    assert len(found) == 2
    for node in found:
        assert {key: node.get(key) for key in expected} == expected


def test_node_image_encrypted_disk_network_and_no_public_ip():
    plan = build(hcc_config(ssh_public_key="ssh-ed25519 AAAAmock user@host"))
    node = plan.named("c-node-1")["inputs"]
    assert node["imageId"] == TENCENT_IMAGE_ID
    assert node["dataDisks"] == [
        {"dataDiskSize": 500, "dataDiskType": "CLOUD_SSD", "deleteWithInstance": True, "encrypt": True}
    ]
    assert (node["systemDiskType"], node["systemDiskSize"]) == ("CLOUD_SSD", 200)
    assert node["allocatePublicIp"] is False
    assert (node["vpcId"], node["orderlySecurityGroups"], node["availabilityZone"]) == (VPC_ID, [SG_ID], "ap-beijing-6")
    assert node["keyIds"] == [tencentcloud_id("tencentcloud:Key/pair:Pair", "c-key")]
    assert plan.named("c-key")["inputs"]["keyName"] == "c_key"
    ((token, lookup),) = plan.calls
    assert token == "tencentcloud:Images/getInstance:getInstance"
    assert lookup == {
        "imageTypes": ["PUBLIC_IMAGE"],
        "imageNameRegex": r"^Ubuntu\s+Server\s+22\.04\s+LTS\s+64",
        "instanceType": HCC_TYPE,
    }


def test_ssh_only_from_configured_cidrs_and_nothing_accepted_from_the_world():
    plan = build(make_config(ssh_cidrs=("203.0.113.0/24",)))
    ingress = plan.named("c-sg-rules")["inputs"]["ingresses"]
    assert [(r["action"], r["cidrBlock"], r["protocol"], r["port"]) for r in ingress] == [
        ("ACCEPT", "203.0.113.0/24", "TCP", "22"),
        ("ACCEPT", "10.0.0.0/16", "ALL", "all"),
        ("ACCEPT", "10.1.0.0/24", "ALL", "all"),
        ("DROP", "0.0.0.0/0", "ALL", "all"),
    ]
    assert not [r for r in ingress if r["action"] == "ACCEPT" and r["cidrBlock"] == "0.0.0.0/0"]


def test_no_ssh_rule_and_no_turbo_rule_by_default_without_file_system():
    ingress = build(make_config(file_system=None)).named("c-sg-rules")["inputs"]["ingresses"]
    assert [r["cidrBlock"] for r in ingress] == ["10.0.0.0/16", "0.0.0.0/0"]


@pytest.mark.parametrize(
    ("file_system", "storage_type", "capacity"),
    [
        pytest.param({"capacity_gib": 4800}, "TP", 20_480, id="TP-minimum"),
        pytest.param({"capacity_gib": 20_481}, "TP", 30_720, id="TP-one-step"),
        pytest.param({"capacity_gib": 4800, "deployment_type": "TB"}, "TB", 40_960, id="TB-minimum"),
        pytest.param({"capacity_gib": 50_000, "deployment_type": "TB"}, "TB", 61_440, id="TB-one-step"),
    ],
)
def test_cfs_turbo_is_protected_sized_and_on_the_ccn(file_system, storage_type, capacity):
    plan = build(make_config(file_system=file_system))
    fs = plan.named("c-cfs")
    assert (fs["type"], fs["protect"]) == (CFS, True)
    ccn_id = tencentcloud_id(CCN, "c-ccn")
    assert fs["inputs"] == {
        "accessGroupId": tencentcloud_id(ACCESS_GROUP, "c-cfs-access"),
        "availabilityZone": "ap-beijing-6",
        "capacity": capacity,
        "ccnId": ccn_id,
        "cidrBlock": "10.1.0.0/24",
        "name": "c-cfs",
        "netInterface": "CCN",
        "protocol": "TURBO",
        "storageType": storage_type,
        "tags": TAGS,
    }
    attachment = plan.named("c-ccn-vpc")["inputs"]
    assert attachment == {"ccnId": ccn_id, "instanceId": VPC_ID, "instanceRegion": "ap-beijing", "instanceType": "VPC"}
    rule = plan.named("c-cfs-rule")["inputs"]
    assert (rule["authClientIp"], rule["rwPermission"]) == ("10.0.0.0/16", "RW")
    assert [r["name"] for r in plan.records if r["protect"]] == ["c-cfs"]


def test_tags_parenting_and_no_providers():
    plan = build(
        make_config(
            tags={"team": "ml"}, instance_type=HCC_TYPE, interconnect="rdma", ssh_public_key="ssh-ed25519 AAAAmock"
        )
    )
    untaggable = {HPC, RULE_SET, ATTACHMENT, ACCESS_GROUP, ACCESS_RULE}
    types = check_tree_and_tags(plan.records, TYPE_TOKEN, untaggable, {**TAGS, "team": "ml"})
    assert types == untaggable | {VPC, SUBNET, SG, KEYPAIR, PLACEMENT, INSTANCE, CCN, CFS}


def test_outputs_have_real_values_and_are_registered():
    plan = build(hcc_config())
    expected = {
        "node_ids": [tencentcloud_id(INSTANCE, "c-node-0"), tencentcloud_id(INSTANCE, "c-node-1")],
        "node_private_ips": ["10.0.0.10", "10.0.0.11"],
        "placement_group": PG_ID,
        "file_system_dns": "10.1.0.4",
        "file_system_mount_name": plan.outputs["file_system_mount_name"],
        "usd_per_hour": 60.0,
        "file_system_mount_command": None,  # CFS Turbo needs its own client: the nodes do not mount it
    }
    assert re.fullmatch(r"[0-9a-f]{8}", plan.outputs["file_system_mount_name"])
    assert plan.outputs == expected
    # A None output is registered as unset, so the monitor sees every other name.
    assert plan.registered_outputs == {key: value for key, value in expected.items() if value is not None}
    assert sorted(expected) == sorted(OUTPUT_NAMES)


def test_without_file_system_no_storage_children_and_none_outputs():
    plan = build(make_config(file_system=None))
    assert plan.of_type(CFS) == plan.of_type(CCN) == plan.of_type(ATTACHMENT) == []
    assert (plan.outputs["file_system_dns"], plan.outputs["file_system_mount_name"]) == (None, None)


@pytest.mark.parametrize(
    ("changes", "spot_max_price", "message"),
    [
        pytest.param({"provider": "alicloud"}, None, "provider: 'alicloud' given to the Tencent Cloud", id="provider"),
        pytest.param({"instance_type": "S5.LARGE8"}, None, "instance_type: 'S5.LARGE8' is not a known", id="family"),
        pytest.param({"interconnect": "rdma"}, None, "interconnect: rdma needs an HCC type and GT4", id="rdma"),
        pytest.param({"accelerator_count": 4}, None, "accelerator_count: 4 does not match GT4.41XLARGE948", id="gpus"),
        pytest.param({"purchase": "spot"}, None, "spot_max_price: purchase spot on Tencent needs a bid", id="no-bid"),
        pytest.param({"purchase": "spot"}, "cheap", "spot_max_price: 'cheap' is not a positive decimal", id="bad-bid"),
        pytest.param({}, "12.50", "spot_max_price: given for an on-demand cluster", id="bid-on-demand"),
        pytest.param(
            {"zone": "ap-shanghai-2"}, None, "zone: 'ap-shanghai-2' is not a zone of region ap-beijing", id="zone"
        ),
        pytest.param(
            {"zone": "ap-beijing-x"},
            None,
            "zone: 'ap-beijing-x' is not a zone of region ap-beijing; Tencent zones are ap-beijing-<number>: use a zone "
            "such as ap-beijing-6",
            id="zone-letter",
        ),
        pytest.param(
            {"file_system": {"capacity_gib": 4800, "deployment_type": "HP"}},
            None,
            "file_system.deployment_type: 'HP' is not a CFS Turbo type",
            id="turbo-type",
        ),
        pytest.param({"tags": {"qcs:team": "ml"}}, None, "tags: key 'qcs:team' starts with a prefix", id="tag"),
        pytest.param({"capacity_reservation_id": "cr-1"}, None, "capacity_reservation_id: not supported", id="cr"),
    ],
)
def test_invalid_config_fails_before_anything_is_registered(changes, spot_max_price, message):
    _, monitor = install_mocks()
    with pytest.raises(ValueError, match=re.escape(message)):
        TencentcloudGpuCluster("c", make_config(**changes), spot_max_price=spot_max_price)
    assert monitor.records() == []
