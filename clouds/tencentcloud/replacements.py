"""Replace-on-change inputs of Tencent Cloud's resources (format and rule N: `trainstack.review.replacements`).

Sources:
  Q  tencentcloudstack/terraform-provider-tencentcloud `ForceNew: true`, in
     tencentcloud/services/<svc>/resource_tc_<x>.go: cfs_file_system (availability_zone,
     protocol, storage_type, vpc/subnet, mount_ip; capacity scales up in place); cvm instance
     (availability_zone, spot_max_price, data_disks count and fields, ...; image_id (ResetInstance),
     instance_type, vpc/subnet, instance_charge_type and spot_instance_type are not ForceNew);
     ccn, ccn_attachment_v2, cfs_access_rule, placement_group, security_group(_rule_set), subnet,
     vpc; cfs_access_group has none. Left out: cfs ccn_id/cidr_block/net_interface and placement
     group strategy/partition_count, whose update the provider refuses ("cannot be changed")
     instead of replacing.
"""

from __future__ import annotations

from clouds.base import Replacements

REPLACEMENTS = Replacements(
    replace_on_change={
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
    },
    # `name` changes in place (ModifyCcnAttribute, ModifyFileSystemName, UpdateCfsPGroup,
    # ModifyDisasterRecoverGroupAttribute, ModifySecurityGroupAttribute, ModifySubnetAttribute,
    # ModifyVpcAttribute), an exception to rule N.
    name_in_place=frozenset(
        {
            "tencentcloud:Ccn/instance:Instance",
            "tencentcloud:Cfs/fileSystem:FileSystem",
            "tencentcloud:Cfs/accessGroup:AccessGroup",
            "tencentcloud:Placement/group:Group",
            "tencentcloud:Security/group:Group",
            "tencentcloud:Subnet/instance:Instance",
            "tencentcloud:Vpc/instance:Instance",
        }
    ),
)
