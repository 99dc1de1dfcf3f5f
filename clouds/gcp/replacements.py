"""Replace-on-change inputs of Google Cloud's resources (format and rule N: `trainstack.review.replacements`).

Sources:
  G  GoogleCloudPlatform/magic-modules and terraform-provider-google (bridged by pulumi-gcp):
     compute instance boot_disk, name, zone, scheduling.provisioning_model / preemptible,
     network_interface (the list) and its nic_type / queue_count are ForceNew; its network
     and subnetwork are updated in place; machine_type is updated with
     allow_stopping_for_update; mmv1/products/tpuv2/Vm.yaml and filestore/Instance.yaml
     `immutable: true` properties; mmv1/products/lustre/Instance.yaml: instance_id, location,
     network, filesystem and per_unit_storage_throughput are immutable (a throughput-tier
     change is a new file system) and capacity_gib only grows (a shrink is a new one).
"""

from __future__ import annotations

from clouds.base import NodeEffect, Replacements

REPLACEMENTS = Replacements(
    replace_on_change={
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
        "gcp:lustre/instance:Instance": (
            "instanceId",
            "location",
            "network",
            "filesystem",
            "perUnitStorageThroughput",
            "kmsKey",
        ),
        "gcp:compute/network:Network": ("name", "autoCreateSubnetworks"),
        "gcp:compute/subnetwork:Subnetwork": ("name", "network", "region"),
        "gcp:compute/firewall:Firewall": ("name", "network", "direction"),
        "gcp:compute/router:Router": ("name", "network", "region"),
        "gcp:compute/routerNat:RouterNat": ("name", "router", "region"),
        "gcp:compute/globalAddress:GlobalAddress": (
            "name",
            "address",
            "addressType",
            "network",
            "prefixLength",
            "purpose",
        ),
        "gcp:compute/resourcePolicy:ResourcePolicy": ("name", "region", "groupPlacementPolicy"),
        "gcp:serviceaccount/account:Account": ("accountId",),
        "gcp:storage/bucketIAMMember:BucketIAMMember": ("bucket", "role", "member", "condition"),
        "gcp:projects/iAMMember:IAMMember": ("member", "role", "project"),
        "gcp:servicenetworking/connection:Connection": ("network", "service"),
    },
    replace_on_decrease={
        "gcp:lustre/instance:Instance": ("capacityGib",),  # a string in pulumi-gcp (source G)
    },
    # The group's update policy is OPPORTUNISTIC (`clouds.gcp.group`): a new template or
    # version recreates no running VM; repairs and explicit rollouts use it.
    node_effects={
        "gcp:compute/instanceGroupManager:InstanceGroupManager": NodeEffect(
            resizes=("targetSize", "updatePolicy.maxUnavailableFixed"),
            rolled="the group is recreated: every node is replaced",
            kept="no running VM is recreated (update policy OPPORTUNISTIC): VMs the group "
            "recreates use its current template; `gcloud compute instance-groups managed "
            "rolling-action replace` rolls the others",
        ),
        "gcp:compute/instanceTemplate:InstanceTemplate": NodeEffect(
            replace_keeps_nodes=True,
            kept="a new instance template (templates are immutable): the group uses it only for "
            "VMs it creates from now on; no running VM is recreated",
        ),
    },
)
