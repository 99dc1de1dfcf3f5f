"""Huawei Cloud: what trainstack knows about it, as one `Cloud` (see `clouds.base`); its pure
rules (validation, sizing, facts, mock answers, replace-on-change inputs) sit beside it."""

from __future__ import annotations

import re

from clouds.base import Cloud, Feature, FileSystemRule

CLOUD = Cloud(
    name="huaweicloud",
    display_name="Huawei Cloud",
    extra="china",
    sdk="pulumi-huaweicloud",
    mainland=re.compile(r"^cn-(north|east|south|southwest|northeast)-\d+$"),
    file_system=FileSystemRule(
        "clouds.huaweicloud.sfs:turbo_sizing",
        "SFS Turbo",
        by_numbers=True,
        prices="clouds.huaweicloud.storage_prices:PRICES",
    ),
    stateful=frozenset(
        {
            "huaweicloud:Sfs/turbo:Turbo",
        }
    ),
    missing={Feature.BUCKET_LINK: "pulumi-huaweicloud 0.0.12 has no SFS Turbo data-flow resource for an OBS bucket"},
    untaggable=frozenset(
        {
            "huaweicloud:Vpc/secgroupRule:SecgroupRule",
            "huaweicloud:Ecs/servergroup:Servergroup",
            "huaweicloud:Ecs/keypair:Keypair",
        }
    ),
)
