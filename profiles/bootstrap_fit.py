"""Does a workload's `job:` fit the node bootstrap of an offering's cloud? A cloud that limits
its nodes' bootstrap (`Cloud.bootstrap_check`: EC2's 16 KB of user data, Azure's 65,535 bytes of
custom data, Compute Engine's 262,144-byte metadata value) cannot run a job whose command and env
push the bootstrap over it, so `resolve` leaves such rows out (the `job` constraint) instead of
ranking a pick that `plan` and `pulumi up` would refuse.

The check renders the bootstrap of a cluster like the row's (its cloud, type and interconnect,
a file system when the workload has one, the job) once per instance type: the region only
changes the file system's DNS name by a few bytes (and the sketch's file-system size may pick
no service, so a cloud's check measures the longest of them), and `resolve --write-stack`
checks the exact stack again before writing it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clouds.base import load
from clouds.registry import CLOUDS
from profiles.catalog.offering import Offering
from profiles.spec import WorkloadSpec

if TYPE_CHECKING:
    from clouds.contract import JobConfig


def bootstrap_problem(spec: WorkloadSpec, offering: Offering) -> str | None:
    """Why the spec's job does not fit `offering`'s cloud's node bootstrap, or None."""
    cloud = CLOUDS.get(offering.provider)
    if spec.job is None or cloud is None or cloud.bootstrap_check is None:
        return None
    interconnect = spec.interconnect if offering.rdma else "none"
    key = (offering.provider, offering.instance_type, interconnect, spec.file_system is not None, spec.nodes)
    checked = (cloud.bootstrap_check, key, spec.name or "cluster", _job_json(spec.job))
    if checked in _CHECKED:
        return _CHECKED[checked]
    try:
        problem = _render(cloud.bootstrap_check, key, checked[2], spec.job, offering)
    except _NotACluster:
        return None  # this row's own config is refused elsewhere; the next row of the key renders it
    _CHECKED[checked] = problem
    return problem


# (check, key, name, job) -> problem: rendered with the first row of that key that makes a
# valid cluster (module docstring: the region changes a few bytes); a few hundred entries at
# most per process.
_CHECKED: dict[tuple, str | None] = {}


_LAST_JOB: list = [None, ""]  # [job, its JSON]: `resolve` asks once per catalog row, with one job


def _job_json(job: JobConfig) -> str:
    """`job.model_dump_json()` (the cache key), remembered for the last job asked: dumping a job
    with a long `env` once per catalog row was most of a `resolve` of such a workload. The
    job is frozen (`JobConfig`), so the same object always dumps the same."""
    if _LAST_JOB[0] is not job:
        _LAST_JOB[:] = [job, job.model_dump_json()]
    return _LAST_JOB[1]


class _NotACluster(Exception):
    """The row and workload make no valid cluster config (its own validation says why)."""


def _render(target: str, key: tuple, name: str, job: JobConfig, offering: Offering) -> str | None:
    from pydantic import ValidationError

    from clouds.contract import ClusterConfig, FileSystemConfig

    provider, instance_type, interconnect, has_fs, nodes = key
    try:
        config = ClusterConfig(
            provider=provider,
            region=offering.region,
            zone=offering.zone,
            instance_type=instance_type,
            accelerator=offering.accelerator,
            accelerator_count=offering.accelerator_count,
            nodes=nodes,
            purchase="on-demand",
            interconnect=interconnect,
            hours=1,
            file_system=FileSystemConfig(capacity_gib=1200) if has_fs else None,
            job=job,
        )
    except (ValidationError, ValueError) as exc:
        raise _NotACluster from exc
    return load(target)(config, name)
