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
     storage_capacity when it shrinks (CustomizeDiff); efa_enabled ("must be set at creation
     ... cannot be changed", pulumi-aws LustreFileSystem docs).
  G  GoogleCloudPlatform/magic-modules and terraform-provider-google (bridged by pulumi-gcp):
     compute instance boot_disk, name, zone, scheduling.provisioning_model / preemptible,
     network_interface (the list) and its nic_type / queue_count are ForceNew; its network
     and subnetwork are updated in place; machine_type is updated with
     allow_stopping_for_update; mmv1/products/tpuv2/Vm.yaml and filestore/Instance.yaml
     `immutable: true` properties; mmv1/products/lustre/Instance.yaml: instance_id, location,
     network, filesystem and per_unit_storage_throughput are immutable (a throughput-tier
     change is a new file system) and capacity_gib only grows (a shrink is a new one).
  Z  pulumi-azure-native schema `willReplaceOnChanges` (e.g. storagecache AmlFilesystem:
     filesystemSubnet, identity, location, sku, storageCapacityTiB, zones; compute
     VirtualMachineScaleSet: resourceGroupName, vmScaleSetName). ARM cannot move a resource
     to another region or resource group, so `location` and `resourceGroupName` count as
     replacing on every azure-native type.
  T  hashicorp/terraform-provider-tls private_key: algorithm, rsa_bits, ecdsa_curve are ForceNew.
  N  Autonaming: a changed `name` of any resource means a new physical resource, except on
     the types in `NAME_IN_PLACE`, whose provider renames in place (sources L, Q, B).
  L, Q, H, V, B  the Chinese clouds: see `trainstack.replacements_china`.
"""

from __future__ import annotations

import re
from typing import Any

from trainstack.replacements_china import (  # noqa: F401  (re-exported)
    BAIDU_PROVIDERS,
    CHINA_NAME_IN_PLACE,
    CHINA_REPLACE_ON_CHANGE,
    baidu_replace_inputs,
)

REPLACE_ON_CHANGE: dict[str, tuple[str, ...]] = {
    # AWS (source A)
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
    # aws_autoscaling_group: only the name is ForceNew; size, subnets, placement group, launch
    # template and mixed instances policy update in place (source A).
    "aws:autoscaling/group:Group": ("name", "namePrefix"),
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
    # Google Cloud (source G)
    "gcp:compute/instance:Instance": (
        "name",
        "zone",
        "bootDisk",
        "networkInterfaces#",
        "networkInterfaces[].nicType",
        "networkInterfaces[].queueCount",
        "networkPerformanceConfig",
        "scheduling.provisioningModel",
        "scheduling.preemptible",
    ),
    # An instance template is immutable (every field ForceNew in terraform-provider-google);
    # with `namePrefix` Pulumi creates the new one before deleting the old, and the group
    # only changes its version (no VM is recreated, `clouds.gcp.group`).
    "gcp:compute/instanceTemplate:InstanceTemplate": (
        "namePrefix",
        "machineType",
        "disks",
        "networkInterfaces",
        "guestAccelerators",
        "scheduling",
        "reservationAffinity",
        "resourcePolicies",
        "serviceAccount",
        "shieldedInstanceConfig",
        "metadata",
        "labels",
    ),
    "gcp:compute/instanceGroupManager:InstanceGroupManager": ("name", "zone", "baseInstanceName"),
    "gcp:compute/healthCheck:HealthCheck": ("name",),
    "gcp:tpu/v2Vm:V2Vm": (
        "name",
        "zone",
        "runtimeVersion",
        "acceleratorType",
        "acceleratorConfig",
        "cidrBlock",
        "networkConfig",
        "networkConfigs",
        "serviceAccount",
        "schedulingConfig",
        "shieldedInstanceConfig",
    ),
    "gcp:lustre/instance:Instance": (
        "instanceId",
        "location",
        "network",
        "filesystem",
        "perUnitStorageThroughput",
        "kmsKey",
    ),
    "gcp:filestore/instance:Instance": (
        "name",
        "zone",
        "location",
        "tier",
        "protocol",
        "networks",
        "fileShares.name",
        "fileShares.sourceBackup",
        "kmsKeyName",
        "tags",
    ),
    "gcp:compute/network:Network": ("name", "autoCreateSubnetworks"),
    "gcp:compute/subnetwork:Subnetwork": ("name", "network", "region"),
    "gcp:compute/firewall:Firewall": ("name", "network", "direction"),
    "gcp:compute/router:Router": ("name", "network", "region"),
    "gcp:compute/routerNat:RouterNat": ("name", "router", "region"),
    "gcp:compute/globalAddress:GlobalAddress": ("name", "address", "addressType", "network", "prefixLength", "purpose"),
    "gcp:compute/resourcePolicy:ResourcePolicy": ("name", "region", "groupPlacementPolicy"),
    "gcp:serviceaccount/account:Account": ("accountId",),
    "gcp:storage/bucketIAMMember:BucketIAMMember": ("bucket", "role", "member", "condition"),
    "gcp:projects/iAMMember:IAMMember": ("member", "role", "project"),
    "gcp:servicenetworking/connection:Connection": ("network", "service"),
    # Azure (source Z)
    "azure-native:storagecache:AmlFilesystem": (
        "amlFilesystemName",
        "filesystemSubnet",
        "identity",
        "sku",
        "storageCapacityTiB",
        "zones",
    ),
    "azure-native:compute:VirtualMachineScaleSet": (
        "vmScaleSetName",
        # Spot <-> Regular cannot be changed in place: "setting the Spot flag is only
        # supported at creation time" (MicrosoftDocs azure-docs virtual-machine-scale-sets/
        # use-spot.md, FAQ; Azure/azure-cli#11187). terraform-provider-azurerm: `priority`
        # and `eviction_policy` ForceNew on azurerm_linux_virtual_machine_scale_set.
        "virtualMachineProfile.priority",
        "virtualMachineProfile.evictionPolicy",
    ),
    # A NAT gateway's zone "can't be changed" after deployment (azure-docs nat-gateway/
    # nat-overview.md); public IP: azure-native forceNewMap (provider/pkg/gen/replacement.go).
    "azure-native:network:NatGateway": ("natGatewayName", "zones"),
    "azure-native:network:PublicIPAddress": (
        "publicIpAddressName",
        "publicIPAddressVersion",
        "publicIPPrefix",
        "sku",
    ),
    "azure-native:network:Subnet": ("subnetName", "virtualNetworkName"),
    "azure-native:network:VirtualNetwork": ("virtualNetworkName",),
    "azure-native:network:NetworkSecurityGroup": ("networkSecurityGroupName",),
    "azure-native:compute:ProximityPlacementGroup": ("proximityPlacementGroupName",),
    "azure-native:compute:VirtualMachine": ("vmName",),
    "azure-native:network:NetworkInterface": ("networkInterfaceName",),
    # TLS (source T)
    "tls:index/privateKey:PrivateKey": ("algorithm", "rsaBits", "ecdsaCurve"),
    **CHINA_REPLACE_ON_CHANGE,
}
NAME_IN_PLACE: frozenset[str] = CHINA_NAME_IN_PLACE  # only Chinese clouds' types so far
AZURE_NATIVE = ("location", "resourceGroupName")
_ANY_INDEX = re.compile(r"\[\d+\]")
# Replace only when the new number is smaller (source A, CustomizeDiff).
REPLACE_ON_DECREASE: dict[str, tuple[str, ...]] = {
    "aws:fsx/lustreFileSystem:LustreFileSystem": ("storageCapacity",),
    "gcp:lustre/instance:Instance": ("capacityGib",),  # a string in pulumi-gcp (source G)
}
# (dependent type, input path, referenced type, id path): in a real deployment the input
# changes whenever the referenced resource is updated, though the mocks give it the same
# value. An EC2 instance pins `launchTemplate.version` to the template's latest version,
# which every template update bumps (source A, launch_template.version ForceNew).
CASCADES: tuple[tuple[str, str, str, str], ...] = (
    (
        "aws:ec2/instance:Instance",
        "launchTemplate.version",
        "aws:ec2/launchTemplate:LaunchTemplate",
        "launchTemplate.id",
    ),
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
        before, after = _number(old.get(key)), _number(new.get(key))
        if before is not None and after is not None and after < before:
            found.append(key)
    return sorted(set(found))


def _number(value: Any) -> float | None:
    """A number, or a numeric string (pulumi-gcp takes Lustre's capacity as "36000"); else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    try:
        return float(value) if isinstance(value, str) else None
    except ValueError:
        return None


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
