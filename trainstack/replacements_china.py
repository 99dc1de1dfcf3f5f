"""Replace-on-change inputs of the five Chinese clouds' resources (see `trainstack.replacements`).

Sources:
  L  aliyun/terraform-provider-alicloud (bridged by pulumi-alicloud) `ForceNew: true`, in
     alicloud/resource_alicloud_<x>.go: nas_file_system (storage_type, zone_id, vpc/vswitch,
     protocol/file_system_type, encrypt_type, kms_key_id; capacity is upgraded in place);
     instance (availability_zone, spot_strategy/spot_price_limit, system disk category and
     encryption, primary-NIC traffic mode/card index/queue pairs, network_interfaces, data_disks
     fields, role_name, hpc_cluster_id, ...; image_id (system-disk replacement), instance_type,
     vswitch_id and deployment_set_id update in place; key_name is left out: ForceNew in the
     source read, "can be modified" from 1.268.0 per the pulumi-alicloud 4.0.0 docstring);
     ecs_deployment_set, security_group (resourceAliCloudEcsSecurityGroup), security_group_rule
     (no Update: all its fields), nas_mount_target, vswitch, vpc (cidr_block updates in place).
  Q  tencentcloudstack/terraform-provider-tencentcloud `ForceNew: true`, in
     tencentcloud/services/<svc>/resource_tc_<x>.go: cfs_file_system (availability_zone,
     protocol, storage_type, vpc/subnet, mount_ip; capacity scales up in place); cvm instance
     (availability_zone, spot_max_price, data_disks count and fields, ...; image_id (ResetInstance),
     instance_type, vpc/subnet, instance_charge_type and spot_instance_type are not ForceNew);
     ccn, ccn_attachment_v2, cfs_access_rule, placement_group, security_group(_rule_set), subnet,
     vpc; cfs_access_group has none. Left out: cfs ccn_id/cidr_block/net_interface and placement
     group strategy/partition_count, whose update the provider refuses ("cannot be changed")
     instead of replacing.
  H  huaweicloud/terraform-provider-huaweicloud `ForceNew: true`, in huaweicloud/services/:
     sfsturbo/resource_huaweicloud_sfs_turbo.go, ecs/resource_huaweicloud_compute_instance.go
     (availability_zone, image, network count and port/IPv6, system disk type/KMS/IOPS, data
     disks, scheduler_hints group, EIP, spot price/duration; flavor resize, key pair and
     network uuid (changevpc) update in place), ecs/..._compute_servergroup.go,
     vpc/resource_huaweicloud_{vpc,vpc_subnet,networking_secgroup,networking_secgroup_rule}.go;
     keypair from docs/resources/compute_keypair.md. charging_mode/period/period_unit of the
     instance and SFS Turbo: "Changing this creates a new instance" in the installed
     pulumi-huaweicloud 0.0.12 docstrings (newer provider source changes postPaid->prePaid in
     place, so listing it errs toward warning).
  V  volcengine/terraform-provider-volcengine: volcengine/vepfs/*/resource_volcengine_vepfs_*.go
     `ForceNew: true` (file system: subnet_id, store_type, project; capacity expands in place);
     website/docs/r/{ecs_instance,ecs_deployment_set,ecs_key_pair,vpc,subnet,security_group,
     security_group_rule}.html.markdown "(ForceNew)" (instance: zone_id, subnet_id, spot_strategy,
     spot_price_limit, system_volume_type, ...; image_id and instance_type update in place).
     The vePFS has no zone input: a new zone replaces the subnet, whose new id replaces it.
  B  Our own Baidu dynamic providers (components/baiducloud): `BaiduProvider.diff` replaces on
     every changed input in the provider's `INPUTS` except `UPDATABLE` (in place) and
     `CREATE_ONLY` (ignored); the lists are read from the provider classes, never copied.
  L, Q, H and V list only inputs the installed Pulumi SDK has (e.g. not Tencent CFS
  `encrypted` or CCN `instance_metering_type`, which are ForceNew in newer providers). Every
  type the five Chinese components create has a sourced entry (empty when nothing replaces).
"""

from __future__ import annotations

from components.baiducloud.bcc_provider import BccInstanceProvider
from components.baiducloud.dynamic_base import BaiduProvider
from components.baiducloud.network_provider import SecurityGroupProvider, SubnetProvider, VpcProvider
from components.baiducloud.placement_provider import DeploySetProvider, EhcClusterProvider, KeypairProvider
from trainstack.mock_baiducloud import TYPE_PREFIX as BAIDU_DYNAMIC

# Baidu dynamic resource name (`pulumi-python:dynamic/baiducloud:<name>`) -> its provider (source B).
BAIDU_PROVIDERS: dict[str, type[BaiduProvider]] = {
    "BccInstance": BccInstanceProvider,
    "Vpc": VpcProvider,
    "Subnet": SubnetProvider,
    "SecurityGroup": SecurityGroupProvider,
    "DeploySet": DeploySetProvider,
    "EhcCluster": EhcClusterProvider,
    "Keypair": KeypairProvider,
}


def baidu_replace_inputs(provider: type[BaiduProvider]) -> tuple[str, ...]:
    """The inputs whose change makes a Baidu provider's `diff` replace (source B)."""
    kept = {*provider.UPDATABLE, *provider.CREATE_ONLY}
    return tuple(key for key in provider.INPUTS if key not in kept)


# Replace-on-change input paths per type (format: `trainstack.replacements`).
CHINA_REPLACE_ON_CHANGE: dict[str, tuple[str, ...]] = {
    # Alibaba Cloud (source L)
    "alicloud:nas/fileSystem:FileSystem": (
        "storageType",
        "zoneId",
        "vpcId",
        "vswitchId",
        "protocolType",
        "fileSystemType",
        "encryptType",
        "kmsKeyId",
    ),
    "alicloud:ecs/instance:Instance": (
        "availabilityZone",
        "spotStrategy",
        "spotPriceLimit",
        "systemDiskCategory",
        "systemDiskEncrypted",
        "systemDiskKmsKeyId",
        "systemDiskEncryptAlgorithm",
        "systemDiskStorageClusterId",
        "networkInterfaceTrafficMode",
        "networkCardIndex",
        "queuePairNumber",
        "networkInterfaces",
        "dataDisks[].name",
        "dataDisks[].size",
        "dataDisks[].category",
        "dataDisks[].encrypted",
        "dataDisks[].snapshotId",
        "dataDisks[].autoSnapshotPolicyId",
        "dataDisks[].deleteWithInstance",
        "dataDisks[].description",
        "dataDisks[].device",
        "roleName",
        "hpcClusterId",
        "dedicatedHostId",
        "launchTemplateId",
        "launchTemplateName",
        "launchTemplateVersion",
        "securityEnhancementStrategy",
        "ipv6AddressCount",
        "ipv6Addresses",
        "httpPutResponseHopLimit",
        "imageOptions.loginAsNonRoot",
    ),
    "alicloud:ecs/ecsDeploymentSet:EcsDeploymentSet": ("domain", "granularity", "strategy"),
    "alicloud:ecs/securityGroup:SecurityGroup": ("securityGroupType", "vpcId"),
    "alicloud:ecs/securityGroupRule:SecurityGroupRule": (
        "type",
        "ipProtocol",
        "nicType",
        "policy",
        "portRange",
        "priority",
        "securityGroupId",
        "cidrIp",
        "sourceSecurityGroupId",
        "sourceGroupOwnerAccount",
    ),
    "alicloud:nas/mountTarget:MountTarget": ("fileSystemId", "networkType", "vswitchId", "vpcId"),
    "alicloud:vpc/network:Network": ("ipv6CidrBlock", "userCidrs"),
    "alicloud:vpc/switch:Switch": ("cidrBlock", "vpcId", "zoneId", "availabilityZone"),
    # Tencent Cloud (source Q)
    "tencentcloud:Cfs/fileSystem:FileSystem": (
        "availabilityZone",
        "protocol",
        "storageType",
        "vpcId",
        "subnetId",
        "mountIp",
    ),
    "tencentcloud:Instance/instance:Instance": (
        "availabilityZone",
        "spotMaxPrice",
        "dedicatedClusterId",
        "cdhHostId",
        "hpcClusterId",
        "allocatePublicIp",
        "ipv4AddressType",
        "ipv6AddressType",
        "ipv6AddressCount",
        "antiDdosPackageId",
        "launchTemplateId",
        "launchTemplateVersion",
        "dataDisks#",
        "dataDisks[].dataDiskType",
        "dataDisks[].dataDiskSnapshotId",
        "dataDisks[].deleteWithInstance",
        "dataDisks[].deleteWithInstancePrepaid",
        "dataDisks[].kmsKeyId",
        "dataDisks[].encrypt",
        "dataDisks[].throughputPerformance",
    ),
    "tencentcloud:Ccn/instance:Instance": ("qos", "chargeType"),
    "tencentcloud:Ccn/attachmentV2:AttachmentV2": (
        "ccnId",
        "instanceId",
        "instanceRegion",
        "instanceType",
        "routeTableId",
        "ccnUin",
    ),
    "tencentcloud:Cfs/accessGroup:AccessGroup": (),
    "tencentcloud:Cfs/accessRule:AccessRule": ("accessGroupId",),
    "tencentcloud:Placement/group:Group": ("type", "affinity"),
    "tencentcloud:Security/group:Group": ("projectId",),
    "tencentcloud:Security/groupRuleSet:GroupRuleSet": ("securityGroupId",),
    "tencentcloud:Subnet/instance:Instance": ("vpcId", "availabilityZone", "cidrBlock"),
    "tencentcloud:Vpc/instance:Instance": ("cidrBlock",),
    # Huawei Cloud (source H)
    "huaweicloud:Sfs/turbo:Turbo": (
        "region",
        "availabilityZone",
        "vpcId",
        "subnetId",
        "shareProto",
        "shareType",
        "hpcBandwidth",
        "cryptKeyId",
        "enhanced",
        "enterpriseProjectId",
        "dedicatedFlavor",
        "dedicatedStorageId",
        "backupId",
        "chargingMode",
        "period",
        "periodUnit",
    ),
    "huaweicloud:Ecs/instance:Instance": (
        "region",
        "availabilityZone",
        "imageId",
        "imageName",
        "chargingMode",
        "period",
        "periodUnit",
        "networks#",
        "networks[].port",
        "networks[].ipv6Enable",
        "networks[].fixedIpV6",
        "systemDiskType",
        "systemDiskKmsKeyId",
        "systemDiskIops",
        "systemDiskThroughput",
        "systemDiskDssPoolId",
        "dataDisks",
        "schedulerHints[].group",
        "eipId",
        "eipType",
        "bandwidth",
        "spotMaximumPrice",
        "spotDuration",
        "spotDurationCount",
        "userId",
    ),
    "huaweicloud:Ecs/keypair:Keypair": ("region", "publicKey", "keyFile"),
    "huaweicloud:Ecs/servergroup:Servergroup": ("region", "policies"),
    "huaweicloud:Vpc/secgroup:Secgroup": ("region", "enterpriseProjectId", "deleteDefaultRules"),
    "huaweicloud:Vpc/secgroupRule:SecgroupRule": (
        "region",
        "direction",
        "ethertype",
        "securityGroupId",
        "portRangeMin",
        "portRangeMax",
        "ports",
        "protocol",
        "remoteGroupId",
        "remoteAddressGroupId",
        "remoteIpPrefix",
        "action",
        "priority",
        "description",
    ),
    "huaweicloud:Vpc/subnet:Subnet": ("region", "availabilityZone", "vpcId", "cidr", "gatewayIp"),
    "huaweicloud:Vpc/vpc:Vpc": ("region",),
    # Volcengine (source V)
    "volcengine:vepfs/fileSystem:FileSystem": ("subnetId", "storeType", "project"),
    "volcengine:vepfs/mountService:MountService": ("subnetId", "nodeType", "project"),
    "volcengine:vepfs/mountServiceAttachment:MountServiceAttachment": (
        "mountServiceId",
        "fileSystemId",
        "customerPath",
    ),
    "volcengine:ecs/instance:Instance": (
        "zoneId",
        "subnetId",
        "spotStrategy",
        "spotPriceLimit",
        "systemVolumeType",
        "hostName",
        "hpcClusterId",
        "securityEnhancementStrategy",
        "eipId",
        "eipAddress",
        "ipv6AddressCount",
        "ipv6Addresses",
        "primaryIpAddress",
        "secondaryNetworkInterfaces",
        "cpuOptions.numaPerSocket",
        "cpuOptions.threadsPerCore",
        "dataVolumes",
    ),
    "volcengine:ecs/deploymentSet:DeploymentSet": ("granularity", "strategy"),
    "volcengine:ecs/keyPair:KeyPair": ("keyPairName", "keyFile", "publicKey"),
    "volcengine:vpc/securityGroup:SecurityGroup": ("vpcId",),
    "volcengine:vpc/securityGroupRule:SecurityGroupRule": (
        "direction",
        "portStart",
        "portEnd",
        "protocol",
        "securityGroupId",
        "cidrIp",
        "policy",
        "priority",
        "sourceGroupId",
    ),
    "volcengine:vpc/subnet:Subnet": ("cidrBlock", "vpcId", "zoneId"),
    "volcengine:vpc/vpc:Vpc": ("cidrBlock",),
    # Baidu AI Cloud, our dynamic providers (source B): every input but the in-place ones
    **{f"{BAIDU_DYNAMIC}{name}": baidu_replace_inputs(provider) for name, provider in BAIDU_PROVIDERS.items()},
}
# Types whose `name` input the provider changes in place, an exception to rule N: Tencent
# (ModifyCcnAttribute, ModifyFileSystemName, UpdateCfsPGroup, ModifyDisasterRecoverGroupAttribute,
# ModifySecurityGroupAttribute, ModifySubnetAttribute, ModifyVpcAttribute), Alibaba's deprecated
# `name` of vswitch/VPC/security group (source L), and Baidu types with `name` in `UPDATABLE` (B).
CHINA_NAME_IN_PLACE: frozenset[str] = frozenset(
    {
        "tencentcloud:Ccn/instance:Instance",
        "tencentcloud:Cfs/fileSystem:FileSystem",
        "tencentcloud:Cfs/accessGroup:AccessGroup",
        "tencentcloud:Placement/group:Group",
        "tencentcloud:Security/group:Group",
        "tencentcloud:Subnet/instance:Instance",
        "tencentcloud:Vpc/instance:Instance",
        "alicloud:vpc/switch:Switch",
        "alicloud:vpc/network:Network",
        "alicloud:ecs/securityGroup:SecurityGroup",
        *(f"{BAIDU_DYNAMIC}{name}" for name, provider in BAIDU_PROVIDERS.items() if "name" in provider.UPDATABLE),
    }
)
