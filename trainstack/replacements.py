"""Which input changes make the provider replace a resource instead of updating it.

Pulumi's Python SDKs do not expose the providers' replace-on-change metadata, so this is a
documented per-type list of input paths (camelCase, dotted into nested objects, `[]` for any
list element). A change at a listed path, inside it, or to an object holding it means
"replace". A path ending in `#` replaces only when the list is added, removed or changes
length (a Terraform `ForceNew` list whose elements have their own, updatable fields).

Sources:
  A  hashicorp/terraform-provider-aws (bridged by pulumi-aws): `ForceNew: true` fields and
     CustomizeDiff `ForceNew` calls. internal/service/ec2/ec2_instance.go: ami,
     availability_zone, subnet_id, placement_group, key_name, launch_template id/name, and
     launch_template.version whenever it differs from the instance's running version;
     instance_market_options (newer releases). instance_type is NOT ForceNew: the provider
     stops, modifies and starts the instance. internal/service/fsx/lustre_file_system.go:
     subnet_ids, security_group_ids, deployment_type, storage_type, kms_key_id,
     per_unit_storage_throughput (ForceNew in the provider source read; newer releases may
     update it in place, so listing it errs toward warning), drive_cache_type,
     file_system_type_version, import/export paths, backup_id, copy_tags_to_backups; and
     storage_capacity when it shrinks (CustomizeDiff).
  G  GoogleCloudPlatform/magic-modules and terraform-provider-google (bridged by pulumi-gcp):
     compute instance boot_disk, name, zone, scheduling.provisioning_model / preemptible,
     network_interface (the list) and its nic_type / queue_count are ForceNew; its network
     and subnetwork are updated in place; machine_type is updated with
     allow_stopping_for_update; mmv1/products/tpuv2/Vm.yaml and filestore/Instance.yaml
     `immutable: true` properties.
  Z  pulumi-azure-native schema `willReplaceOnChanges` (e.g. storagecache AmlFilesystem:
     filesystemSubnet, identity, location, sku, storageCapacityTiB, zones; compute
     VirtualMachineScaleSet: resourceGroupName, vmScaleSetName). ARM cannot move a resource
     to another region or resource group, so `location` and `resourceGroupName` count as
     replacing on every azure-native type.
  T  hashicorp/terraform-provider-tls private_key: algorithm, rsa_bits, ecdsa_curve are ForceNew.
  N  Autonaming: a changed `name` of any resource means a new physical resource, except on
     the types in `NAME_IN_PLACE`, whose provider renames in place (sources L, Q, B).
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

import re
from typing import Any

from components.baiducloud.bcc_provider import BccInstanceProvider
from components.baiducloud.dynamic_base import BaiduProvider
from components.baiducloud.network_provider import SecurityGroupProvider, SubnetProvider, VpcProvider
from components.baiducloud.placement_provider import DeploySetProvider, EhcClusterProvider, KeypairProvider
from trainstack.mock_baiducloud import TYPE_PREFIX as BAIDU_DYNAMIC

# Baidu dynamic resource name (`pulumi-python:dynamic/baiducloud:<name>`) -> its provider (source B).
BAIDU_PROVIDERS: dict[str, type[BaiduProvider]] = {
    "BccInstance": BccInstanceProvider, "Vpc": VpcProvider, "Subnet": SubnetProvider,
    "SecurityGroup": SecurityGroupProvider, "DeploySet": DeploySetProvider,
    "EhcCluster": EhcClusterProvider, "Keypair": KeypairProvider,
}


def baidu_replace_inputs(provider: type[BaiduProvider]) -> tuple[str, ...]:
    """The inputs whose change makes a Baidu provider's `diff` replace (source B)."""
    kept = {*provider.UPDATABLE, *provider.CREATE_ONLY}
    return tuple(key for key in provider.INPUTS if key not in kept)


REPLACE_ON_CHANGE: dict[str, tuple[str, ...]] = {
    # AWS (source A)
    "aws:ec2/instance:Instance": (
        "ami", "availabilityZone", "subnetId", "placementGroup", "placementPartitionNumber", "keyName",
        "privateIp", "associatePublicIpAddress", "ebsOptimized", "hibernation", "tenancy", "hostId",
        "securityGroups", "ipv6AddressCount", "ipv6Addresses", "cpuOptions", "ephemeralBlockDevices",
        "ebsBlockDevices", "rootBlockDevice.encrypted", "rootBlockDevice.kmsKeyId", "launchTemplate.id",
        "launchTemplate.name", "launchTemplate.version", "instanceMarketOptions", "networkInterfaces",
        "enclaveOptions", "privateDnsNameOptions",
    ),
    "aws:ec2/launchTemplate:LaunchTemplate": ("name", "namePrefix"),  # other changes add a version
    "aws:ec2/placementGroup:PlacementGroup": ("name", "strategy", "partitionCount", "spreadLevel"),
    "aws:ec2/securityGroup:SecurityGroup": ("name", "namePrefix", "description", "vpcId"),
    "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule": ("securityGroupId",),
    "aws:vpc/securityGroupEgressRule:SecurityGroupEgressRule": ("securityGroupId",),
    "aws:ec2/vpc:Vpc": ("cidrBlock", "ipv4IpamPoolId"),
    "aws:ec2/subnet:Subnet": ("vpcId", "cidrBlock", "availabilityZone", "availabilityZoneId", "outpostArn"),
    "aws:ec2/eip:Eip": ("domain", "address", "publicIpv4Pool", "networkBorderGroup"),
    "aws:ec2/natGateway:NatGateway": ("allocationId", "subnetId", "connectivityType", "privateIp"),
    "aws:ec2/routeTable:RouteTable": ("vpcId",),
    "aws:ec2/routeTableAssociation:RouteTableAssociation": ("subnetId", "gatewayId"),
    "aws:ec2/vpcEndpoint:VpcEndpoint": ("vpcId", "serviceName", "vpcEndpointType"),
    "aws:fsx/lustreFileSystem:LustreFileSystem": (
        "subnetIds", "securityGroupIds", "deploymentType", "storageType", "kmsKeyId",
        "perUnitStorageThroughput", "driveCacheType", "fileSystemTypeVersion", "importPath", "exportPath",
        "importedFileChunkSize", "backupId", "copyTagsToBackups",
    ),
    "aws:iam/role:Role": ("name", "namePrefix", "path"),
    "aws:iam/instanceProfile:InstanceProfile": ("name", "namePrefix", "path"),
    "aws:iam/rolePolicyAttachment:RolePolicyAttachment": ("role", "policyArn"),
    # Google Cloud (source G)
    "gcp:compute/instance:Instance": (
        "name", "zone", "bootDisk", "networkInterfaces#", "networkInterfaces[].nicType",
        "networkInterfaces[].queueCount", "networkPerformanceConfig", "scheduling.provisioningModel",
        "scheduling.preemptible",
    ),
    "gcp:tpu/v2Vm:V2Vm": (
        "name", "zone", "runtimeVersion", "acceleratorType", "acceleratorConfig", "cidrBlock", "networkConfig",
        "networkConfigs", "serviceAccount", "schedulingConfig", "shieldedInstanceConfig",
    ),
    "gcp:filestore/instance:Instance": (
        "name", "zone", "location", "tier", "protocol", "networks", "fileShares.name", "fileShares.sourceBackup",
        "kmsKeyName", "tags",
    ),
    "gcp:compute/network:Network": ("name", "autoCreateSubnetworks"),
    "gcp:compute/subnetwork:Subnetwork": ("name", "network", "region"),
    "gcp:compute/firewall:Firewall": ("name", "network", "direction"),
    "gcp:compute/router:Router": ("name", "network", "region"),
    "gcp:compute/routerNat:RouterNat": ("name", "router", "region"),
    "gcp:compute/globalAddress:GlobalAddress": ("name", "address", "addressType", "network", "prefixLength", "purpose"),
    "gcp:compute/resourcePolicy:ResourcePolicy": ("name", "region", "groupPlacementPolicy"),
    "gcp:serviceaccount/account:Account": ("accountId",),
    "gcp:projects/iAMMember:IAMMember": ("member", "role", "project"),
    "gcp:servicenetworking/connection:Connection": ("network", "service"),
    # Azure (source Z)
    "azure-native:storagecache:AmlFilesystem": (
        "amlFilesystemName", "filesystemSubnet", "identity", "sku", "storageCapacityTiB", "zones",
    ),
    "azure-native:compute:VirtualMachineScaleSet": (
        "vmScaleSetName",
        # Spot <-> Regular cannot be changed in place: "setting the Spot flag is only
        # supported at creation time" (MicrosoftDocs azure-docs virtual-machine-scale-sets/
        # use-spot.md, FAQ; Azure/azure-cli#11187). terraform-provider-azurerm: `priority`
        # and `eviction_policy` ForceNew on azurerm_linux_virtual_machine_scale_set.
        "virtualMachineProfile.priority", "virtualMachineProfile.evictionPolicy",
    ),
    # A NAT gateway's zone "can't be changed" after deployment (azure-docs nat-gateway/
    # nat-overview.md); public IP: azure-native forceNewMap (provider/pkg/gen/replacement.go).
    "azure-native:network:NatGateway": ("natGatewayName", "zones"),
    "azure-native:network:PublicIPAddress": (
        "publicIpAddressName", "publicIPAddressVersion", "publicIPPrefix", "sku",
    ),
    "azure-native:network:Subnet": ("subnetName", "virtualNetworkName"),
    "azure-native:network:VirtualNetwork": ("virtualNetworkName",),
    "azure-native:network:NetworkSecurityGroup": ("networkSecurityGroupName",),
    "azure-native:compute:ProximityPlacementGroup": ("proximityPlacementGroupName",),
    # TLS (source T)
    "tls:index/privateKey:PrivateKey": ("algorithm", "rsaBits", "ecdsaCurve"),
    # Alibaba Cloud (source L)
    "alicloud:nas/fileSystem:FileSystem": (
        "storageType", "zoneId", "vpcId", "vswitchId", "protocolType", "fileSystemType", "encryptType", "kmsKeyId",
    ),
    "alicloud:ecs/instance:Instance": (
        "availabilityZone", "spotStrategy", "spotPriceLimit", "systemDiskCategory", "systemDiskEncrypted",
        "systemDiskKmsKeyId", "systemDiskEncryptAlgorithm", "systemDiskStorageClusterId", "networkInterfaceTrafficMode",
        "networkCardIndex", "queuePairNumber", "networkInterfaces", "dataDisks[].name", "dataDisks[].size",
        "dataDisks[].category", "dataDisks[].encrypted", "dataDisks[].snapshotId", "dataDisks[].autoSnapshotPolicyId",
        "dataDisks[].deleteWithInstance", "dataDisks[].description", "dataDisks[].device", "roleName", "hpcClusterId",
        "dedicatedHostId", "launchTemplateId", "launchTemplateName", "launchTemplateVersion",
        "securityEnhancementStrategy", "ipv6AddressCount", "ipv6Addresses", "httpPutResponseHopLimit",
        "imageOptions.loginAsNonRoot",
    ),
    "alicloud:ecs/ecsDeploymentSet:EcsDeploymentSet": ("domain", "granularity", "strategy"),
    "alicloud:ecs/securityGroup:SecurityGroup": ("securityGroupType", "vpcId"),
    "alicloud:ecs/securityGroupRule:SecurityGroupRule": (
        "type", "ipProtocol", "nicType", "policy", "portRange", "priority", "securityGroupId", "cidrIp",
        "sourceSecurityGroupId", "sourceGroupOwnerAccount",
    ),
    "alicloud:nas/mountTarget:MountTarget": ("fileSystemId", "networkType", "vswitchId", "vpcId"),
    "alicloud:vpc/network:Network": ("ipv6CidrBlock", "userCidrs"),
    "alicloud:vpc/switch:Switch": ("cidrBlock", "vpcId", "zoneId", "availabilityZone"),
    # Tencent Cloud (source Q)
    "tencentcloud:Cfs/fileSystem:FileSystem": (
        "availabilityZone", "protocol", "storageType", "vpcId", "subnetId", "mountIp",
    ),
    "tencentcloud:Instance/instance:Instance": (
        "availabilityZone", "spotMaxPrice", "dedicatedClusterId", "cdhHostId", "hpcClusterId", "allocatePublicIp",
        "ipv4AddressType", "ipv6AddressType", "ipv6AddressCount", "antiDdosPackageId", "launchTemplateId",
        "launchTemplateVersion", "dataDisks#", "dataDisks[].dataDiskType", "dataDisks[].dataDiskSnapshotId",
        "dataDisks[].deleteWithInstance", "dataDisks[].deleteWithInstancePrepaid", "dataDisks[].kmsKeyId",
        "dataDisks[].encrypt", "dataDisks[].throughputPerformance",
    ),
    "tencentcloud:Ccn/instance:Instance": ("qos", "chargeType"),
    "tencentcloud:Ccn/attachmentV2:AttachmentV2": (
        "ccnId", "instanceId", "instanceRegion", "instanceType", "routeTableId", "ccnUin",
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
        "region", "availabilityZone", "vpcId", "subnetId", "shareProto", "shareType", "hpcBandwidth", "cryptKeyId",
        "enhanced", "enterpriseProjectId", "dedicatedFlavor", "dedicatedStorageId", "backupId", "chargingMode",
        "period", "periodUnit",
    ),
    "huaweicloud:Ecs/instance:Instance": (
        "region", "availabilityZone", "imageId", "imageName", "chargingMode", "period", "periodUnit",
        "networks#", "networks[].port", "networks[].ipv6Enable", "networks[].fixedIpV6", "systemDiskType",
        "systemDiskKmsKeyId", "systemDiskIops", "systemDiskThroughput", "systemDiskDssPoolId", "dataDisks",
        "schedulerHints[].group", "eipId", "eipType", "bandwidth", "spotMaximumPrice", "spotDuration",
        "spotDurationCount", "userId",
    ),
    "huaweicloud:Ecs/keypair:Keypair": ("region", "publicKey", "keyFile"),
    "huaweicloud:Ecs/servergroup:Servergroup": ("region", "policies"),
    "huaweicloud:Vpc/secgroup:Secgroup": ("region", "enterpriseProjectId", "deleteDefaultRules"),
    "huaweicloud:Vpc/secgroupRule:SecgroupRule": (
        "region", "direction", "ethertype", "securityGroupId", "portRangeMin", "portRangeMax", "ports", "protocol",
        "remoteGroupId", "remoteAddressGroupId", "remoteIpPrefix", "action", "priority", "description",
    ),
    "huaweicloud:Vpc/subnet:Subnet": ("region", "availabilityZone", "vpcId", "cidr", "gatewayIp"),
    "huaweicloud:Vpc/vpc:Vpc": ("region",),
    # Volcengine (source V)
    "volcengine:vepfs/fileSystem:FileSystem": ("subnetId", "storeType", "project"),
    "volcengine:vepfs/mountService:MountService": ("subnetId", "nodeType", "project"),
    "volcengine:vepfs/mountServiceAttachment:MountServiceAttachment": (
        "mountServiceId", "fileSystemId", "customerPath",
    ),
    "volcengine:ecs/instance:Instance": (
        "zoneId", "subnetId", "spotStrategy", "spotPriceLimit", "systemVolumeType", "hostName", "hpcClusterId",
        "securityEnhancementStrategy", "eipId", "eipAddress", "ipv6AddressCount", "ipv6Addresses", "primaryIpAddress",
        "secondaryNetworkInterfaces", "cpuOptions.numaPerSocket", "cpuOptions.threadsPerCore", "dataVolumes",
    ),
    "volcengine:ecs/deploymentSet:DeploymentSet": ("granularity", "strategy"),
    "volcengine:ecs/keyPair:KeyPair": ("keyPairName", "keyFile", "publicKey"),
    "volcengine:vpc/securityGroup:SecurityGroup": ("vpcId",),
    "volcengine:vpc/securityGroupRule:SecurityGroupRule": (
        "direction", "portStart", "portEnd", "protocol", "securityGroupId", "cidrIp", "policy", "priority",
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
NAME_IN_PLACE: frozenset[str] = frozenset({
    "tencentcloud:Ccn/instance:Instance", "tencentcloud:Cfs/fileSystem:FileSystem",
    "tencentcloud:Cfs/accessGroup:AccessGroup", "tencentcloud:Placement/group:Group",
    "tencentcloud:Security/group:Group", "tencentcloud:Subnet/instance:Instance", "tencentcloud:Vpc/instance:Instance",
    "alicloud:vpc/switch:Switch", "alicloud:vpc/network:Network", "alicloud:ecs/securityGroup:SecurityGroup",
    *(f"{BAIDU_DYNAMIC}{name}" for name, provider in BAIDU_PROVIDERS.items() if "name" in provider.UPDATABLE),
})
AZURE_NATIVE = ("location", "resourceGroupName")
_ANY_INDEX = re.compile(r"\[\d+\]")
# Replace only when the new number is smaller (source A, CustomizeDiff).
REPLACE_ON_DECREASE: dict[str, tuple[str, ...]] = {
    "aws:fsx/lustreFileSystem:LustreFileSystem": ("storageCapacity",),
}
# (dependent type, input path, referenced type, id path): in a real deployment the input
# changes whenever the referenced resource is updated, though the mocks give it the same
# value. An EC2 instance pins `launchTemplate.version` to the template's latest version,
# which every template update bumps (source A, launch_template.version ForceNew).
CASCADES: tuple[tuple[str, str, str, str], ...] = (
    ("aws:ec2/instance:Instance", "launchTemplate.version", "aws:ec2/launchTemplate:LaunchTemplate",
     "launchTemplate.id"),
)


def replace_paths(kind: str) -> tuple[str, ...]:
    """Every replace-on-change input path of a resource type (see module docstring)."""
    generic = AZURE_NATIVE if kind.startswith("azure-native:") else ()
    named = () if kind in NAME_IN_PLACE else ("name",)
    return (*named, *generic, *REPLACE_ON_CHANGE.get(kind, ()))


def replace_keys(kind: str, changed: list[str], old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """The changed input paths that force a replacement.

    Args:
        kind: the resource type token.
        changed: dotted paths whose value differs between `old` and `new`.
        old: the inputs before.
        new: the inputs after.
    """
    listed = replace_paths(kind)
    found = [path for path in changed if any(_related(path, entry) for entry in listed)]
    for key in REPLACE_ON_DECREASE.get(kind, ()):
        before, after = old.get(key), new.get(key)
        if isinstance(before, (int, float)) and isinstance(after, (int, float)) and after < before:
            found.append(key)
    return sorted(set(found))


def _related(path: str, entry: str) -> bool:
    """True when `path` is `entry`, lies inside it, or is an object that holds it (see above)."""
    path = _ANY_INDEX.sub("[]", path)
    if entry.endswith("#"):
        base = entry[:-1]
        return path == base or base.startswith(path + ".")
    for inner, outer in ((path, entry), (entry, path)):
        if inner == outer or inner.startswith((outer + ".", outer + "[")):
            return True
    return False
