"""Replace-on-change inputs of Huawei Cloud's resources (format and rule N: `trainstack.review.replacements`).

Sources:
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
"""

from __future__ import annotations

from clouds.base import Replacements

REPLACEMENTS = Replacements(
    replace_on_change={
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
    },
)
