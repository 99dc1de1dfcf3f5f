"""Volcengine: what trainstack knows about it, as one `Cloud` (see `clouds.base`); its pure
rules (validation, sizing, facts, mock answers, replace-on-change inputs) sit beside it."""

from __future__ import annotations

import re

from clouds.base import Cloud, Feature, FileSystemRule, manual_healing

CLOUD = Cloud(
    healing=manual_healing("Volcengine", "its Auto Scaling group (spot, HPC cluster)"),
    name="volcengine",
    display_name="Volcengine",
    extra="china",
    sdk="pulumi-volcengine",
    mainland=re.compile(r"^cn-(?!hongkong)[a-z]+(-[a-z]+)?$"),
    file_system=FileSystemRule("clouds.volcengine.vepfs:vepfs_sizing", "vePFS"),
    stateful=frozenset(
        {
            "volcengine:vepfs/fileSystem:FileSystem",
        }
    ),
    missing={
        Feature.BUCKET_LINK: (
            "pulumi-volcengine 0.0.47 has vePFS filesets and mount services but no data-flow resource for TOS; "
            "pulumi-volcenginecc 0.0.64 has only vepfs.DataFlowTask, a one-off import/export task (not a link), "
            "which trainstack does not wrap yet"
        )
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
