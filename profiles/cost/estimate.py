"""Estimate a job on one offering: memory fit, then hours (work / speed / scaling).

`job_hours` returns either `JobHours` or a `Rejection` that names the constraint
(`memory_fit`, `batch`, `throughput` or `run_time`) and carries the numbers, so the resolver
can explain it. Node failures at the published rate (`inputs.FAILURES_PER_ACCELERATOR_HOUR`)
add their lost work and restarts to every run computed from `work`.

FLOPs (Kaplan et al. 2020, sec. 2.1): 6 x params per token, plus, with a `model:` shape,
6 x n_layer x n_ctx x d_attn per token for attention. Recomputation adds a forward pass's
share: `selective` 2 x n_layer x n_ctx x d_attn, `full` 2 x params + 2 x n_layer x n_ctx x
d_attn per token. The spec's MFU is read as its source measured it (`work.mfu_recompute`,
`work.mfu_attention`, `work.mfu_reference`; `profiles.cost.speed`), so a run is slower only
by the recomputation beyond its source's, never twice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from facts.limits import MAX_HOURS
from facts.performance import performance
from profiles.catalog.offering import Offering
from profiles.cost import calibration, inputs
from profiles.cost.memory import GIB, MemoryFit, memory_fit
from profiles.cost.pricing import HOURS_PER_MONTH, spot_overhead
from profiles.cost.speed import flops_rate, gpu_hours_speed, hardware_flops_per_token
from profiles.cost.throughput import GRADIENT_BYTES, Step, batch_efficiency, scaling_efficiency
from profiles.spec import WorkloadSpec

__all__ = ["JobHours", "Rejection", "hardware_flops_per_token", "job_hours"]


@dataclass(frozen=True)
class JobHours:
    """Run time of the job on one offering, before any spot overhead.

    Attributes:
        hours: wall-clock hours.
        checkpointing: whether activations are recomputed to fit memory.
        notes: short remarks shown with the row (recomputation, unsourced figures).
        recompute: `none`, `selective` or `full`.
        efficiency: fraction of linear speed-up kept across nodes (1.0 on one node).
        speed: where the speed comes from: `calibrated` (published pairs,
            `profiles.cost.calibration`), `peak x MFU` (no calibrated row), `measured` or
            `published` (a registered measurement), `given` (the spec's `hours`).
    """

    hours: float
    checkpointing: bool = False
    notes: tuple[str, ...] = ()
    recompute: str = "none"
    efficiency: float = 1.0
    speed: str = "calibrated"


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


def _replica_nodes(offering: Offering, params: float, bytes_per_param: float) -> int:
    """Fewest nodes whose usable memory holds the model state: data-parallel replicas span
    that many nodes (state sharded inside a replica, HSDP-style), so each node all-reduces
    only its share of the gradients."""
    memory = offering.accelerator_memory_gib
    if memory is None:
        return 1
    node = inputs.usable_gib(offering.accelerator, memory) * offering.accelerator_count * GIB
    return max(1, math.ceil(params * bytes_per_param / node))


def _batch_problem(spec: WorkloadSpec, offering: Offering, gpus: int) -> Rejection | None:
    """A Rejection when the global batch cannot feed `gpus` accelerators: more data-parallel
    replicas than sequences (a sequence split over at most a node's accelerators or a TPU
    host's chips, `inputs` DEFAULT_SEQ_LEN), or more accelerators than images per step."""
    work = spec.work
    assert work is not None
    if work.images is not None:
        images = work.batch_images or inputs.DEFAULT_BATCH_IMAGES
        if gpus > images:
            return Rejection("batch", f"{gpus} accelerators for {images:,.0f} images per step (work.batch_images)")
        return None
    seq = spec.model.seq_len if spec.model is not None else inputs.DEFAULT_SEQ_LEN
    sequences = (work.batch_tokens or inputs.DEFAULT_BATCH_TOKENS) / seq
    split = _split(offering)
    if gpus > sequences * split:
        return Rejection(
            "batch",
            f"{gpus} accelerators for {sequences:,.0f} sequences of {seq:,} tokens per step "
            f"(at most {split} accelerators per sequence; work.batch_tokens)",
        )
    return None


def _split(offering: Offering) -> int:
    """Accelerators one sequence may be split over: a TPU host's chips, else the node's."""
    if offering.interconnect == "tpu-ici":
        return inputs.TPU_CHIPS_PER_HOST.get(offering.accelerator, 4)
    return offering.accelerator_count


def _work_hours(spec: WorkloadSpec, offering: Offering, nodes: int, recompute: str) -> tuple | Rejection:
    """(hours, efficiency, remark, speed) of the work on `nodes` nodes, or why not."""
    work = spec.work
    assert work is not None
    gpus = offering.accelerator_count * nodes
    target = performance(offering.accelerator, offering.form_factor, offering.instance_type)
    if target is None:
        return Rejection("throughput", f"no sourced BF16 TFLOPS for {offering.accelerator}")
    problem = _batch_problem(spec, offering, gpus)
    if problem is not None:
        return problem
    batch = work.batch_tokens or inputs.DEFAULT_BATCH_TOKENS
    if work.gpu_hours is not None:
        accelerator_hours, rate = gpu_hours_speed(work, offering, target)
        base = accelerator_hours / gpus
        step = Step(batch, 6.0, rate.flops_per_s, float(GRADIENT_BYTES))
        replica_nodes = 1
    else:
        rate = flops_rate(work, spec.model, offering, target, recompute)
        flops = work.training_flops()
        assert flops is not None
        params = work.params or 1.0  # images: a per-parameter ratio, params unknown
        per_token = hardware_flops_per_token(params, spec.model, "none") if work.params else 6.0
        if work.params is not None:
            flops = per_token * (work.tokens or 0.0)
        base = flops / (gpus * rate.flops_per_s) / 3600
        bytes_per_param = spec.model.bytes_per_param if spec.model else 16
        replica_nodes = _replica_nodes(offering, params, bytes_per_param) if work.params else 1
        step = Step(batch, per_token, rate.flops_per_s, GRADIENT_BYTES * params / replica_nodes)
    efficiency, how = scaling_efficiency(offering, nodes, step, replica_nodes)
    if work.images is None and calibration.workload_of(work) == "llm":
        efficiency *= batch_efficiency(batch / gpus)
    note = f"scaling x{efficiency:.3f} ({how})" if efficiency < 0.9995 else ""
    remark = "; ".join(x for x in (target.unsourced, rate.note, note) if x)
    return base / efficiency, efficiency, remark, rate.speed


def failure_hours(spec: WorkloadSpec, offering: Offering, nodes: int, hours: float) -> tuple[float, str]:
    """(hours node failures add to a run of `hours`, a note or ""): expected failures =
    accelerators x hours x `inputs.FAILURES_PER_ACCELERATOR_HOUR`, each losing half a
    checkpoint interval (`spot.checkpoint_interval`, else `inputs.DEFAULT_CHECKPOINT_HOURS`)
    plus the cloud's restart time (`inputs.restart_hours`); first order, as spot's."""
    interval = spec.spot.checkpoint_interval_hours if spec.spot is not None else inputs.DEFAULT_CHECKPOINT_HOURS
    restart = inputs.restart_hours(offering.provider, offering.instance_type)
    per_node_month = inputs.FAILURES_PER_ACCELERATOR_HOUR * offering.accelerator_count * HOURS_PER_MONTH
    overhead = spot_overhead(hours, nodes, per_node_month, interval, restart)
    if overhead.added_hours < 0.005 * hours:
        return overhead.added_hours, ""
    return overhead.added_hours, (
        f"node failures: {overhead.interruptions:.2f} expected, +{overhead.added_hours:.1f} h "
        f"({inputs.FAILURE_SOURCE}; {interval:g} h checkpoints, {restart:g} h restart)"
    )


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
        return JobHours(spec.hours, recompute != "none", notes, recompute, speed=calibration.GIVEN)
    found = _work_hours(spec, offering, nodes, recompute)
    if isinstance(found, Rejection):
        return found
    hours, efficiency, remark, speed = found
    added, failures = failure_hours(spec, offering, nodes, hours)
    hours += added
    if hours > MAX_HOURS:  # the limit `hours:` has (profiles.spec.units.at_most_hours), for work too
        return Rejection("run_time", f"{hours:,.0f} h on {nodes} x {offering.instance_type}", hours)
    if remark:
        notes += (f"{offering.accelerator}: {remark}",)
    notes += (failures,) if failures else ()
    return JobHours(hours, recompute != "none", notes, recompute, efficiency, speed)
