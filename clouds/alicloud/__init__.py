"""Alibaba Cloud: what trainstack knows about it, as one `Cloud` (see `clouds.base`); its pure
rules (validation, sizing, facts, mock answers, replace-on-change inputs) sit beside it."""

from __future__ import annotations

import re

from clouds.base import Cloud, Feature, FileSystemRule, manual_healing

# Source: china-clouds.md section 0 item 2 and the official deployment-set doc.
SPOT_NO_DEPLOYMENT_SET = (
    "Alibaba spot instances cannot join a deployment set (Alibaba's deployment-set documentation), "
    "so spot nodes are placed in the zone without the "
    "LowLatency deployment set"
)

CLOUD = Cloud(
    healing=manual_healing("Alibaba Cloud", "its ESS scaling group (spot instance remedy)"),
    name="alicloud",
    display_name="Alibaba Cloud",
    extra="china",
    sdk="pulumi-alicloud",
    mainland=re.compile(r"^cn-(?!hongkong)[a-z]+\d*$"),
    file_system=FileSystemRule(
        "clouds.alicloud.cpfs:cpfs_sizing", "CPFS", prices="clouds.alicloud.storage_prices:PRICES"
    ),
    missing={
        Feature.BUCKET_LINK: "pulumi-alicloud has CPFS data flows with OSS (alicloud.nas.DataFlow on a Fileset), which trainstack does not wrap yet",
        Feature.SPOT_PLACEMENT: SPOT_NO_DEPLOYMENT_SET,
        Feature.ZONE_PRICES: "priced per region: set the stack's zone to a zone id before `pulumi up`",
    },
    stateful=frozenset(
        {
            "alicloud:nas/fileSystem:FileSystem",
        }
    ),
    untaggable=frozenset(
        {
            "alicloud:ecs/ecsDeploymentSet:EcsDeploymentSet",
            "alicloud:ecs/securityGroupRule:SecurityGroupRule",
            "alicloud:nas/mountTarget:MountTarget",
        }
    ),
)
