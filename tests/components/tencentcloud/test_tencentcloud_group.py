"""The Tencent Auto Scaling node group: its pure arguments (`components.tencentcloud.scaling`,
checked against the installed SDK) and the group the component builds under Pulumi mocks."""

from __future__ import annotations

import inspect
from functools import partial

import pytest
import tencentcloud_iac_pulumi as tencentcloud

from clouds.healing import MANUAL_RESTART_HOURS, healing
from clouds.tencentcloud.mock import TENCENT_IMAGE_ID, tencentcloud_id
from components.tencentcloud.cluster import TencentcloudGpuCluster
from components.tencentcloud.scaling import configuration_args, group_args, names
from tests.components import harness
from tests.components.tencentcloud.tencentcloud_harness import HCC_TYPE, build, make_config

CONFIG = "tencentcloud:As/scalingConfig:ScalingConfig"
GROUP = "tencentcloud:As/scalingGroup:ScalingGroup"
CONFIG_PARAMS = set(inspect.signature(tencentcloud.as_.ScalingConfigArgs.__init__).parameters)
GROUP_PARAMS = set(inspect.signature(tencentcloud.as_.ScalingGroupArgs.__init__).parameters)
TAGS = {"trainstack:cluster": "c", "trainstack:provider": "tencentcloud"}
PG_ID = tencentcloud_id("tencentcloud:Placement/group:Group", "c-pg")
SG_ID = tencentcloud_id("tencentcloud:Security/group:Group", "c-sg")
SUBNET_ID = tencentcloud_id("tencentcloud:Subnet/instance:Instance", "c-subnet")
VPC_ID = tencentcloud_id("tencentcloud:Vpc/instance:Instance", "c-vpc")


# The launch configuration's purchase inputs: the spot type in the configuration's own lower case.
CHARGES = {
    "spot": {"instanceChargeType": "SPOTPAID", "spotInstanceType": "one-time", "spotMaxPrice": "30.00"},
    "on-demand": {"instanceChargeType": "POSTPAID_BY_HOUR"},
}


@pytest.mark.parametrize("purchase", sorted(CHARGES))
def test_launch_configuration_carries_the_node(purchase):
    charge = CHARGES[purchase]
    plan = build(make_config(purchase=purchase, ssh_public_key="ssh-ed25519 AAAAmock"))
    (config,) = plan.of_type(CONFIG)
    assert config["inputs"] == {
        "configurationName": "c-node-config",
        "instanceTypes": ["GT4.41XLARGE948"],
        "imageId": TENCENT_IMAGE_ID,
        "securityGroupIds": [SG_ID],
        "publicIpAssigned": False,
        "systemDiskType": "CLOUD_SSD",
        "systemDiskSize": 200,
        "disasterRecoverGroupIds": [PG_ID],
        "keyIds": [tencentcloud_id("tencentcloud:Key/pair:Pair", "c-key")],
        "instanceTags": TAGS,
        "tags": TAGS,
        "instanceNameSettings": {"instanceName": "c-node", "instanceNameStyle": "UNIQUE"},
        "hostNameSettings": {"hostName": "c-node", "hostNameStyle": "UNIQUE"},
        **charge,
    }
    assert plan.of_type("tencentcloud:Instance/instance:Instance") == []


def test_group_keeps_the_node_count_on_the_one_subnet_and_replaces_unhealthy_nodes():
    plan = build(make_config(nodes=5))
    (group,) = plan.of_type(GROUP)
    assert group["inputs"] == {
        "scalingGroupName": "c-nodes",
        "configurationId": tencentcloud_id(CONFIG, "c-node-config"),
        "minSize": 5,
        "maxSize": 5,
        "desiredCapacity": 5,
        "vpcId": VPC_ID,
        "subnetIds": [SUBNET_ID],
        "healthCheckType": "CVM",
        "replaceMonitorUnhealthy": True,
        "tags": TAGS,
    }
    assert plan.outputs["node_ids"] == [tencentcloud_id(GROUP, "c-nodes")]
    assert plan.outputs["node_private_ips"] == []
    assert plan.outputs["placement_group"] == PG_ID  # the placement group is kept, in the configuration


def test_a_new_subnet_replaces_the_group_old_first_and_nothing_refreshes_instances():
    _, monitor, _ = harness.run_component(
        partial(TencentcloudGpuCluster, spot_max_price=None), make_config(), ("node_ids",)
    )
    assert monitor.options["c-nodes"] == {"replaceOnChanges": ["subnetIds"], "deleteBeforeReplace": True}
    assert monitor.options["c-node-config"] == {"replaceOnChanges": [], "deleteBeforeReplace": False}
    assert not [
        r for r in monitor.records() if r["type"] == "tencentcloud:As/startInstanceRefresh:StartInstanceRefresh"
    ]


def test_hcc_types_stay_per_node_instances_in_the_hpc_cluster():
    plan = build(make_config(instance_type=HCC_TYPE, interconnect="rdma"))
    assert plan.of_type(GROUP) == plan.of_type(CONFIG) == []
    assert len(plan.of_type("tencentcloud:Instance/instance:Instance")) == 2
    entry = healing("tencentcloud", HCC_TYPE, purchase="on-demand")
    assert (entry.replaces_nodes, entry.restart_hours) == (False, MANUAL_RESTART_HOURS)
    assert "per-node instances" in entry.summary and "takes no HPC cluster" in entry.summary


def test_healing_says_the_group_replaces_but_the_job_restart_is_manual():
    entry = healing("tencentcloud", "GT4.41XLARGE948", purchase="spot")
    assert (entry.replaces_nodes, entry.runs_job, entry.restart_hours) == (True, False, MANUAL_RESTART_HOURS)
    assert (
        "Auto Scaling group" in entry.summary and "restart it by hand (manual restart, unsourced 2 h)" in entry.summary
    )


def test_pure_arguments_fit_the_installed_sdk():
    instance = {
        "instance_name": "c-node-0",
        "hostname": "c-0",
        "availability_zone": "z",
        "instance_type": "GT4.41XLARGE948",
        "image_id": "img-1",
        "vpc_id": "vpc-1",
        "subnet_id": "subnet-1",
        "orderly_security_groups": ["sg-1"],
        "allocate_public_ip": False,
        "system_disk_type": "CLOUD_SSD",
        "system_disk_size": 200,
        "data_disks": [],
        "instance_charge_type": "SPOTPAID",
        "spot_instance_type": "ONE-TIME",
        "spot_max_price": "1.5",
        "placement_group_id": "ps-1",
        "tags": {},
    }
    config = configuration_args("c", instance)
    assert set(config) <= CONFIG_PARAMS and config["spot_instance_type"] == "one-time"
    assert set(group_args("c", 2, "vpc-1", "subnet-1", {})) <= GROUP_PARAMS
    with pytest.raises(ValueError, match="node arguments cdh_host_id have no scaling-configuration counterpart"):
        configuration_args("c", {**instance, "cdh_host_id": "h"})


@pytest.mark.parametrize(
    ("nodes", "message"),
    [pytest.param(0, "nodes: 0 is outside 1-2000", id="zero"), pytest.param(2001, "outside 1-2000", id="too-many")],
)
def test_group_size_limits(nodes, message):
    with pytest.raises(ValueError, match=message):
        group_args("c", nodes, "vpc-1", "subnet-1", {})


def test_host_name_prefix_is_cleaned_and_short():
    prefix = names("My_Very.Long-Cluster-Name-That-Goes-On-And-On")["host_name_settings"]["host_name"]
    assert prefix == "my-very-long-cluster-name-that-goes-node" and len(prefix) == 40


def test_a_48_character_name_fits_and_hcc_clusters_need_no_group_names():
    from clouds.tencentcloud.validate import validate_args

    validate_args(make_config(), "n" * 48)
    validate_args(make_config(instance_type=HCC_TYPE, interconnect="rdma"), "n" * 60)


def test_fallback_types_ride_in_the_launch_configuration_in_rank_order():
    plan = build(make_config(fallback_types=["GN10XP.20XLARGE320", "GN7.20XLARGE320"]))
    (config,) = plan.of_type(CONFIG)
    assert config["inputs"]["instanceTypes"] == ["GT4.41XLARGE948", "GN10XP.20XLARGE320", "GN7.20XLARGE320"]


def test_an_hcc_type_shares_no_launch_configuration():
    with pytest.raises(ValueError, match="HCC .RDMA. type, created per node in its HPC cluster"):
        make_config(fallback_types=[HCC_TYPE])


def test_fallback_zones_give_the_group_a_subnet_per_zone_in_priority_order():
    plan = build(make_config(file_system=None, fallback_zones=["ap-beijing-7", "ap-beijing-5"]))
    subnets = {s["name"]: s["inputs"] for s in plan.of_type("tencentcloud:Subnet/instance:Instance")}
    assert subnets["c-subnet-ap-beijing-7"]["availabilityZone"] == "ap-beijing-7"
    assert subnets["c-subnet-ap-beijing-5"]["cidrBlock"] == "10.0.32.0/20"
    (group,) = plan.of_type(GROUP)
    assert len(group["inputs"]["subnetIds"]) == 3 and group["inputs"]["multiZoneSubnetPolicy"] == "PRIORITY"


def test_one_zone_sets_no_zone_policy():
    (group,) = build(make_config()).of_type(GROUP)
    assert len(group["inputs"]["subnetIds"]) == 1 and "multiZoneSubnetPolicy" not in group["inputs"]
