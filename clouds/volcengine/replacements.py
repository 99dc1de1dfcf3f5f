"""Replace-on-change inputs of Volcengine's resources (format and rule N: `trainstack.review.replacements`).

Sources:
  V  volcengine/terraform-provider-volcengine: volcengine/vepfs/*/resource_volcengine_vepfs_*.go
     `ForceNew: true` (file system: subnet_id, store_type, project; capacity expands in place);
     website/docs/r/{ecs_instance,ecs_deployment_set,ecs_key_pair,vpc,subnet,security_group,
     security_group_rule}.html.markdown "(ForceNew)" (instance: zone_id, subnet_id, spot_strategy,
     spot_price_limit, system_volume_type, ...; image_id and instance_type update in place).
     The vePFS has no zone input: a new zone replaces the subnet, whose new id replaces it.
     website/docs/r/scaling_group.html.markdown at 0858453 (db_instance_ids, scaling_mode
     ForceNew; sizes and subnet_ids in place), scaling_configuration.html.markdown at 1294e5c
     (scaling_group_id ForceNew; image, types, volumes, key pair, spot strategy, user data in
     place, used by instances created afterwards), scaling_configuration_attachment at 1da1328
     (scaling_configuration_id ForceNew), scaling_group_enabler at 1294e5c (scaling_group_id).
"""

from __future__ import annotations

from clouds.base import NodeEffect, Replacements

GROUP = "volcengine:autoscaling/scalingGroup:ScalingGroup"
CONFIGURATION = "volcengine:autoscaling/scalingConfiguration:ScalingConfiguration"

REPLACEMENTS = Replacements(
    replace_on_change={
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
        # subnetIds: the component's own `replace_on_changes` (components/volcengine/scaling.py
        # GROUP_REPLACED_ON); the provider alone would update it in place.
        GROUP: ("dbInstanceIds", "scalingMode", "subnetIds"),
        CONFIGURATION: ("scalingGroupId",),
        "volcengine:autoscaling/scalingConfigurationAttachment:ScalingConfigurationAttachment": (
            "scalingConfigurationId",
        ),
        "volcengine:autoscaling/scalingGroupEnabler:ScalingGroupEnabler": ("scalingGroupId",),
    },
    # What a change does to running nodes (source V, scaling docs): sizes add or remove nodes; a
    # new group is new nodes; the configuration is what the group's next instances are made from.
    node_effects={
        GROUP: NodeEffect(
            resizes=("minInstanceNumber", "maxInstanceNumber", "desireInstanceNumber"),
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
