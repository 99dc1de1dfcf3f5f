"""Estimate a job on one offering: memory fit, then hours (work / speed / scaling).

`job_hours` returns either `JobHours` or a `Rejection` that names the constraint
(`memory_fit` or `throughput`) and carries the numbers, so the resolver can explain it.

FLOPs (Kaplan et al. 2020, sec. 2.1): 6 x params per token, plus, with a `model:` shape,
6 x n_layer x n_ctx x d_attn per token for attention. Recomputation adds a forward pass's
share: `selective` 2 x n_layer x n_ctx x d_attn, `full` 2 x params + 2 x n_layer x n_ctx x
d_attn per token. The spec's MFU is read as its source measured it (`work.mfu_recompute`),
so a run is slower only by the recomputation beyond its source's, never twice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from facts.limits import MAX_HOURS
from facts.performance import Performance, performance
from profiles.catalog.offering import Offering
from profiles.cost import inputs
from profiles.cost.memory import GIB, MemoryFit, memory_fit
from profiles.cost.throughput import GRADIENT_BYTES, Step, hours_from_gpu_hours, scaling_efficiency
from profiles.spec import WorkloadSpec

if TYPE_CHECKING:
    from profiles.spec.values import ModelShape, Work


@dataclass(frozen=True)
class JobHours:
    """Run time of the job on one offering, before any spot overhead.

    Attributes:
        hours: wall-clock hours.
        checkpointing: whether activations are recomputed to fit memory.
        notes: short remarks shown with the row (recomputation, unsourced figures).
        recompute: `none`, `selective` or `full`.
        efficiency: fraction of linear speed-up kept across nodes (1.0 on one node).
        speed: where the speed comes from: `estimated` (the model's inputs), `measured` or
            `published` (a registered measurement), `given` (the spec's `hours`).
    """

    hours: float
    checkpointing: bool = False
    notes: tuple[str, ...] = ()
    recompute: str = "none"
    efficiency: float = 1.0
    speed: str = "estimated"


@dataclass(frozen=True)
class Rejection:
    """Why an offering cannot run the job: a constraint name and its numbers (`hours`: the
    run time of a `run_time` rejection, hours)."""

    constraint: str
    detail: str
    hours: float | None = None


def _check_memory(spec: WorkloadSpec, offering: Offering, gpus: int) -> Rejection | MemoryFit | None:
    """None when no model is given; else the fit (with its recomputation) or a Rejection."""
    if spec.model is None:
        return None
    memory = offering.accelerator_memory_gib
    if memory is None:
        return Rejection("memory_fit", f"{offering.accelerator} memory per GPU unknown")
    fit = memory_fit(spec.model, inputs.usable_gib(offering.accelerator, memory), gpus)
    if not fit.fits:
        return Rejection(
            "memory_fit",
            f"needs {fit.need_gib:.1f} GiB per GPU with {fit.recompute} recomputation, {offering.accelerator} "
            f"has {fit.have_gib:.1f} GiB usable ({memory:g} GiB less {inputs.MEMORY_HEADROOM:.0%} headroom)",
        )
    return fit


def hardware_flops_per_token(params: float, model: ModelShape | None, recompute: str) -> float:
    """FLOPs per token a step executes with `recompute` (module docstring)."""
    attention = 0.0 if model is None else model.layers * model.seq_len * model.hidden
    extra = {"none": 0.0, "selective": 2 * attention, "full": 2 * params + 2 * attention}[recompute]
    return 6 * params + 6 * attention + extra


def _replica_nodes(offering: Offering, params: float, bytes_per_param: float) -> int:
    """Fewest nodes whose usable memory holds the model state: data-parallel replicas span
    that many nodes (state sharded inside a replica, HSDP-style), so each node all-reduces
    only its share of the gradients."""
    memory = offering.accelerator_memory_gib
    if memory is None:
        return 1
    node = inputs.usable_gib(offering.accelerator, memory) * offering.accelerator_count * GIB
    return max(1, math.ceil(params * bytes_per_param / node))


def _speed(
    work: Work, model: ModelShape | None, offering: Offering, target: Performance, recompute: str
) -> tuple[float, float, float, float, float]:
    """(model FLOPs of the job or None-equivalent, FLOP/s per GPU, FLOPs per token, gradient
    bytes, params) for FLOP-counted work."""
    measured = inputs.measured(offering)
    if work.params is not None and work.tokens is not None:
        per_token = hardware_flops_per_token(work.params, model, "none")
        slowdown = 1.0
        if model is not None:
            used = hardware_flops_per_token(work.params, model, recompute)
            slowdown = used / hardware_flops_per_token(work.params, model, work.mfu_recompute)
        assert work.mfu is not None
        rate = target.bf16_tflops * 1e12 * work.mfu / slowdown
        if measured is not None and measured.tflops_per_gpu is not None:
            rate = measured.tflops_per_gpu * 1e12
        return per_token * work.tokens, rate, per_token, GRADIENT_BYTES * work.params, work.params
    flops = work.training_flops()
    assert flops is not None and work.mfu is not None
    rate = target.bf16_tflops * 1e12 * work.mfu
    if measured is not None and measured.tflops_per_gpu is not None:
        rate = measured.tflops_per_gpu * 1e12
    return flops, rate, 6.0, float(GRADIENT_BYTES), 1.0  # per-parameter ratio: params unknown


def _work_hours(
    spec: WorkloadSpec, offering: Offering, nodes: int, recompute: str
) -> tuple[float, float, str] | Rejection:
    work = spec.work
    assert work is not None
    gpus = offering.accelerator_count * nodes
    target = performance(offering.accelerator, offering.form_factor, offering.instance_type)
    if target is None:
        return Rejection("throughput", f"no sourced BF16 TFLOPS for {offering.accelerator}")
    batch = work.batch_tokens or inputs.DEFAULT_BATCH_TOKENS
    if work.gpu_hours is not None:
        assert work.reference is not None
        reference = performance(work.reference, "SXM")
        assert reference is not None  # Work admits only references with a BF16 figure
        rate = target.bf16_tflops * 1e12 * inputs.DEFAULT_MFU
        measured = inputs.measured(offering)
        if measured is not None and measured.tflops_per_gpu is not None:
            rate = measured.tflops_per_gpu * 1e12
        base = (
            hours_from_gpu_hours(work.gpu_hours, reference, target, gpus)
            * target.bf16_tflops
            * 1e12
            * inputs.DEFAULT_MFU
            / rate
        )
        step = Step(batch, 6.0, rate, float(GRADIENT_BYTES))
        replica_nodes = 1
    else:
        flops, rate, per_token, gradient_bytes, params = _speed(work, spec.model, offering, target, recompute)
        base = flops / (gpus * rate) / 3600
        bytes_per_param = spec.model.bytes_per_param if spec.model else 16
        replica_nodes = _replica_nodes(offering, params, bytes_per_param) if work.params else 1
        step = Step(batch, per_token, rate, gradient_bytes / replica_nodes)
    efficiency, how = scaling_efficiency(offering, nodes, step, replica_nodes)
    note = f"scaling x{efficiency:.3f} ({how})" if efficiency < 0.9995 else ""
    return base / efficiency, efficiency, "; ".join(x for x in (target.unsourced, note) if x)


def job_hours(spec: WorkloadSpec, offering: Offering, nodes: int | None = None) -> JobHours | Rejection:
    """Hours the spec's job takes on `offering` with `nodes` nodes (default `spec.nodes`),
    or why it cannot run.

    With `hours` in the spec the run time is taken as given; with `work` it follows from
    the accelerator's speed, the recomputation the model needs to fit memory, and the
    scaling the offering's fabric allows at that node count.
    """
    nodes = spec.nodes if nodes is None else nodes
    fit = _check_memory(spec, offering, offering.accelerator_count * nodes)
    if isinstance(fit, Rejection):
        return fit
    recompute = fit.recompute if fit is not None else "none"
    notes: tuple[str, ...] = (f"gradient checkpointing: {recompute}",) if recompute != "none" else ()
    if spec.work is None:
        assert spec.hours is not None
        return JobHours(spec.hours, recompute != "none", notes, recompute, speed="given")
    found = _work_hours(spec, offering, nodes, recompute)
    if isinstance(found, Rejection):
        return found
    hours, efficiency, remark = found
    if hours > MAX_HOURS:  # the limit `hours:` has (profiles.spec.units.at_most_hours), for work too
        return Rejection("run_time", f"{hours:,.0f} h on {nodes} x {offering.instance_type}", hours)
    if remark:
        notes += (f"{offering.accelerator}: {remark}",)
    measured = inputs.measured(offering)
    speed = measured.provenance if measured is not None and measured.tflops_per_gpu is not None else "estimated"
    return JobHours(hours, recompute != "none", notes, recompute, efficiency, speed)
