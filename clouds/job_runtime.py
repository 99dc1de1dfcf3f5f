"""The job environment a cloud's nodes run: the interpreter with torch that the units call, the
torch and NCCL it brings, the fabric's NCCL plugin, and where it comes from: the node image
(with the release notes that list it) or a bootstrap step that installs a pinned wheel.

Each cloud declares its `JobRuntime` in `clouds/<cloud>/runtime.py` (`Cloud.job_runtime`).
`job.python` defaults to the runtime's interpreter (`job_python`); the head node's rendezvous
store always runs on it, never on the user's interpreter (`store_python`), so a user's
environment cannot break the rendezvous. `plan` and `check` print `runtime_line`.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass

from clouds.contract import ClusterConfig

# Where a bootstrap-installed runtime lives on the node (a venv of the image's python3).
VENV = "/opt/trainstack/torch"


@dataclass(frozen=True)
class NcclTests:
    """Where a cloud's node image ships nccl-tests and the MPI they were built with.

    Attributes:
        dirs: shell globs of folders holding `all_reduce_perf` (the newest match is used);
            () when the image ships none (`trainstack bench run` builds them).
        mpi_setup: shell that puts that MPI's `mpirun` on PATH ("" = the image's PATH).
        source: where this comes from (image notes or build scripts), with the date observed.
    """

    dirs: tuple[str, ...]
    mpi_setup: str
    source: str


@dataclass(frozen=True)
class JobRuntime:
    """One cloud's job environment.

    Attributes:
        python: absolute path of the interpreter with torch on every node (head included).
        torch: the torch version it imports.
        nccl: the NCCL torch uses, and where that figure comes from.
        plugin: `cluster -> words`: the fabric's NCCL plugin or stack on the cluster's
            instance type ("none (TCP sockets)" without one).
        image: the node image the runtime comes with, or that the bootstrap installs onto.
        source: where the figures come from (release notes, package metadata), with the date
            they were observed.
        requirement: the pip requirement the bootstrap installs into `VENV`
            (e.g. `torch==2.9.1`); "" when the image ships the interpreter.
        storage: `cluster -> words`: how the nodes reach the shared file system (the
            transport), "" without one; None when the cloud does not say.
        nccl_tests: where the image ships nccl-tests and their MPI; None: the image ships none.
    """

    python: str
    torch: str
    nccl: str
    plugin: Callable[[ClusterConfig], str]
    image: str
    source: str
    requirement: str = ""
    storage: Callable[[ClusterConfig], str] | None = None
    nccl_tests: NcclTests | None = None

    @property
    def provided_by(self) -> str:
        """`image` or `bootstrap`."""
        return "bootstrap" if self.requirement else "image"


def runtime_for(provider: str) -> JobRuntime | None:
    """The provider's job runtime (`Cloud.job_runtime`), or None for a cloud without a node agent."""
    from clouds.base import load
    from clouds.registry import CLOUDS

    cloud = CLOUDS.get(provider)
    if cloud is None or cloud.job_runtime is None:
        return None
    runtime: JobRuntime = load(cloud.job_runtime)
    return runtime


def store_python(cluster: ClusterConfig) -> str:
    """The interpreter of the head node's rendezvous store: the runtime's (never `job.python`).

    Raises:
        ValueError: for a cloud without a job runtime.
    """
    runtime = runtime_for(cluster.provider)
    if runtime is None:
        raise ValueError(f"job: {cluster.provider} nodes run no node agent")
    return runtime.python


def job_python(cluster: ClusterConfig) -> str:
    """The interpreter the job runs on: `job.python` when the stack gives one, else the runtime's."""
    if cluster.job is not None and cluster.job.python:
        return cluster.job.python
    return store_python(cluster)


def install_lines(runtime: JobRuntime) -> list[str]:
    """Bash that makes `runtime.python` exist: nothing when the image ships it; else a venv of
    the image's python3 at `VENV` (python3-venv installed when missing) with the pinned wheel,
    skipped when it already imports torch (GCP runs its startup script at every boot)."""
    if not runtime.requirement:
        return []
    python, pip = f"{VENV}/bin/python", f"{VENV}/bin/pip"
    return [
        f"# trainstack job runtime: {runtime.requirement} in {VENV}",
        f"if ! {python} -c 'import torch' >/dev/null 2>&1; then",
        f"  if ! python3 -m venv --clear {VENV}; then",
        "    apt-get update",
        "    DEBIAN_FRONTEND=noninteractive apt-get install -y python3-venv",
        f"    python3 -m venv --clear {VENV}",
        "  fi",
        f"  {pip} install --no-cache-dir {shlex.quote(runtime.requirement)}",
        "fi",
        "",
    ]


def runtime_line(cluster: ClusterConfig) -> str | None:
    """What a node runs, in one line for `plan` and `check`; None for a cloud without a runtime
    or nodes that get no node agent (`clouds.healing.job_problem`: GCP TPU slices), and for a
    managed platform's pool, whose nodes run the platform's own image."""
    from clouds.healing import job_problem

    runtime = runtime_for(cluster.provider)
    if (
        runtime is None
        or cluster.platform is not None
        or job_problem(cluster.provider, cluster.instance_type) is not None
    ):
        return None
    origin = (
        f"installed by the bootstrap ({runtime.requirement} into {VENV}) on {runtime.image}"
        if runtime.requirement
        else f"from the image {runtime.image}"
    )
    line = (
        f"job runtime: torch {runtime.torch} at {runtime.python}, {origin}; NCCL {runtime.nccl}; "
        f"fabric plugin: {runtime.plugin(cluster)} ({runtime.source})"
    )
    if runtime.storage is not None and (transport := runtime.storage(cluster)):
        line += f"; storage: {transport}"
    if cluster.job is not None and cluster.job.python and cluster.job.python != runtime.python:
        line += f"; the job runs on job.python {cluster.job.python} (the rendezvous store stays on {runtime.python})"
    return line
