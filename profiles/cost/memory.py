"""Does a model fit in an accelerator's memory? Per-GPU bytes of state and activations.

State: params x bytes_per_param (16 for mixed-precision Adam, Rajbhandari et al. 2020,
ZeRO sec. 3.1), divided over every GPU when sharded (FSDP / ZeRO-3).
Activations per transformer layer, 16-bit, no tensor parallelism (Korthikanti et al. 2022,
"Reducing Activation Recomputation in Large Transformer Models", eq. 1):
s*b*h*(34 + 5*a*s/h) bytes, where s = sequence length, b = micro-batch, h = hidden size,
a = attention heads. With full gradient checkpointing only each layer's input (2*s*b*h
bytes) is kept, plus one layer's activations while it is recomputed (same paper, sec. 4).
"""

from __future__ import annotations

from dataclasses import dataclass

from profiles.cost.work import ModelSpec

GIB = 2**30


@dataclass(frozen=True)
class MemoryFit:
    """Outcome of the memory check for one accelerator.

    Attributes:
        fits: whether the model fits.
        checkpointing: whether gradient checkpointing is needed (and used).
        need_gib: memory needed per GPU, GiB (with checkpointing when used).
        have_gib: memory per GPU, GiB.
    """

    fits: bool
    checkpointing: bool
    need_gib: float
    have_gib: float


def state_gib(model: ModelSpec, total_gpus: int) -> float:
    """Weights, gradients and optimizer state per GPU, GiB."""
    shards = total_gpus if model.sharding == "fsdp" else 1
    return model.params * model.bytes_per_param / shards / GIB


def activation_gib(model: ModelSpec, checkpointing: bool) -> float:
    """Activation memory per GPU, GiB, with or without full gradient checkpointing."""
    s, b, h, a = model.seq_len, model.micro_batch, model.hidden, model.heads
    per_layer = s * b * h * (34 + 5 * a * s / h)
    if checkpointing:
        return (model.layers * 2 * s * b * h + per_layer) / GIB
    return model.layers * per_layer / GIB


def memory_fit(model: ModelSpec, memory_gib: float, total_gpus: int) -> MemoryFit:
    """Check the model against `memory_gib` per GPU, trying checkpointing per the spec.

    With `gradient_checkpointing: auto`, checkpointing is used only when the model does not
    fit without it.
    """
    options = {"off": (False,), "on": (True,), "auto": (False, True)}[model.gradient_checkpointing]
    need = 0.0
    for checkpointing in options:
        need = state_gib(model, total_gpus) + activation_gib(model, checkpointing)
        if need <= memory_gib:
            return MemoryFit(True, checkpointing, need, memory_gib)
    return MemoryFit(False, options[-1], need, memory_gib)
