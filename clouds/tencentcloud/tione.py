"""TI-ONE pool rules, pure: the training resource group trainstack creates for a `platform: ti-one`
stack (`components.tencentcloud.tione`) and what such a stack may ask (`pool_problem`).

TI-ONE API 2021-11-11 (`tencentcloud-sdk-python-tione`'s models): `CreateBillingResourceGroup`
takes `Name` (letters, digits, `_` and `-`, starting with a letter or digit, at most 60
characters, unique per region and group type), `Type` (`TRAIN` or `INFERENCE`) and `TagSet`
(`[{TagKey, TagValue}]`), and answers `{"Response": {"ResourceGroupId", "RequestId"}}`;
`DeleteBillingResourceGroup` takes `ResourceGroupId` and works only while none of the group's
nodes is deploying, running or releasing. A group is created empty: its nodes are prepaid
nodes bought into it in the TI-ONE console. The pay-as-you-go tasks `trainstack run` submits
(`trainstack.run.ti_one`, priced by `resolve`) run on TI-ONE's public resources and need no
node of the group; the code, data and output stay in COS (`job.code`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from clouds.contract import ClusterConfig

API_VERSION = "2021-11-11"
GROUP_TYPE = "TRAIN"
NAME_LIMIT = 60


def group_name(name: str) -> str:
    """`<name>-train`: other characters than letters, digits, `_` and `-` as `-`, starting with a
    letter or digit, cut to 60 (CreateBillingResourceGroup `Name`)."""
    base = re.sub(r"[^A-Za-z0-9_-]", "-", name).lstrip("_-") or "trainstack"
    return f"{base[: NAME_LIMIT - len('-train')]}-train"


def group_request(name: str, tags: Mapping[str, str]) -> dict[str, Any]:
    """The `CreateBillingResourceGroup` parameters of the stack's training group."""
    tag_set = [{"TagKey": key, "TagValue": value} for key, value in sorted(tags.items())]
    return {"Name": group_name(name), "Type": GROUP_TYPE, "TagSet": tag_set}


def pool_problem(config: ClusterConfig) -> str | None:
    """Why a TI-ONE stack cannot be built from `config`, or None."""
    if config.purchase == "spot":
        return "purchase: TI-ONE has no spot training tasks; set purchase: on-demand"
    if config.commitment != "none":
        return (
            "commitment: trainstack submits pay-as-you-go TI-ONE tasks (prepaid nodes are bought into the "
            "resource group in the TI-ONE console); set commitment: none"
        )
    if config.file_system is not None:
        return "file_system: a TI-ONE task keeps its code, data and output in COS (job.code); remove file_system"
    if config.ssh_cidrs or config.ssh_public_key:
        return "ssh_cidrs: TI-ONE tasks take no SSH from trainstack; remove ssh_cidrs and ssh_public_key"
    return None


def validate_pool(config: ClusterConfig, name: str = "cluster") -> None:
    """The TI-ONE pool's checks (`pool_problem`; the CVM cluster's do not apply).

    Raises:
        ValueError: one line naming the field and the fix.
    """
    if problem := pool_problem(config):
        raise ValueError(problem)
    from clouds.common import cluster_tags
    from clouds.tencentcloud.validate import PROVIDER, check_tags

    check_tags(cluster_tags(PROVIDER, name, config.tags))  # the resource group's TagSet
