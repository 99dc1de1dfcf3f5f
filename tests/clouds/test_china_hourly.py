"""What bills by the hour on the Chinese clouds, beside the GPU nodes and the file system: every
resource type a committed China stack plans is accounted for (priced as nodes or file system,
named in the cost as unpriced, or billed nothing by the hour), so a new billable child fails
here until its cost says so; the one such resource there is now, Volcengine's vePFS mount
service (three ECS instances), is named in every cost that has a file system.

None of these stacks has a NAT gateway, an EIP or a per-node public address (the nodes' public
bandwidth is 0 or no public IP is assigned), nor a head node: no node agent runs a job there
(`healing.runs_job: false`), so there is nothing of the AWS/Azure/GCP kind to name.
"""

from pathlib import Path

import pytest

from clouds.helper_vms import helper_lines
from clouds.registry import CLOUDS
from profiles.cost.cluster_cost import cluster_cost
from tests.clusters import example_config
from trainstack.plan.runner import run_plan

ROOT = Path(__file__).resolve().parents[2]
NODES, FILE_SYSTEM, NAMED, NOT_HOURLY = "nodes", "file system", "named unpriced", "no hourly charge"
# Network plumbing (VPCs, subnets, security groups, key pairs, placement/deployment sets, launch
# configurations, attachments) carries no charge of its own on these clouds: an assumption (no
# price page recorded), except where a source is given.
CCN_NOTE = "Tencent CCN: same-region interconnection under 1 Gbps is free (intl.cloud.tencent.com/pricing/ccn)"
BILLING: dict[str, dict[str, str]] = {
    "training-a100-alicloud": {
        "trainstack:alicloud:GpuCluster": NOT_HOURLY,
        "alicloud:ecs/securityGroup:SecurityGroup": NOT_HOURLY,
        "alicloud:ecs/securityGroupRule:SecurityGroupRule": NOT_HOURLY,
        "alicloud:ess/scalingConfiguration:ScalingConfiguration": NOT_HOURLY,  # internetMaxBandwidthOut 0
        "alicloud:ess/scalingGroup:ScalingGroup": NODES,
        "alicloud:nas/fileSystem:FileSystem": FILE_SYSTEM,
        "alicloud:nas/mountTarget:MountTarget": NOT_HOURLY,
        "alicloud:vpc/network:Network": NOT_HOURLY,
        "alicloud:vpc/switch:Switch": NOT_HOURLY,
    },
    "training-a100-tencentcloud": {
        "trainstack:tencentcloud:GpuCluster": NOT_HOURLY,
        "tencentcloud:As/scalingConfig:ScalingConfig": NOT_HOURLY,  # publicIpAssigned false
        "tencentcloud:As/scalingGroup:ScalingGroup": NODES,
        "tencentcloud:Ccn/attachmentV2:AttachmentV2": NOT_HOURLY,
        "tencentcloud:Ccn/instance:Instance": NOT_HOURLY,  # CCN_NOTE
        "tencentcloud:Cfs/accessGroup:AccessGroup": NOT_HOURLY,
        "tencentcloud:Cfs/accessRule:AccessRule": NOT_HOURLY,
        "tencentcloud:Cfs/fileSystem:FileSystem": FILE_SYSTEM,
        "tencentcloud:Placement/group:Group": NOT_HOURLY,
        "tencentcloud:Security/group:Group": NOT_HOURLY,
        "tencentcloud:Security/groupRuleSet:GroupRuleSet": NOT_HOURLY,
        "tencentcloud:Subnet/instance:Instance": NOT_HOURLY,
        "tencentcloud:Vpc/instance:Instance": NOT_HOURLY,
    },
    "training-a100-huaweicloud": {
        "trainstack:huaweicloud:GpuCluster": NOT_HOURLY,
        "huaweicloud:As/configuration:Configuration": NOT_HOURLY,
        "huaweicloud:As/group:Group": NODES,
        "huaweicloud:Ecs/keypair:Keypair": NOT_HOURLY,
        "huaweicloud:Ecs/servergroup:Servergroup": NOT_HOURLY,
        "huaweicloud:Sfs/turbo:Turbo": FILE_SYSTEM,
        "huaweicloud:Vpc/secgroup:Secgroup": NOT_HOURLY,
        "huaweicloud:Vpc/secgroupRule:SecgroupRule": NOT_HOURLY,
        "huaweicloud:Vpc/subnet:Subnet": NOT_HOURLY,
        "huaweicloud:Vpc/vpc:Vpc": NOT_HOURLY,
        "tls:index/privateKey:PrivateKey": NOT_HOURLY,  # generated locally, no cloud resource
    },
    "training-a10-volcengine": {
        "trainstack:volcengine:GpuCluster": NOT_HOURLY,
        "tls:index/privateKey:PrivateKey": NOT_HOURLY,
        "volcengine:autoscaling/scalingConfiguration:ScalingConfiguration": NOT_HOURLY,
        "volcengine:autoscaling/scalingConfigurationAttachment:ScalingConfigurationAttachment": NOT_HOURLY,
        "volcengine:autoscaling/scalingGroup:ScalingGroup": NODES,
        "volcengine:autoscaling/scalingGroupEnabler:ScalingGroupEnabler": NOT_HOURLY,
        "volcengine:ecs/keyPair:KeyPair": NOT_HOURLY,
        "volcengine:vepfs/fileSystem:FileSystem": FILE_SYSTEM,
        "volcengine:vepfs/mountService:MountService": NAMED,  # 3 ECS instances (clouds/volcengine/cloud.yaml)
        "volcengine:vepfs/mountServiceAttachment:MountServiceAttachment": NOT_HOURLY,
        "volcengine:vpc/securityGroup:SecurityGroup": NOT_HOURLY,
        "volcengine:vpc/securityGroupRule:SecurityGroupRule": NOT_HOURLY,
        "volcengine:vpc/subnet:Subnet": NOT_HOURLY,
        "volcengine:vpc/vpc:Vpc": NOT_HOURLY,
    },
    "training-a100-baiducloud": {
        "trainstack:baiducloud:GpuCluster": NOT_HOURLY,
        "pulumi-python:dynamic/baiducloud:BccInstance": NODES,
        "pulumi-python:dynamic/baiducloud:DeploySet": NOT_HOURLY,
        "pulumi-python:dynamic/baiducloud:EhcCluster": NOT_HOURLY,
        "pulumi-python:dynamic/baiducloud:Keypair": NOT_HOURLY,
        "pulumi-python:dynamic/baiducloud:SecurityGroup": NOT_HOURLY,
        "pulumi-python:dynamic/baiducloud:Subnet": NOT_HOURLY,
        "pulumi-python:dynamic/baiducloud:Vpc": NOT_HOURLY,
        "tls:index/privateKey:PrivateKey": NOT_HOURLY,
    },
}
MOUNT_SERVICE_LINE = "the file system's mount service (3 x {type} ECS instances it creates to manage the clients"


@pytest.mark.parametrize("stack", list(BILLING))
def test_every_planned_resource_of_a_china_stack_is_priced_named_or_not_billed_hourly(stack):
    plan = run_plan(stack, ROOT)  # the session's shared plan of the committed stack
    billing = BILLING[stack]
    unknown = sorted({r["type"] for r in plan.resources} - set(billing))
    assert unknown == [], f"classify {unknown} in BILLING (and name it in the cost if it bills by the hour)"
    provider = stack.split("-")[-1]
    assert not CLOUDS[provider].hourly_resources and set(CLOUDS[provider].helper_vms) <= {"file_system"}
    named = [r for r in plan.resources if billing[r["type"]] == NAMED]
    mount = [line for line in plan.price_caveats if line.startswith("the file system's mount service (")]
    assert len(mount) == len(named) == (1 if provider == "volcengine" else 0)


def test_the_vepfs_mount_service_is_named_with_the_type_the_component_creates():
    from components.volcengine.storage import MOUNT_SERVICE_NODE_TYPE

    config = example_config("volcengine")
    assert config.file_system is not None
    (line,) = [x for x in cluster_cost(config, None).left_out if "mount service" in x]
    assert line.startswith(MOUNT_SERVICE_LINE.format(type=MOUNT_SERVICE_NODE_TYPE))
    assert "on-demand, always on) is not in USD/hour or USD/job" in line and f"price in {config.region}" in line
    without = config.model_copy(update={"file_system": None})
    assert not [x for x in cluster_cost(without, None).left_out if "mount service" in x]


@pytest.mark.parametrize("provider", ["alicloud", "tencentcloud", "huaweicloud", "baiducloud", "aws", "gcp"])
def test_no_other_cloud_names_a_file_system_service_vm(provider):
    assert helper_lines(provider, "r", job=False, file_system=True) == ()
