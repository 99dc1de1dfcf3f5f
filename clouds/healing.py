"""What each cloud's cluster does when a node is lost: who replaces it, and how long it takes.

Each cloud's answer is its `Cloud.healing` (`clouds/<cloud>/cloud.yaml`; unset means
`clouds.lost_node.manual_healing`). `restart_hours` is the time from a spot interruption to the job
running again on a full cluster; the spot estimate (`profiles.cost.inputs.RESTART_HOURS`)
reads it, and `resolve` / `plan` print `summary`. The figures are unsourced and labelled so
(`clouds.lost_node.GROUP_RESTART_HOURS`, `MANUAL_RESTART_HOURS`).
"""

from __future__ import annotations

import dataclasses
import functools

from clouds.base import load
from clouds.lost_node import GROUP_RESTART_HOURS, MANUAL_RESTART_HOURS, Healing, manual_healing, per_node_healing
from clouds.registry import CLOUDS

__all__ = [
    "GROUP_RESTART_HOURS",
    "HEALING",
    "MANUAL_RESTART_HOURS",
    "Healing",
    "check_job",
    "healing",
    "job_problem",
    "per_node_reason",
    "spot_healing",
    "writes_queued_resource",
]

# registry name -> its cloud's answer (`Cloud.healing`), derived from the `Cloud` objects.
HEALING: dict[str, Healing] = {name: c.healing or manual_healing(c.display_name) for name, c in CLOUDS.items()}


def healing(
    provider: str,
    instance_type: str = "",
    queued_resource: bool = False,
    purchase: str = "",
    kms_key_id: str | None = None,
    flex_start: bool = False,
) -> Healing:
    """The entry of `provider`; an unknown name, or an instance type its group does not hold
    (GCP TPU slices), gets the manual answer, unless the stack requests those nodes as queued
    resources (`queued_resource`) and the cloud's controller re-requests them (`Healing.queued`).
    With `purchase` known, a cluster the cloud's group cannot carry (`Healing.per_node`: a spot
    or KMS-encrypted cluster, a type that needs an HPC cluster) gets the manual answer and why;
    an on-demand one gets the cloud's `Healing.on_demand_summary` where it has one, and a
    `flex_start` one the cloud's `Healing.flex_start_summary` (nothing replaced, the manual
    restart's hours)."""
    entry = HEALING.get(provider)
    if entry is None:
        return manual_healing(provider)
    if instance_type and instance_type.startswith(entry.unreplaced_types):
        if queued_resource and entry.queued is not None:
            return entry.queued
        return manual_healing(f"{provider} {instance_type}")
    reason = per_node_reason(provider, instance_type, purchase, kms_key_id) if purchase else None
    if reason:
        return per_node_healing(CLOUDS[provider].display_name, reason)
    if flex_start and entry.flex_start_summary:
        return Healing(False, entry.runs_job, MANUAL_RESTART_HOURS, entry.flex_start_summary, entry.no_job_types)
    if purchase == "on-demand" and entry.on_demand_summary:
        return dataclasses.replace(entry, summary=entry.on_demand_summary)
    return entry


def per_node_reason(provider: str, instance_type: str, purchase: str, kms_key_id: str | None = None) -> str | None:
    """Why `provider`'s cluster keeps its nodes as per-node instances (`Healing.per_node`), or
    None when its group holds them (or the cloud has no such rule)."""
    entry = HEALING.get(provider)
    if entry is None or entry.per_node is None:
        return None
    return load(entry.per_node)(instance_type, purchase, kms_key_id)  # type: ignore[no-any-return]


@functools.cache
def writes_queued_resource(provider: str, instance_type: str, purchase: str) -> bool:
    """Whether a stack written for this pick requests its nodes as queued resources
    (`Cloud.queued_resource`; GCP TPU spot slices); False for clouds without the rule."""
    cloud = CLOUDS.get(provider)
    if cloud is None or cloud.queued_resource is None:
        return False
    return bool(load(cloud.queued_resource)(instance_type, purchase))


def spot_healing(provider: str, instance_type: str) -> Healing:
    """What a spot pick's cluster does when a node is lost, as `resolve` would write its stack
    (`writes_queued_resource`); the spot estimate and its note read it."""
    return healing(provider, instance_type, writes_queued_resource(provider, instance_type, "spot"), "spot")


def job_problem(
    provider: str, instance_type: str, nproc_per_node: int | None = None, gpus: int | None = None
) -> str | None:
    """Why a `job:` cannot run on `instance_type` nodes of `provider`, or None when it can.

    The one rule behind both the resolver's `job` constraint and the cluster config check.

    Args:
        provider: the cloud.
        instance_type: the node type.
        nproc_per_node: the job's processes per node, or None for one per GPU.
        gpus: the node's accelerators (GPUs, or TPU chips); None skips the process check.
    """
    if nproc_per_node is not None and gpus is not None and nproc_per_node > gpus:
        return (
            f"job.nproc_per_node: {nproc_per_node} processes on {instance_type}, which has {gpus} "
            f"accelerators; give at most {gpus} (one process per GPU), or leave it out"
        )
    entry = healing(provider)
    if not entry.runs_job:
        runs = ", ".join(name for name, h in HEALING.items() if h.runs_job)
        return (
            f"job: the {provider} component does not run a job yet (the node agent ships on {runs}); "
            "remove job and start torchrun by hand, or choose one of those clouds"
        )
    for prefix, reason in entry.no_job_types:
        if instance_type.startswith(prefix):
            return f"job: {instance_type} on {provider}: {reason}; remove job and start training by hand"
    return None


def check_job(
    provider: str, instance_type: str, has_job: bool, nproc_per_node: int | None = None, gpus: int | None = None
) -> None:
    """Refuse a `job:` its nodes cannot run (`job_problem`).

    Raises:
        ValueError: the `job_problem` line.
    """
    problem = job_problem(provider, instance_type, nproc_per_node, gpus) if has_job else None
    if problem:
        raise ValueError(problem)
