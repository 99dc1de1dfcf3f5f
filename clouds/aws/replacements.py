"""Replace-on-change inputs of AWS's resources (format and rule N: `trainstack.review.replacements`).

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
     storage_capacity when it shrinks (CustomizeDiff); efa_enabled ("must be set at creation
     ... cannot be changed", pulumi-aws LustreFileSystem docs).
"""

from __future__ import annotations

from clouds.base import NodeEffect, Replacements

REPLACEMENTS = Replacements(
    replace_on_change={
        "aws:ec2/instance:Instance": (
            "ami",
            "availabilityZone",
            "subnetId",
            "placementGroup",
            "placementPartitionNumber",
            "keyName",
            "privateIp",
            "associatePublicIpAddress",
            "ebsOptimized",
            "hibernation",
            "tenancy",
            "hostId",
            "securityGroups",
            "ipv6AddressCount",
            "ipv6Addresses",
            "cpuOptions",
            "ephemeralBlockDevices",
            "ebsBlockDevices",
            "rootBlockDevice.encrypted",
            "rootBlockDevice.kmsKeyId",
            "launchTemplate.id",
            "launchTemplate.name",
            "launchTemplate.version",
            "instanceMarketOptions",
            "networkInterfaces",
            "enclaveOptions",
            "privateDnsNameOptions",
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
            "subnetIds",
            "securityGroupIds",
            "deploymentType",
            "storageType",
            "kmsKeyId",
            "perUnitStorageThroughput",
            "driveCacheType",
            "fileSystemTypeVersion",
            "importPath",
            "exportPath",
            "importedFileChunkSize",
            "backupId",
            "copyTagsToBackups",
            "efaEnabled",
        ),
        # aws_autoscaling_group: only the name is ForceNew; size, subnets, placement group, launch
        # template and mixed instances policy update in place (source A).
        "aws:autoscaling/group:Group": ("name", "namePrefix"),
        # internal/service/autoscaling/schedule.go: the action's name and its group are ForceNew
        # (source A, as remembered from the provider source; not re-read this session). A replaced
        # schedule holds no state, so erring toward "replace" only warns.
        "aws:autoscaling/schedule:Schedule": ("scheduledActionName", "autoscalingGroupName"),
        "aws:iam/role:Role": ("name", "namePrefix", "path"),
        "aws:iam/rolePolicy:RolePolicy": ("name", "namePrefix", "role"),
        # internal/service/fsx/data_repository_association.go: ForceNew
        "aws:fsx/dataRepositoryAssociation:DataRepositoryAssociation": (
            "fileSystemId",
            "fileSystemPath",
            "dataRepositoryPath",
            "batchImportMetaDataOnCreate",
        ),
        "aws:iam/instanceProfile:InstanceProfile": ("name", "namePrefix", "path"),
        "aws:iam/rolePolicyAttachment:RolePolicyAttachment": ("role", "policyArn"),
    },
    replace_on_decrease={
        "aws:fsx/lustreFileSystem:LustreFileSystem": ("storageCapacity",),
    },
    # An EC2 instance pins `launchTemplate.version` to the template's latest version, which
    # every template update bumps (source A, launch_template.version ForceNew).
    cascades=(
        (
            "aws:ec2/instance:Instance",
            "launchTemplate.version",
            "aws:ec2/launchTemplate:LaunchTemplate",
            "launchTemplate.id",
        ),
    ),
    # What a change does to running nodes (the review says it). terraform-provider-aws
    # aws_autoscaling_group `instance_refresh`: "A refresh will always be triggered by a
    # change in any of launch_configuration, launch_template, or mixed_instances_policy"
    # (plus `triggers`, which the component leaves empty); the group follows the template's
    # `$Latest`, so a template change (tags, user data) alone changes no group input.
    node_effects={
        "aws:autoscaling/group:Group": NodeEffect(
            rolls=("mixedInstancesPolicy", "launchTemplate", "launchConfiguration"),
            resizes=("desiredCapacity", "minSize", "maxSize"),
            rolled="the instance refresh replaces every node at once (0 % kept healthy); the job "
            "restarts from its last checkpoint",
            kept="no running node is replaced: an instance refresh starts only when the launch "
            "template, instance type or purchase option of the group changes",
        ),
        "aws:ec2/launchTemplate:LaunchTemplate": NodeEffect(
            rolled="a new launch template: the group's template changes, so its instance refresh replaces every node",
            kept="a new template version: nodes launched from now on (replacements) use it; running nodes keep theirs",
        ),
    },
)
