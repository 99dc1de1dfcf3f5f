"""Does a model fit in an accelerator's memory? Per-GPU bytes of state and activations.

State: params x bytes_per_param (16 for mixed-precision Adam, Rajbhandari et al. 2020,
ZeRO sec. 3.1), divided over every GPU when sharded (FSDP / ZeRO-3).
Activations per transformer layer, 16-bit, no tensor parallelism (Korthikanti et al. 2022,
"Reducing Activation Recomputation in Large Transformer Models", eq. 1):
s*b*h*(34 + 5*a*s/h) bytes, where s = sequence length, b = micro-batch, h = hidden size,
a = attention heads. The 5*a*s/h term is the s x s attention scores, softmax and dropout
mask; FlashAttention never stores them (it recomputes them in the backward pass), and
selective recomputation (same paper, sec. 5) recomputes them, so both keep 34*s*b*h.
With full recomputation only each layer's input (2*s*b*h bytes) is kept, plus one layer's
activations while it is recomputed (same paper, sec. 4).
Memory is compared with the usable memory per GPU (`profiles.cost.inputs.usable_gib`),
not the marketed size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from profiles.cost.work import ModelSpec
    from profiles.spec.values import ModelShape

    Shape = ModelShape | ModelSpec  # the spec's plain value, or the pydantic model (same fields)

GIB = 2**30
# Recomputation modes, least compute first (what `auto` tries in order).
RECOMPUTE = ("none", "selective", "full")


@dataclass(frozen=True)
class MemoryFit:
    """Outcome of the memory check for one accelerator.

    Attributes:
        fits: whether the model fits.
        recompute: the recomputation used (`none`, `selective`, `full`).
        need_gib: memory needed per GPU, GiB, with that recomputation.
        have_gib: usable memory per GPU, GiB.
    """

    fits: bool
    recompute: str
    need_gib: float
    have_gib: float

    @property
    def checkpointing(self) -> bool:
        """True when any activation recomputation is used."""
        return self.recompute != "none"


def state_gib(model: Shape, total_gpus: int) -> float:
    """Weights, gradients and optimizer state per GPU, GiB."""
    shards = total_gpus if model.sharding == "fsdp" else 1
    return model.params * model.bytes_per_param / shards / GIB


def layer_bytes(model: Shape, recompute: str) -> float:
    """Activation bytes one layer keeps for backward with `recompute` (Korthikanti eq. 1)."""
    s, b, h, a = model.seq_len, model.micro_batch, model.hidden, model.heads
    scores = 5 * a * s / h if model.attention == "standard" and recompute == "none" else 0.0
    return s * b * h * (34 + scores)


def activation_gib(model: Shape, recompute: str) -> float:
    """Activation memory per GPU, GiB, with `recompute` (`none`, `selective`, `full`)."""
    s, b, h = model.seq_len, model.micro_batch, model.hidden
    if recompute == "full":
        return (model.layers * 2 * s * b * h + layer_bytes(model, "none")) / GIB
    return model.layers * layer_bytes(model, recompute) / GIB


def memory_fit(model: Shape, usable_gib: float, total_gpus: int) -> MemoryFit:
    """Check the model against `usable_gib` per GPU with the spec's recomputation; `auto`
    takes the least recomputation that fits (none, then selective, then full)."""
    mode = model.gradient_checkpointing
    options = RECOMPUTE if mode == "auto" else (mode,)
    need = 0.0
    for recompute in options:
        need = state_gib(model, total_gpus) + activation_gib(model, recompute)
        if need <= usable_gib:
            return MemoryFit(True, recompute, need, usable_gib)
    return MemoryFit(False, options[-1], need, usable_gib)
