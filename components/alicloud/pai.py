"""`PaiPool`: what PAI-DLC jobs need from the stack: the PAI workspace they run in
(`alicloud.pai.WorkspaceWorkspace`, named by `clouds.alicloud.pai.workspace_name`, protected:
it holds the team's jobs and experiments). A PAI-DLC job has no long-lived nodes: `trainstack
run` creates each one (`trainstack.run.pai_dlc`) on PAI's pay-as-you-go resources, billed while
it runs.
"""

from __future__ import annotations

from typing import Any

import pulumi
import pulumi_alicloud as alicloud

from clouds.alicloud import pai
from clouds.contract import ClusterConfig
from components.cluster_base import ClusterOutputs, GpuClusterBase, pool_outputs, protected

TYPE_TOKEN = "trainstack:alicloud:PaiPool"


class PaiPool(GpuClusterBase):
    """A PAI workspace (no nodes until a job runs).

    Public outputs (`OUTPUT_NAMES`): `node_ids` and `node_private_ips` `[]`, `placement_group`
    and the file-system pair None. Extra outputs: `workspace_id`, `workspace_name`.
    """

    TYPE_TOKEN = TYPE_TOKEN
    PROVIDER = "alicloud"

    def check(self, name: str, args: ClusterConfig) -> None:
        """The pool's checks (`clouds.alicloud.pai.validate_pool`, as `plan` runs them)."""
        pai.validate_pool(args, name)

    def build(self, name: str, args: ClusterConfig, tags: Any, child: pulumi.ResourceOptions) -> ClusterOutputs:
        """Create the workspace; return the outputs (see the class docstring)."""
        self.workspace = alicloud.pai.WorkspaceWorkspace(
            f"{name}-pai-workspace",
            workspace_name=pai.workspace_name(name),
            display_name=name,
            description=f"trainstack {name}"[:80],
            env_types=list(pai.ENV_TYPES),
            opts=protected(child),
        )
        self.workspace_id = self.workspace.id
        self.workspace_name = self.workspace.workspace_name
        return pool_outputs()

    def extra_outputs(self) -> dict[str, pulumi.Output[Any]]:
        """The workspace `trainstack run` submits PAI-DLC jobs to."""
        return {"workspace_id": self.workspace_id, "workspace_name": self.workspace_name}
