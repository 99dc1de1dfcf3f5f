"""Achieved speed per accelerator for a job's work: calibrated where published pairs exist.

For work given as FLOPs (`params` x `tokens`, or `images`), the spec's `mfu` was measured on
one accelerator (`work.mfu_reference`, default per workload class in
`profiles.cost.calibration.MFU_REFERENCE`): its peak x MFU is that accelerator's achieved
speed, and any other accelerator runs at it x the ratio of their calibrated speeds
(`profiles.cost.calibration`). Without a calibrated row for either side, the target's own
peak x MFU is used and the row says `peak x MFU`.

The MFU counts attention the way its source did (`work.mfu_attention`: 12 x layers x
seq_len x hidden FLOPs per token for Megatron-LM, torchtitan and MosaicML; the model's own
count is Kaplan's 6): the achieved tokens/s is peak x MFU / (6 x params + c x L x s x h), and
the model's FLOPs per token are charged at that rate. Recomputation beyond the MFU source's
slows the run by its extra hardware FLOPs (`work.mfu_recompute`).

For work given as GPU-hours on `work.reference`, hours scale by the calibrated speed ratio
(else the ratio of peaks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from facts.performance import Performance, performance
from profiles.catalog.offering import Offering
from profiles.cost import calibration, inputs

# Dense BF16 peak of the calibration table's anchor, an H100 SXM (facts.performance), TFLOPS.
ANCHOR_TFLOPS = 989.0

if TYPE_CHECKING:
    from profiles.spec.values import ModelShape, Work


class Rate(NamedTuple):
    """Achieved speed of one accelerator on the job.

    Attributes:
        flops_per_s: model FLOPs per second per accelerator, in the model's own count (6 x
            params + 6 x L x s x h per token; images: flops_per_image).
        speed: `calibrated`, `peak x MFU`, or a registered measurement's provenance.
        note: how the speed was obtained, for the row ("" when nothing to say).
    """

    flops_per_s: float
    speed: str
    note: str = ""


def attention_flops(model: ModelShape | None, coefficient: float) -> float:
    """`coefficient` x layers x seq_len x hidden attention FLOPs per token (0 without a shape)."""
    return 0.0 if model is None else coefficient * model.layers * model.seq_len * model.hidden


def hardware_flops_per_token(params: float, model: ModelShape | None, recompute: str) -> float:
    """FLOPs per token a step executes with `recompute` (Kaplan's count): 6 x params + 6 x L x
    s x h, plus `selective` 2 x L x s x h, `full` 2 x params + 2 x L x s x h."""
    attention = attention_flops(model, 1.0)
    extra = {"none": 0.0, "selective": 2 * attention, "full": 2 * params + 2 * attention}[recompute]
    return 6 * params + 6 * attention + extra


def peak_rate(work: Work, offering: Offering, target: Performance, mfu: float) -> Rate:
    """Achieved FLOP/s (in the MFU source's count) of `offering`'s accelerator at `mfu`:
    calibrated against the MFU's reference accelerator, else the target's peak x MFU."""
    workload = calibration.workload_of(work)
    name = work.mfu_reference or calibration.MFU_REFERENCE[workload]
    ratio = calibration.speed_ratio(
        calibration.relative_speed(offering.accelerator, offering.form_factor, workload, offering.instance_type),
        calibration.reference_speed(name, workload),
    )
    reference = performance(name, "SXM")
    if ratio is None or reference is None:
        return Rate(target.bf16_tflops * 1e12 * mfu, calibration.PEAK, f"no calibrated {workload} speed: peak x MFU")
    note = f"{workload} speed {ratio:.3f}x {name} (calibrated)" if name != offering.accelerator else ""
    return Rate(reference.bf16_tflops * 1e12 * mfu * ratio, calibration.CALIBRATED, note)


def flops_rate(work: Work, model: ModelShape | None, offering: Offering, target: Performance, recompute: str) -> Rate:
    """The job's `Rate` on `offering` for work given as FLOPs (a registered measurement first)."""
    assert work.mfu is not None
    measured = inputs.measured(offering)
    if measured is not None and measured.tflops_per_gpu is not None:
        return Rate(measured.tflops_per_gpu * 1e12, measured.provenance)
    rate = peak_rate(work, offering, target, work.mfu)
    if work.params is None:
        return rate
    own = hardware_flops_per_token(work.params, model, "none")
    counted = 6 * work.params + attention_flops(model, float(work.mfu_attention))
    slowdown = 1.0
    if model is not None:
        used = hardware_flops_per_token(work.params, model, recompute)
        slowdown = used / hardware_flops_per_token(work.params, model, work.mfu_recompute)
    return rate._replace(flops_per_s=rate.flops_per_s * own / counted / slowdown)


def gpu_hours_speed(work: Work, offering: Offering, target: Performance) -> tuple[float, Rate]:
    """(target accelerator-hours for the work, the target's `Rate`) for work given as
    `gpu_hours` on `work.reference`: hours scale by the calibrated speed ratio, else by the
    ratio of peaks. The rate (it only sizes each step's compute against its communication) is
    an H100 SXM's peak x `inputs.DEFAULT_MFU` x the target's calibrated speed, else the
    target's peak x that MFU. A registered measurement replaces the target's speed."""
    assert work.gpu_hours is not None and work.reference is not None
    workload = calibration.workload_of(work)
    reference = performance(work.reference, "SXM")
    assert reference is not None  # Work admits only references with a BF16 figure
    mine = calibration.relative_speed(offering.accelerator, offering.form_factor, workload, offering.instance_type)
    ratio = calibration.speed_ratio(mine, calibration.reference_speed(work.reference, workload))
    if mine is None or ratio is None:
        ratio = target.bf16_tflops / reference.bf16_tflops
        rate = Rate(target.bf16_tflops * 1e12 * inputs.DEFAULT_MFU, calibration.PEAK, "no calibrated speed: peak ratio")
    else:
        note = f"{workload} speed {ratio:.3f}x {work.reference} (calibrated)" if ratio != 1 else ""
        rate = Rate(ANCHOR_TFLOPS * 1e12 * inputs.DEFAULT_MFU * mine.speed, calibration.CALIBRATED, note)
    hours = work.gpu_hours / ratio
    measured = inputs.measured(offering)
    if measured is not None and measured.tflops_per_gpu is not None:
        hours *= rate.flops_per_s / (measured.tflops_per_gpu * 1e12)
        rate = Rate(measured.tflops_per_gpu * 1e12, measured.provenance)
    return hours, rate
