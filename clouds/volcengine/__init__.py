"""Volcengine: what trainstack knows about it, as one `Cloud` (see `clouds.base`); its pure
rules (validation, sizing, facts, mock answers, replace-on-change inputs) sit beside it."""

from __future__ import annotations

import re

from clouds.base import Cloud, Feature, FileSystemRule

CLOUD = Cloud(
    name="volcengine",
    display_name="Volcengine",
    component="components.volcengine.cluster:VolcengineGpuCluster",
    validator="clouds.volcengine.validate:validate_args",
    fetcher="profiles.catalog.fetchers.volcengine:fetch",
    mock="clouds.volcengine.mock:MOCK",
    replacements="clouds.volcengine.replacements:REPLACEMENTS",
    extra="china",
    sdk="pulumi-volcengine",
    guidance="profiles.preflight_guidance:generic_guidance",
    mainland=re.compile(r"^cn-(?!hongkong)[a-z]+(-[a-z]+)?$"),
    file_system=FileSystemRule("clouds.volcengine.vepfs:vepfs_sizing", "vePFS"),
    stateful=frozenset(
        {
            "volcengine:vepfs/fileSystem:FileSystem",
        }
    ),
    missing={
        Feature.BUCKET_LINK: "pulumi-volcengine 0.0.47 has vePFS filesets and mount services but no data-flow resource for TOS"
    },
    untaggable=frozenset(
        {
            "volcengine:vpc/securityGroupRule:SecurityGroupRule",
            "volcengine:ecs/deploymentSet:DeploymentSet",
            "volcengine:vepfs/mountService:MountService",
            "volcengine:vepfs/mountServiceAttachment:MountServiceAttachment",
        }
    ),
)
