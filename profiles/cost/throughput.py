"""Hours a job takes on an offering: work / (GPUs x per-GPU speed x scaling efficiency).

Per-GPU speed is calibrated per accelerator and workload class from published pairs
(`profiles.cost.speed`, `profiles.cost.calibration`), else peak x MFU.

Scaling across nodes comes from the offering's own fabric: each optimizer step's gradient
all-reduce between nodes (ring: 2 (d-1)/d x gradient bytes over the node's bus bandwidth)
against the step's compute, hidden behind the backward pass as far as `inputs.OVERLAP`
allows. TPU slices lose speed per chip with slice size (measured, `inputs.TPU_SLICE_CHIP_MINUTES`)
and slices talk over the data-centre network. Each accelerator's share of the global batch
costs speed as it shrinks (`batch_efficiency`, fitted to Megatron-LM's strong-scaling series).
Every figure this uses is in `profiles.cost.inputs`, where measurements replace them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from facts.aws import aws_network
from facts.performance import Performance
from profiles.catalog.offering import Offering
from profiles.cost import inputs

# Bytes per gradient element all-reduced (BF16).
GRADIENT_BYTES = 2


def hours_from_flops(flops: float, target: Performance, gpus: int, mfu: float) -> float:
    """Hours to do `flops` on `gpus` accelerators at model-FLOPs utilization `mfu`."""
    return flops / (gpus * target.bf16_tflops * 1e12 * mfu) / 3600


def fabric_kind(offering: Offering) -> str:
    """The `inputs.BUSBW_FRACTION` key of the offering's node-to-node fabric."""
    kind = offering.interconnect
    if kind == "infiniband":
        return "gpudirect-rdma"  # Azure ND: HDR/NDR InfiniBand with GPUDirect RDMA (Z2, Z5, Z7)
    if kind == "efa":
        facts = aws_network(offering.instance_type)
        return "gpudirect-rdma" if facts is not None and facts.gpudirect_rdma else "rdma"
    if kind == "erdma":
        return "rdma"
    return kind if kind in inputs.BUSBW_FRACTION else "ethernet"


def node_busbw(busbw_gbs: float, ranks: int, nodes: int) -> float:
    """All-reduce bandwidth between nodes, GB/s per node, from an nccl-tests run.

    nccl-tests' busbw is per rank: algbw x 2 (ranks - 1) / ranks, where algbw is the message
    size over the time (nccl-tests doc/PERFORMANCE.md). The node-level figure the model needs
    treats each node as one member of the ring: algbw x 2 (nodes - 1) / nodes. Two a3-megagpu-8g
    nodes, 16 ranks, busbw 338.82 GB/s: algbw 180.71 GB/s, node-level 180.71 GB/s (8 x 200 Gbps
    = 200 GB/s of NICs), not 338.82 x 8.
    """
    if ranks <= 1 or nodes <= 1:
        raise ValueError("node_busbw needs a run of at least 2 ranks on at least 2 nodes")
    algbw = busbw_gbs * ranks / (2 * (ranks - 1))
    return algbw * 2 * (nodes - 1) / nodes


def node_busbw_bytes(offering: Offering) -> tuple[float, str]:
    """(all-reduce bandwidth between nodes, bytes/s per node, how it was obtained).

    A registered measurement (`inputs.Measured.busbw_gbytes_per_s`, node-level, see
    `node_busbw`) is used as measured but never above the node's NIC line rate
    (`offering.network_gbps`): a figure above it cannot be the inter-node fabric.
    """
    measured = inputs.measured(offering)
    if measured is not None and measured.busbw_gbytes_per_s is not None:
        value = measured.busbw_gbytes_per_s * 1e9
        line = offering.network_gbps / 8 * 1e9 if offering.network_gbps else None
        if line is not None and value > line:
            return line, f"{measured.source}, capped at the {offering.network_gbps:g} Gbps line rate"
        return value, measured.source
    kind = fabric_kind(offering)
    gbps = offering.network_gbps or inputs.UNKNOWN_NETWORK_GBPS
    fraction = inputs.BUSBW_FRACTION[kind]
    return gbps / 8 * 1e9 * fraction, f"{gbps:g} Gbps {kind} x {fraction:g} assumed busbw"


def tpu_slice_efficiency(generation: str, chips: int) -> float:
    """Speed per chip of a `chips`-chip slice relative to a 512-chip one, interpolated in
    log2(chips) between MLPerf measurements, extrapolated past the largest and, below 512, with
    the first segment's slope down to `inputs.TPU_SMALLEST_EXTRAPOLATED` chips (no smaller
    slice gains more; assumed)."""
    points = inputs.TPU_SLICE_CHIP_MINUTES.get(generation, inputs.TPU_SLICE_CHIP_MINUTES["tpu-v5p"])
    (c0, m0), *rest = points
    if chips <= c0:
        (c1, m1) = rest[0]
        slope = (m1 - m0) / (math.log2(c1) - math.log2(c0))
        below = math.log2(c0) - math.log2(max(chips, inputs.TPU_SMALLEST_EXTRAPOLATED))
        return m0 / (m0 - slope * below)
    x = math.log2(chips)
    prev_c, prev_m = c0, m0
    for c, m in rest:
        if chips <= c or (c, m) == rest[-1]:
            slope = (m - prev_m) / (math.log2(c) - math.log2(prev_c))
            minutes = prev_m + slope * (x - math.log2(prev_c))
            return m0 / minutes
        prev_c, prev_m = c, m
    return 1.0


@dataclass(frozen=True)
class Step:
    """One optimizer step of data-parallel training across nodes.

    Attributes:
        batch_tokens: global batch, tokens.
        flops_per_token: FLOPs per token the step does (model FLOPs).
        flops_per_gpu: achieved FLOP/s per accelerator.
        gradient_bytes: bytes each node all-reduces per step (its model share's gradients).
    """

    batch_tokens: float
    flops_per_token: float
    flops_per_gpu: float
    gradient_bytes: float


def batch_efficiency(tokens_per_accelerator: float) -> float:
    """Speed kept when each accelerator's share of a step is `tokens_per_accelerator` tokens:
    1 / (1 + b0 / b), a per-step cost worth b0 tokens (`inputs.batch_overhead_tokens`)."""
    return 1.0 / (1.0 + inputs.batch_overhead_tokens() / tokens_per_accelerator)


def data_parallel_efficiency(step: Step, replicas: int, gpus: int, busbw_bytes: float) -> float:
    """Fraction of linear speed-up kept when `replicas` data-parallel replicas (on `gpus`
    accelerators in all) all-reduce gradients over `busbw_bytes` per node per step.

    compute = flops_per_token x batch / (gpus x flops_per_gpu);
    all-reduce = 2 (replicas - 1) / replicas x gradient_bytes / busbw;
    exposed = max(0, all-reduce - OVERLAP x compute); efficiency = compute / (compute + exposed).
    """
    if replicas <= 1:
        return 1.0
    compute = step.flops_per_token * step.batch_tokens / (gpus * step.flops_per_gpu)
    allreduce = 2 * (replicas - 1) / replicas * step.gradient_bytes / busbw_bytes
    exposed = max(0.0, allreduce - inputs.OVERLAP * compute)
    return compute / (compute + exposed)


def scaling_efficiency(offering: Offering, nodes: int, step: Step, replica_nodes: int = 1) -> tuple[float, str]:
    """(fraction of linear speed-up kept on `nodes` nodes, a note naming the fabric figure).

    GPUs: data parallelism between groups of `replica_nodes` nodes (a model whose state
    needs several nodes spans them, so each node all-reduces only its share). TPU: the
    slice's own size effect times data parallelism between slices over the DCN.
    """
    gpus = offering.accelerator_count * nodes
    if offering.interconnect == "tpu-ici":
        chips = offering.accelerator_count
        hosts = max(1, chips // inputs.TPU_CHIPS_PER_HOST.get(offering.accelerator, 4))
        dcn = hosts * inputs.DCN_GBPS_PER_HOST / 8 * 1e9
        slice_eff = tpu_slice_efficiency(offering.accelerator, chips)
        return slice_eff * data_parallel_efficiency(step, nodes, gpus, dcn), f"TPU slice x{slice_eff:.3f}"
    if nodes <= 1:
        return 1.0, ""
    busbw, how = node_busbw_bytes(offering)
    replicas = max(1, nodes // max(1, replica_nodes))
    return data_parallel_efficiency(step, replicas, gpus, busbw), how
