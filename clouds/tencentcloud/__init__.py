"""Tencent Cloud: what trainstack knows about it, as one `Cloud` (see `clouds.base`); its pure
rules (validation, sizing, facts, mock answers, replace-on-change inputs) sit beside it."""

from __future__ import annotations

import re

from clouds.base import Cloud, Feature, FileSystemRule

CLOUD = Cloud(
    name="tencentcloud",
    display_name="Tencent Cloud",
    extra="china",
    sdk="tencentcloud-iac-pulumi",
    mainland=re.compile(r"^ap-(beijing|shanghai|guangzhou|shenzhen|chengdu|chongqing|nanjing)(-[a-z]+)?$"),
    file_system=FileSystemRule("clouds.tencentcloud.turbo:turbo_sizing", "CFS Turbo"),
    missing={
        Feature.BUCKET_LINK: (
            "tencentcloud-iac-pulumi 0.2 has cfs.FileSystem (CFS Turbo) but no data-flow resource "
            "between CFS Turbo and a COS bucket"
        ),
        # Tencent spot needs a bid in the account's currency (`spot_max_price`,
        # clouds/tencentcloud/purchase.py), which the contract does not carry; a spot pick
        # would write a stack `plan` refuses.
        Feature.SPOT_FROM_STACK: "Tencent spot needs spot_max_price in the account's currency, "
        "which a stack file does not carry",
    },
    stateful=frozenset(
        {
            "tencentcloud:Cfs/fileSystem:FileSystem",
        }
    ),
    untaggable=frozenset(
        {
            "tencentcloud:Cvm/hpcCluster:HpcCluster",
            "tencentcloud:Security/groupRuleSet:GroupRuleSet",
            "tencentcloud:Ccn/attachmentV2:AttachmentV2",
            "tencentcloud:Cfs/accessGroup:AccessGroup",
            "tencentcloud:Cfs/accessRule:AccessRule",
        }
    ),
)
