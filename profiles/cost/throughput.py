"""Hours a job takes on an offering: work / (GPUs x per-GPU speed x scaling efficiency).

Per-GPU speed is the dense BF16 peak (`facts.performance`). For work given as
GPU-hours on a reference accelerator, hours scale with the ratio of peaks; for work given
as FLOPs, hours = FLOPs / (GPUs x peak x MFU). Peak ratios overstate real gains of newer
parts somewhat (MPT-70B on 64 GPUs: H100 2.5x A100 measured vs 3.2x by peaks, T5).
"""

from __future__ import annotations

import math

from facts.performance import Performance

# Multi-node scaling efficiency, per doubling of nodes.
# RDMA fabrics (EFA, InfiniBand, GPUDirect, TPU ICI): 0.98, derived from Megatron-LM's
# GPT-3 175B strong scaling on H100, MFU 47 % at 96 GPUs -> 42 % at 4,608 GPUs (T4):
# (42/47) ** (1 / log2(4608/96)) = 0.980.
RDMA_EFFICIENCY_PER_DOUBLING = 0.98
# Plain Ethernet (TCP sockets): unsourced [0.90]; no measurement was collected.
ETHERNET_EFFICIENCY_PER_DOUBLING = 0.90
# Full gradient checkpointing recomputes the forward pass: forward is 2 of the 6 FLOPs per
# parameter and token (Kaplan et al. 2020), so a step does 8 instead of 6: x 4/3.
CHECKPOINTING_FACTOR = 4 / 3


def scaling_efficiency(nodes: int, rdma: bool) -> float:
    """Fraction of linear speed-up kept at `nodes` nodes: per_doubling ** log2(nodes)."""
    per_doubling = RDMA_EFFICIENCY_PER_DOUBLING if rdma else ETHERNET_EFFICIENCY_PER_DOUBLING
    return per_doubling ** math.log2(nodes) if nodes > 1 else 1.0


def hours_from_gpu_hours(gpu_hours: float, reference: Performance, target: Performance, gpus: int) -> float:
    """Single-node-equivalent hours on `gpus` target accelerators (before scaling losses)."""
    return gpu_hours * reference.bf16_tflops / target.bf16_tflops / gpus


def hours_from_flops(flops: float, target: Performance, gpus: int, mfu: float) -> float:
    """Hours to do `flops` on `gpus` accelerators at model-FLOPs utilization `mfu`."""
    return flops / (gpus * target.bf16_tflops * 1e12 * mfu) / 3600
