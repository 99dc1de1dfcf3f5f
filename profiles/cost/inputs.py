"""The time and interruption model's inputs, in one place measured figures can override.

Everything the estimate assumes about an offering's speed, its fabric and its spot market
is read through this module, so a benchmark (`trainstack bench`, #15) can replace an
assumption with a measurement without touching the model:

    from profiles.cost.inputs import Measured, register_measurements
    register_measurements(lambda offering: Measured(tflops_per_gpu=310.0, source="bench 2026-12-01"))

A registered lookup is asked first for every offering; None (or a None field) falls back
to the sourced defaults below. `clear_measurements()` removes it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from clouds.base import load
from clouds.healing import HEALING, MANUAL_RESTART_HOURS, spot_healing
from clouds.registry import CLOUDS
from facts.aws_spot_traces import FAMILY_RATES
from facts.spot_advisor import BANDS, AdvisorBand
from profiles.catalog.offering import Offering

# Hours to get a replacement node and reload the checkpoint after a spot interruption, per
# cloud: what the cluster does (`clouds.healing`): a node group's replace-and-rejoin time, or a
# manual restart where nothing replaces nodes; both unsourced and labelled there. A spec's
# `spot.restart` overrides it.
RESTART_HOURS: dict[str, float] = {name: entry.restart_hours for name, entry in HEALING.items()}
DEFAULT_RESTART_HOURS = MANUAL_RESTART_HOURS


def restart_hours(provider: str, instance_type: str = "") -> float:
    """Hours one spot interruption costs beyond lost work, for `provider`'s `instance_type`
    nodes (see `RESTART_HOURS`; a type the cloud's group does not hold gets the manual figure,
    as does a queued-resource slice, which is re-requested but restarted by hand)."""
    if instance_type:
        return spot_healing(provider, instance_type).restart_hours
    return RESTART_HOURS.get(provider, DEFAULT_RESTART_HOURS)


# Expected spot interruptions per node per month (730 h). AWS's Spot Instance Advisor
# publishes, per instance type and region, the share of Spot capacity reclaimed over the
# trailing month in bands < 5 %, 5-10 %, 10-15 %, 15-20 % and > 20 % (pricing-models.md A10);
# the bands recorded for GPU types are in `facts.spot_advisor` (source and date there). A
# recorded band is read as its upper edge (the top band as its floor, 0.20) in interruptions
# per node-month: a node reclaimed at most once a month, an assumption. Without a band (other
# types and regions; Azure's eviction-rate bands (Z6), GCP and the Chinese clouds publish none
# here) a (cloud, family) row of SPOT_INTERRUPTIONS applies (AWS p3: counted in the published
# Can't Be Late spot traces, `facts.aws_spot_traces`), else an assumed 0.20 per node-month for
# every cloud: the floor of AWS's worst band (> 20 %), a guess with no GPU, GCP or Azure
# measurement behind it, labelled with what the cloud does publish (`Cloud.spot_rate_basis`).
# The one GPU trace counted (p3, 316 per node-month) is three orders above it: the guess is
# not a safe side. `spot.interruptions_per_node_month` replaces it.
SPOT_INTERRUPTIONS: dict[tuple[str, str], tuple[float, str]] = dict(FAMILY_RATES)
DEFAULT_SPOT_INTERRUPTIONS = (0.20, "assumed: floor of AWS's worst Spot Advisor band, > 20 %/month; no published rate")


def instance_family(instance_type: str) -> str:
    """The family part of an instance type: `p5.48xlarge` -> `p5`, `Standard_ND96asr_v4` ->
    `Standard_ND96asr_v4`, `a3-highgpu-8g` -> `a3-highgpu`, `tpu-v5p-8` -> `tpu-v5p`."""
    if "." in instance_type:  # AWS, Alibaba, Tencent, Huawei, Volcengine sizes; no Azure size has a dot
        return instance_type.partition(".")[0]
    head, _, tail = instance_type.rpartition("-")
    return head if head and tail[:1].isdigit() else instance_type


@functools.cache
def _spot_bands(provider: str) -> Callable[[str, str], AdvisorBand | None] | None:
    """The cloud's recorded interruption bands (`Cloud.spot_bands`), or None without any."""
    found = CLOUDS.get(provider)
    return load(found.spot_bands) if found is not None and found.spot_bands else None


def spot_interruptions(offering: Offering) -> tuple[float, str]:
    """(expected interruptions per node-month, where the figure comes from) for `offering`:
    a registered measurement, else the type's Spot Advisor band in its region (AWS), else a
    (cloud, family) row, else `DEFAULT_SPOT_INTERRUPTIONS`."""
    measured = _measured(offering)
    if measured is not None and measured.interruptions_per_node_month is not None:
        return measured.interruptions_per_node_month, measured.source
    bands = _spot_bands(offering.provider)
    band = bands(offering.region, offering.instance_type) if bands is not None else None
    if band is not None:
        edge = "floor" if band.band == max(BANDS) else "upper edge"
        return (
            band.upper_edge,
            f"Spot Advisor {band.label} in {offering.region} ({edge}), {band.source}, {band.observed}",
        )
    key = (offering.provider, instance_family(offering.instance_type))
    if key in SPOT_INTERRUPTIONS:
        return SPOT_INTERRUPTIONS[key]
    cloud = CLOUDS.get(offering.provider)
    basis = cloud.spot_rate_basis if cloud is not None and cloud.spot_rate_basis else "no published rate"
    rate, _ = DEFAULT_SPOT_INTERRUPTIONS
    return rate, f"assumed: {basis}; 0.2 is the floor of AWS's worst Spot Advisor band (> 20 %/month)"


@dataclass(frozen=True)
class Measured:
    """Measured figures for one offering that replace the model's assumptions.

    Attributes:
        tflops_per_gpu: achieved model TFLOPS per accelerator on the job's kind of work
            (replaces peak x MFU), or None.
        busbw_gbytes_per_s: measured all-reduce bandwidth between nodes, GB/s per node
            (an nccl-tests per-rank `busbw` converted by `throughput.node_busbw`), or None.
        interruptions_per_node_month: measured spot interruptions per node-month, or None.
        source: where the measurement comes from (shown with the row).
        provenance: `measured` (the team's own runs) or `published` (a published result).
    """

    tflops_per_gpu: float | None = None
    busbw_gbytes_per_s: float | None = None
    interruptions_per_node_month: float | None = None
    source: str = "measured"
    provenance: str = "measured"


_lookups: list[Callable[[Offering], Measured | None]] = []


def register_measurements(lookup: Callable[[Offering], Measured | None]) -> None:
    """Ask `lookup(offering)` for measured figures before using any default."""
    _lookups.append(lookup)


def clear_measurements() -> None:
    """Forget every registered lookup (defaults only)."""
    _lookups.clear()


def _measured(offering: Offering) -> Measured | None:
    for lookup in reversed(_lookups):
        found = lookup(offering)
        if found is not None:
            return found
    return None


def measured(offering: Offering) -> Measured | None:
    """The measured figures registered for `offering`, or None."""
    return _measured(offering) if _lookups else None


# --- Memory -----------------------------------------------------------------------------
# Usable memory per GPU as a cloud reports it, where it is below the marketed size: AWS
# reports 22,888 MiB for L4 and A10G, 45,776 MiB for L40S, 144,384 MiB for H200 and
# 183,359 MiB for B200 (S26, accelerators.md). Other parts: the marketed size.
REPORTED_MIB: dict[str, float] = {"L4": 22888, "A10G": 22888, "L40S": 45776, "H200": 144384, "B200": 183359}
# Kept free for the CUDA context, NCCL's communication buffers and allocator fragmentation:
# unsourced [10 % of the reported memory]; no measurement was collected.
MEMORY_HEADROOM = 0.10


def usable_gib(accelerator: str, memory_gib: float) -> float:
    """Memory per GPU a training job can fill, GiB: the reported size less `MEMORY_HEADROOM`."""
    reported = REPORTED_MIB[accelerator] / 1024 if accelerator in REPORTED_MIB else memory_gib
    return reported * (1 - MEMORY_HEADROOM)


# --- Speed --------------------------------------------------------------------------------
# MFU assumed for work given as GPU-hours (only to size each step's compute against its
# gradient all-reduce; the hours themselves scale by peak ratio): 0.40, the low end of the
# dense-LLM ranges in training-throughput.md (A100 0.40-0.60, H100 0.38-0.47).
DEFAULT_MFU = 0.40
# Global batch per optimizer step when the spec gives none: unsourced [4M tokens, the
# order of published LLM pre-training batches; Megatron-LM's GPT-3 175B strong-scaling run
# (T4) used 1,152 x 2,048 = 2.36M].
DEFAULT_BATCH_TOKENS = 4 * 2**20
# Tokens per sequence when the spec gives no `model.seq_len`: unsourced [2,048, the sequence
# of GPT-3 175B in Megatron-LM's strong-scaling run and of MosaicML's MPT tables, T4/T5].
DEFAULT_SEQ_LEN = 2048
# Global batch of work given as images when the spec gives no `work.batch_images`: unsourced
# [2,048 images, 256 per GPU on 8 GPUs].
DEFAULT_BATCH_IMAGES = 2048
# A sequence may be split over at most this many accelerators (tensor parallelism inside a
# node's NVLink domain, or a TPU host's chips): data-parallel replicas = accelerators / this,
# and no candidate may have more replicas than the batch has sequences (images: one
# accelerator per image at most). GPUs: the node's accelerators; TPU: TPU_CHIPS_PER_HOST.

# Per-accelerator batch efficiency 1 / (1 + b0 / b) (b: tokens per accelerator per step),
# b0 fitted to Megatron-LM's GPT-3 175B strong-scaling series on H100 (T4): global batch
# 1,152 x 2,048 tokens, MFU 47 % on 96 GPUs (24,576 tokens each) and 42 % on 4,608 (512
# each). A fixed per-step cost (optimizer step, pipeline fill and drain, launches) worth b0
# tokens of compute; read as independent of model size (an assumption).
MEGATRON_STRONG_SCALING = ((96, 0.47), (4608, 0.42))
MEGATRON_BATCH_TOKENS = 1152 * 2048


def batch_overhead_tokens() -> float:
    """b0, tokens (62.4): solves (1 + b0 / b1) / (1 + b0 / b2) = MFU2 / MFU1 for the series'
    two points (computed on each call, a few operations, so a measured series replaces it)."""
    (g1, m1), (g2, m2) = MEGATRON_STRONG_SCALING
    b1, b2, kept = MEGATRON_BATCH_TOKENS / g1, MEGATRON_BATCH_TOKENS / g2, m2 / m1
    return (1 - kept) / (kept / b2 - 1 / b1)


# Hardware failures of on-demand (and every) cluster: Meta's Llama 3 405B pre-training saw 419
# unexpected interruptions in 54 days on 16,384 H100 (Llama 3 paper, arXiv 2407.21783, as
# reported by datacenterdynamics.com, "Meta report details hundreds of GPU and HBM3 related
# interruptions"): 1.97e-5 per accelerator-hour, applied to every accelerator (assumed for
# other parts). Each failure loses half a checkpoint interval plus the restart time.
FAILURES_PER_ACCELERATOR_HOUR = 419 / (54 * 24 * 16384)
FAILURE_SOURCE = "Llama 3: 419 interruptions in 54 days on 16,384 H100"
# Checkpoint interval of a run whose spec gives none (`spot.checkpoint_interval`): unsourced [1 h].
DEFAULT_CHECKPOINT_HOURS = 1.0
# Share of a step's compute the gradient all-reduce can hide behind: the backward pass,
# 4 of the 6 FLOPs per parameter and token (Kaplan et al. 2020); PyTorch DDP / FSDP launch
# each gradient bucket's all-reduce while backward continues. That all of it is hidden is
# an assumption (unsourced [2/3]).
OVERLAP = 2 / 3

# Achieved all-reduce bus bandwidth (nccl-tests busbw) as a fraction of the node's
# advertised network bandwidth, by fabric: all unsourced assumptions [x] until measured
# (`trainstack bench` replaces them through `register_measurements`).
BUSBW_FRACTION: dict[str, float] = {
    "gpudirect-rdma": 0.80,  # InfiniBand / RoCE / EFA reading GPU memory directly
    "gpudirect-tcpx": 0.60,  # GCP A3 High: GPU memory over TCP
    "gpudirect-tcpxo": 0.70,  # GCP A3 Mega
    "rdma": 0.50,  # EFA / eRDMA without GPUDirect: copies through host memory
    "ethernet": 0.30,  # TCP sockets
}
# Network bandwidth assumed when the catalog has none for an offering: unsourced [10 Gbps],
# low on purpose so that a row is never faster for a missing figure.
UNKNOWN_NETWORK_GBPS = 10.0
# TPU data-centre network (DCN) between slices, per host: unsourced [100 Gbps]; hosts carry
# 4 chips (v4, v5p) or 8 (v5e, v6e): unsourced [4 / 8].
DCN_GBPS_PER_HOST = 100.0
TPU_CHIPS_PER_HOST: dict[str, int] = {"tpu-v4": 4, "tpu-v5p": 4, "tpu-v5litepod": 8, "tpu-v6e": 8}

# TPU speed per chip falls with slice size (ICI all-reduce over a larger torus): chip-minutes
# of MLPerf Training GPT-3 175B by slice size (training-throughput.md, T1), relative to the
# smallest slice measured. v5p: 512 chips 58,870; 2,048 chips 60,621; 6,144 chips 72,315.
# v6e: 512 chips 52,398; 2,048 chips 55,951. Generations without data use the v5p curve;
# below 512 chips the first segment's slope is extended (no data, assumed) down to
# TPU_SMALLEST_EXTRAPOLATED chips, smaller slices gaining no more.
TPU_SLICE_CHIP_MINUTES: dict[str, tuple[tuple[int, float], ...]] = {
    "tpu-v5p": ((512, 58870), (2048, 60621), (6144, 72315)),
    "tpu-v6e": ((512, 52398), (2048, 55951)),
}
TPU_SMALLEST_EXTRAPOLATED = 64
