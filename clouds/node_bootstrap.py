"""The node bootstrap shared by the clouds whose nodes boot a bash script (GCP `startup-script`
metadata, Azure custom data): NCCL environment, the shared file system at `/fsx`, `/scratch`
on workers and, with a `job:`, the node agent.

Pure functions: each cloud's module supplies its environment and its file-system mount (the
client install and the mount source); this module puts them in order. Every step is
idempotent, because GCP runs its startup script at every boot.

The shared file system is mounted at `/fsx` on every cloud (AWS's FSx mount point), so a
workload's `job:` paths hold on whichever cloud `resolve` picks.
"""

from __future__ import annotations

import re
import shlex

from clouds.contract import ClusterConfig
from clouds.job_bootstrap import job_script
from clouds.job_runtime import install_lines, runtime_for
from clouds.mounts import SHARED_MOUNT
from nodeagent.scratch_unit import install_script as scratch_install_script

ENV_FILE = "/etc/profile.d/trainstack-nccl.sh"
ROLES = ("worker", "head")
# What a mount source may hold before it is written into a shell line and /etc/fstab.
_SOURCE = re.compile(r"^[A-Za-z0-9.:@/_-]+$")


def env_lines(env: dict[str, str]) -> list[str]:
    """Bash that writes `env` as `export K=V` lines to `ENV_FILE` (the node agent reads it)."""
    lines = [f"cat > {ENV_FILE} <<'TRAINSTACK_ENV'"]
    lines += [f"export {key}={shlex.quote(value)}" for key, value in env.items()]
    return [*lines, "TRAINSTACK_ENV", f"chmod 0644 {ENV_FILE}"]


def mount_lines(source: str, fstype: str, options: str) -> list[str]:
    """Bash that adds `source` to /etc/fstab once and mounts it at `SHARED_MOUNT`.

    Args:
        source: e.g. `10.0.16.4@tcp:/lustrefs` or `10.99.0.2:/trainstack`.
        fstype: `lustre` or `nfs`.
        options: fstab options.

    Raises:
        ValueError: when `source` holds characters a shell or fstab would misread.
    """
    if not _SOURCE.match(source):
        raise ValueError(f"file_system_dns: {source!r} is not a mount source")
    entry = f"{source} {SHARED_MOUNT} {fstype} {options} 0 0"
    return [
        f"mkdir -p {SHARED_MOUNT}",
        f"grep -q '^{source} ' /etc/fstab || echo '{entry}' >> /etc/fstab",
        f"mountpoint -q {SHARED_MOUNT} || mount {SHARED_MOUNT}",
    ]


def bootstrap(
    name: str,
    cluster: ClusterConfig,
    role: str,
    env: dict[str, str],
    mount: list[str],
    rdzv_host: str | None,
) -> str:
    """The whole bootstrap of one node.

    Args:
        name: the cluster name (the job's rendezvous id).
        cluster: the cluster config.
        role: `worker` (NCCL environment, mount, `/scratch`, job runtime, job unit) or `head`
            (mount, job runtime, rendezvous unit).
        env: the worker's NCCL environment (the head gets none).
        mount: the cloud's setup lines: its file-system client install and `mount_lines` (or
            nothing without a file system), then any node setup of its own (GCP: GPUDirect).
        rdzv_host: the head node's address when the cluster has a job, else None.

    Returns:
        A `#!/bin/bash` script.

    Raises:
        ValueError: for an unknown role.
    """
    if role not in ROLES:
        raise ValueError(f"role: {role!r}; one of {', '.join(ROLES)}")
    lines = ["#!/bin/bash", "# trainstack node bootstrap", "set -euo pipefail", ""]
    lines += [*env_lines(env if role == "worker" else {}), "", *mount, ""]
    text = "\n".join(lines)
    if role == "worker":
        text += scratch_install_script()
    if rdzv_host is not None:
        runtime = runtime_for(cluster.provider)
        text += "\n".join(install_lines(runtime)) + "\n" if runtime is not None else ""
        text += job_script(role, name, cluster, rdzv_host, SHARED_MOUNT, ENV_FILE)
    return text


def over_limit(cluster: ClusterConfig, size: int, limit: str) -> str:
    """The one-line refusal of a node bootstrap of `size` bytes over a cloud's `limit` (e.g.
    "EC2's 16,384-byte user-data limit"), naming `job.env` (or `job.command` for a job
    without env) and the fix."""
    field = "job.env" if cluster.job is not None and cluster.job.env else "job.command"
    return (
        f"{field}: the node bootstrap would be {size:,} bytes, over {limit} (the agent and mount take part of it); "
        "shorten job.env and job.command, or put the settings in a file on the file system "
        f"({SHARED_MOUNT}) and read it from the command"
    )
