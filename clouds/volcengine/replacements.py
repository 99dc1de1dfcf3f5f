"""Replace-on-change inputs of Volcengine's resources (format and rule N: `trainstack.review.replacements`).

Sources:
  V  volcengine/terraform-provider-volcengine: volcengine/vepfs/*/resource_volcengine_vepfs_*.go
     `ForceNew: true` (file system: subnet_id, store_type, project; capacity expands in place);
     website/docs/r/{ecs_instance,ecs_deployment_set,ecs_key_pair,vpc,subnet,security_group,
     security_group_rule}.html.markdown "(ForceNew)" (instance: zone_id, subnet_id, spot_strategy,
     spot_price_limit, system_volume_type, ...; image_id and instance_type update in place).
     The vePFS has no zone input: a new zone replaces the subnet, whose new id replaces it.
"""

from __future__ import annotations

from clouds.base import Replacements

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
    },
)
