"""Baidu AI Cloud: what trainstack knows about it, as one `Cloud` (see `clouds.base`); its pure
rules (validation, sizing, facts, mock answers, replace-on-change inputs) sit beside it."""

from __future__ import annotations

import re

from clouds.base import Cloud, Feature

CLOUD = Cloud(
    name="baiducloud",
    display_name="Baidu AI Cloud",
    replacements="components.baiducloud.replacements:REPLACEMENTS",
    extra="china",
    sdk="bce-python-sdk",
    mainland=re.compile(r"^(bj|gz|su|bd|fwh|yq|cd|fsh)$"),
    # No API-creatable parallel file system here (china-clouds.md section 4).
    missing={Feature.BUCKET_LINK: "the Baidu component creates no parallel file system to link a BOS bucket to"},
    untaggable=frozenset(
        {
            "pulumi-python:dynamic/baiducloud:DeploySet",
            "pulumi-python:dynamic/baiducloud:EhcCluster",
            "pulumi-python:dynamic/baiducloud:Keypair",
        }
    ),
)
