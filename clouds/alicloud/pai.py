"""PAI pool rules, pure: the PAI workspace trainstack creates for a `platform: pai` stack
(`components.alicloud.pai`) and finds again when it submits a PAI-DLC job
(`trainstack.run.pai_dlc`), and what such a stack may ask (`pool_problem`).

The workspace name follows the PAI API reference (`CreateWorkspace`): 3-23 characters of
letters, digits and underscores, starting with a letter, unique in the region. A PAI-DLC job
runs on PAI's pay-as-you-go public resources (its `EcsSpec`), reads its code and data from OSS
and keeps its checkpoints there, so the stack has no file system, no SSH and no ECS node.
"""

from __future__ import annotations

import re

from clouds.contract import ClusterConfig

ENV_TYPES = ("prod",)  # a workspace of one production environment (CreateWorkspace EnvTypes)


def workspace_name(name: str) -> str:
    """`<name>_ws`: the cluster name with other characters as `_`, cut to 20, starting with a letter."""
    base = re.sub(r"[^A-Za-z0-9_]", "_", name)
    if not base[:1].isalpha():
        base = f"w{base}"
    return f"{base[:20]}_ws"


def pool_problem(config: ClusterConfig) -> str | None:
    """Why a PAI pool cannot be built from `config`, or None."""
    if config.file_system is not None:
        return "file_system: a PAI-DLC job keeps its code, data and checkpoints in OSS (job.code); remove file_system"
    if config.ssh_cidrs:
        return "ssh_cidrs: PAI-DLC nodes take no SSH from trainstack; remove ssh_cidrs"
    if config.commitment != "none":
        return "commitment: PAI-DLC public resources are pay-as-you-go; set commitment: none"
    if config.tags:  # silently dropped otherwise: a cost tag the bill never shows
        return (
            "tags: nothing trainstack makes for PAI-DLC carries tags (pulumi-alicloud 4.0.0's "
            "pai.WorkspaceWorkspace takes none, and the job request sets none); remove tags"
        )
    return None


def validate_pool(config: ClusterConfig, name: str = "cluster") -> None:
    """The PAI pool's checks (`pool_problem`; the ECS cluster's do not apply).

    Raises:
        ValueError: one line naming the field and the fix.
    """
    if problem := pool_problem(config):
        raise ValueError(problem)
