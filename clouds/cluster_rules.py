"""The cross-field rules of a stack's cluster: which combinations of a
`clouds.contract.ClusterConfig`'s fields a stack may not hold (each field's own bounds sit on
the field). `ClusterConfig` calls `check_cluster` once it is built; this module reads the config
by shape (`ClusterFields`), so it does not import the contract back.
"""

from __future__ import annotations

from typing import Protocol

from clouds.capacity import StackFields, capacity_problem
from clouds.cidrs import ssh_cidr_problem
from clouds.data import data_problem
from clouds.data_config import DataConfig
from clouds.file_system_config import FileSystemConfig
from clouds.healing import check_job, healing
from clouds.job_config import JobConfig
from clouds.job_fields import NO_FILE_SYSTEM, job_size_problem
from clouds.job_paths import checkpoint_problem
from clouds.job_secrets import secret_problem
from clouds.platform_lookup import platform_problem
from clouds.tag_rules import own_tag_problem
from clouds.tracking import tracking_problem
from facts.limits import MAX_FILE_SYSTEM_GIB


class ClusterFields(StackFields, Protocol):
    """What `check_cluster` reads of a `ClusterConfig` beside `capacity_problem`'s fields."""

    @property
    def platform(self) -> str | None: ...
    @property
    def data(self) -> DataConfig | None: ...
    @property
    def job(self) -> JobConfig | None: ...
    @property
    def file_system(self) -> FileSystemConfig | None: ...
    @property
    def commitment(self) -> str: ...
    @property
    def commitment_reuse(self) -> float | None: ...
    @property
    def tags(self) -> dict[str, str]: ...
    @property
    def accelerator_count(self) -> int: ...
    @property
    def ssh_cidrs(self) -> tuple[str, ...]: ...
    @property
    def queued_resource(self) -> bool: ...
    @property
    def kms_key_id(self) -> str | None: ...


def check_cluster(config: ClusterFields) -> None:
    """Refuse a cluster whose fields do not go together, the first problem found.

    Raises:
        ValueError: one line naming the field and the fix.
    """
    if problem := platform_problem(config.provider, config.platform):
        raise ValueError(problem)
    if problem := own_tag_problem(config.tags):
        raise ValueError(problem)
    source = config.data.source if config.data is not None else None
    if config.job is not None and (
        problem := tracking_problem(config.job.tracking, config.platform, config.provider, source)
    ):
        raise ValueError(problem)
    if problem := secret_problem(config.provider, config.platform, config.job):
        raise ValueError(problem)
    if config.purchase == "spot" and config.commitment != "none":
        raise ValueError(
            f"commitment: a {config.commitment} reserved term covers on-demand capacity, not spot; "
            "set commitment: none or purchase: on-demand"
        )
    if config.commitment_reuse is not None and config.commitment == "none":
        raise ValueError("commitment_reuse: only a 1y/3y commitment has a reuse; remove it or set commitment")
    if config.platform is None:  # a platform runs the job itself (`trainstack run`)
        check_job(
            config.provider,
            config.instance_type,
            config.job is not None,
            config.job.nproc_per_node if config.job else None,
            config.accelerator_count,
        )
    if config.file_system is not None and config.file_system.capacity_gib > MAX_FILE_SYSTEM_GIB:
        raise ValueError(
            f"file_system.capacity_gib: {config.file_system.capacity_gib:,} GiB is more than any cloud's "
            f"largest file system ({MAX_FILE_SYSTEM_GIB:,} GiB = 100 PiB); check the number"
        )
    if config.job is not None and config.file_system is None and config.platform is None:
        raise ValueError(NO_FILE_SYSTEM)
    if problem := job_size_problem(config.job, config.nodes, None):
        raise ValueError(problem)
    for cidr in config.ssh_cidrs:
        if problem := ssh_cidr_problem(cidr):
            raise ValueError(problem)
    if problem := checkpoint_problem(config.job, config.purchase == "spot", _self_healing(config)):
        raise ValueError(problem)
    if config.queued_resource and not config.instance_type.startswith("tpu-"):
        raise ValueError(
            f"queued_resource: only TPU slices (tpu-...) are requested as queued resources, not "
            f"{config.instance_type}; remove queued_resource"
        )
    if problem := capacity_problem(config):
        raise ValueError(problem)
    if config.data is not None and config.platform is None:  # a platform reads the bucket itself
        fs = config.file_system
        sizing = (fs.capacity_gib, fs.throughput_mbps_per_tib) if fs is not None else None
        problem = data_problem(config.provider, config.data, fs is not None, sizing)
        if problem:
            raise ValueError(problem)


def _self_healing(config: ClusterFields) -> bool:
    """Whether the cluster's group replaces a lost node by itself (`clouds.healing`)."""
    entry = healing(
        config.provider,
        config.instance_type,
        config.queued_resource,
        config.purchase,
        config.kms_key_id,
        config.flex_start,
    )
    return entry.replaces_nodes
