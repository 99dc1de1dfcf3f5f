"""Where a job's files live on the nodes, and which of them outlive a node.

Every cloud's component mounts the shared file system at `SHARED_MOUNT` on every node
(`clouds.mounts`), linked to the team's bucket where the workload has `data:`
(`clouds.data`). `NODE_SCRATCH` is each node's local NVMe (`nodeagent/scratch.py`): a cache,
wiped when the node goes. Anything else is the node's own boot disk, which a replacement node
does not have either. So a spot job's checkpoints (which a replaced node resumes from) must
be under `SHARED_MOUNT`.
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


def checkpoint_problem(job: Any, spot: bool) -> str | None:
    """Why `job`'s checkpoints would not survive a replaced spot node (one line naming the
    field and the fix), or None.

    Args:
        job: a `JobConfig` (its `checkpoint_dir`, else `workdir`, under which the default
            `checkpoints/<cluster>` goes), or None.
        spot: whether the nodes may be spot (a stack's `purchase: spot`; a workload's `any`
            or `spot`).
    """
    if job is None or not spot:
        return None
    field, path = ("checkpoint_dir", job.checkpoint_dir) if job.checkpoint_dir else ("workdir", job.workdir)
    if path is None or on_shared_storage(path):
        return None  # the default: <the mount point>/checkpoints/<cluster>
    normal = posixpath.normpath(path)
    local = normal == NODE_SCRATCH or normal.startswith(NODE_SCRATCH + "/")
    where = "each node's local NVMe (/scratch, wiped when the node goes)" if local else "the node's own disk"
    default = ", where the checkpoints go by default (<workdir>/checkpoints/<cluster>)" if field == "workdir" else ""
    return (
        f"job.{field}: {path} is on {where}{default}: a spot node that is replaced loses it and the job "
        f"restarts from the beginning; put checkpoints on the shared file system, which outlives every "
        f"node: e.g. job.checkpoint_dir: {SHARED_MOUNT}/checkpoints"
    )
