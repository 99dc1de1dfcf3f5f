"""Replace-on-change inputs of Alibaba Cloud's resources (format and rule N: `trainstack.review.replacements`).

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
  E  the same provider's ESS resources: resource_alicloud_ess_scaling_group.go at 08e0c70
     (scaling_group_name, instance_id, container_group_id, multi_az_policy, group_type;
     min/max/desired size, vswitch_ids, health checks and spot_instance_remedy update in place)
     and resource_alicloud_ess_scaling_configuration.go at 007b070 (scaling_group_id,
     security_enhancement_strategy, password, kms_encrypted_password; everything else,
     image, instance type, disks, interfaces, user data, key pair, RAM role, spot strategy,
     is ModifyScalingConfiguration in place, which only instances created afterwards use).
"""

from __future__ import annotations

from clouds.replacement_rules import NodeEffect, Replacements

GROUP = "alicloud:ess/scalingGroup:ScalingGroup"
CONFIGURATION = "alicloud:ess/scalingConfiguration:ScalingConfiguration"

REPLACEMENTS = Replacements(
    replace_on_change={
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
        # vswitchIds: the component's own `replace_on_changes` (components/alicloud/scaling.py
        # GROUP_REPLACED_ON); the provider alone would update it in place.
        GROUP: ("scalingGroupName", "instanceId", "containerGroupId", "multiAzPolicy", "groupType", "vswitchIds"),
        CONFIGURATION: ("scalingGroupId", "securityEnhancementStrategy", "password", "kmsEncryptedPassword"),
    },
    # The deprecated `name` of vswitch, VPC and security group updates in place (source L).
    name_in_place=frozenset(
        {
            "alicloud:vpc/switch:Switch",
            "alicloud:vpc/network:Network",
            "alicloud:ecs/securityGroup:SecurityGroup",
        }
    ),
    # What a change does to running nodes (source E): the group's size inputs add or remove
    # nodes; a new group (its name) is new nodes; the configuration, changed or replaced, is
    # what the group's next instances are made from: trainstack creates no ess.InstanceRefresh.
    # CPFS / Extreme NAS capacity is raised with UpgradeFileSystem, whose "desired capacity ...
    # must be greater than the original capacity" (Alibaba Cloud NAS API reference,
    # UpgradeFileSystem): a smaller one is refused, not a new file system.
    grows_only={"alicloud:nas/fileSystem:FileSystem": ("capacity",)},
    node_effects={
        GROUP: NodeEffect(
            resizes=("minSize", "maxSize", "desiredCapacity"),
            count="desiredCapacity",
            rolled="a new scaling group: every node is replaced; restart the job from its last checkpoint",
            kept="no running node is replaced: the group's other inputs change in place",
        ),
        CONFIGURATION: NodeEffect(
            rolled="a new scaling configuration: nodes created from now on (replacements) use it; running nodes keep theirs",
            kept="nodes created from now on (replacements) use the changed configuration; running nodes keep theirs",
            replace_keeps_nodes=True,
        ),
    },
)
