"""Estimate a job on one offering: memory fit, then hours (work / speed / scaling).

`job_hours` returns either `JobHours` or a `Rejection` that names the constraint
(`memory_fit` or `throughput`) and carries the numbers, so the resolver can explain it.
"""

from __future__ import annotations

from dataclasses import dataclass

from profiles.catalog.offering import Offering
from profiles.cost.memory import memory_fit
from profiles.cost.throughput import (
    CHECKPOINTING_FACTOR,
    hours_from_flops,
    hours_from_gpu_hours,
    scaling_efficiency,
)
from facts.performance import performance
from profiles.spec import WorkloadSpec


@dataclass(frozen=True)
class JobHours:
    """Run time of the job on one offering, before any spot overhead.

    Attributes:
        hours: wall-clock hours.
        checkpointing: whether gradient checkpointing is used to fit memory.
        notes: short remarks shown with the row (checkpointing, unsourced figures).
    """

    hours: float
    checkpointing: bool = False
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rejection:
    """Why an offering cannot run the job: a constraint name and its numbers."""

    constraint: str
    detail: str


def _check_memory(spec: WorkloadSpec, offering: Offering, gpus: int) -> Rejection | bool:
    """False when no model is given; True when checkpointing is needed; or a Rejection."""
    if spec.model is None:
        return False
    memory = offering.accelerator_memory_gib
    if memory is None:
        return Rejection("memory_fit", f"{offering.accelerator} memory per GPU unknown")
    fit = memory_fit(spec.model, memory, gpus)
    if not fit.fits:
        return Rejection(
            "memory_fit",
            f"needs {fit.need_gib:.1f} GiB per GPU even with checkpointing, {offering.accelerator} has {memory:g} GiB",
        )
    return fit.checkpointing


def _work_hours(spec: WorkloadSpec, offering: Offering, nodes: int, gpus: int) -> tuple[float, str] | Rejection:
    work = spec.work
    assert work is not None
    target = performance(offering.accelerator, offering.form_factor, offering.instance_type)
    if target is None:
        return Rejection("throughput", f"no sourced BF16 TFLOPS for {offering.accelerator}")
    flops = work.training_flops()
    if flops is not None:
        assert work.mfu is not None
        base = hours_from_flops(flops, target, gpus, work.mfu)
    else:
        assert work.gpu_hours is not None and work.reference is not None
        reference = performance(work.reference, "SXM")
        if reference is None:
            return Rejection("throughput", f"no sourced BF16 TFLOPS for reference {work.reference}")
        base = hours_from_gpu_hours(work.gpu_hours, reference, target, gpus)
    efficiency = scaling_efficiency(nodes, offering.rdma)
    return base / efficiency, target.unsourced


def job_hours(spec: WorkloadSpec, offering: Offering, nodes: int | None = None) -> JobHours | Rejection:
    """Hours the spec's job takes on `offering` with `nodes` nodes (default `spec.nodes`),
    or why it cannot run.

    With `hours` in the spec the run time is taken as given; with `work` it follows from
    the accelerator's speed, the node count's scaling efficiency and, when the model needs
    it to fit, gradient checkpointing (x 4/3).
    """
    nodes = spec.nodes if nodes is None else nodes
    gpus = offering.accelerator_count * nodes
    checkpointing = _check_memory(spec, offering, gpus)
    if isinstance(checkpointing, Rejection):
        return checkpointing
    notes = ("gradient checkpointing",) if checkpointing else ()
    if spec.work is None:
        assert spec.hours is not None
        return JobHours(spec.hours, checkpointing, notes)
    found = _work_hours(spec, offering, nodes, gpus)
    if isinstance(found, Rejection):
        return found
    hours, unsourced = found
    if unsourced:
        notes += (f"{offering.accelerator}: {unsourced}",)
    return JobHours(hours * (CHECKPOINTING_FACTOR if checkpointing else 1.0), checkpointing, notes)
