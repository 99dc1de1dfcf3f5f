"""Where a job's files live on the nodes, and which of them outlive a node.

Every cloud's component mounts the shared file system at `SHARED_MOUNT` on every node
(`clouds.mounts`), linked to the team's bucket where the workload has `data:`
(`clouds.data`). `NODE_SCRATCH` is each node's local NVMe (`nodeagent/scratch.py`): a cache,
wiped when the node goes. Anything else is the node's own boot disk, which a replacement node
does not have either. So the checkpoints of a job whose nodes may be replaced (a reclaimed
spot node, or a failed one the cluster's group replaces: every cloud that runs a `job:`,
`clouds.healing`) must be under `SHARED_MOUNT`, which the replacement mounts again.
"""

from __future__ import annotations

import posixpath
from typing import Any

from clouds.mounts import SHARED_MOUNT

NODE_SCRATCH = "/scratch"


def on_shared_storage(path: str) -> bool:
    """True when the absolute node path `path` is on the shared file system (`/fsx`, `/fsx/...`)."""
    normal = posixpath.normpath(path)
    return normal == SHARED_MOUNT or normal.startswith(SHARED_MOUNT + "/")


def _replaced(spot: bool) -> str:
    return "a spot node that is replaced" if spot else "a node the cluster's group replaces after a failure"


def checkpoint_problem(job: Any, spot: bool, self_healing: bool = False) -> str | None:
    """Why `job`'s checkpoints would not survive a replaced node (one line naming the field and
    the fix), or None.

    Args:
        job: a `JobConfig` (its `checkpoint_dir`, else `workdir`, under which the default
            `checkpoints/<cluster>` goes), or None.
        spot: whether the nodes may be spot (a stack's `purchase: spot`; a workload's `any`
            or `spot`).
        self_healing: whether the cluster's group replaces a lost node by itself
            (`clouds.healing.Healing.replaces_nodes`), spot or not.
    """
    if job is None or not (spot or self_healing):
        return None
    field, path = ("checkpoint_dir", job.checkpoint_dir) if job.checkpoint_dir else ("workdir", job.workdir)
    if path is None or on_shared_storage(path):
        return None  # the default: <the mount point>/checkpoints/<cluster>
    normal = posixpath.normpath(path)
    local = normal == NODE_SCRATCH or normal.startswith(NODE_SCRATCH + "/")
    where = "each node's local NVMe (/scratch, wiped when the node goes)" if local else "the node's own disk"
    default = ", where the checkpoints go by default (<workdir>/checkpoints/<cluster>)" if field == "workdir" else ""
    return (
        f"job.{field}: {path} is on {where}{default}: {_replaced(spot)} comes back without it and the job "
        f"restarts from the beginning; put checkpoints on the shared file system, which outlives every "
        f"node: e.g. job.checkpoint_dir: {SHARED_MOUNT}/checkpoints"
    )
