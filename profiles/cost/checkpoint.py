"""Hours a job spends writing its checkpoints to the shared file system.

A training job that checkpoints every `spot.checkpoint_interval` hours writes its whole
training state each time: the weights and the optimizer's state, `bytes_per_param` bytes per
parameter (`model.bytes_per_param`, default 16 for mixed-precision Adam: BF16 weights and
gradients, FP32 master weights and two moments; the memory model's figure, Rajbhandari et al.
2020, ZeRO sec. 3.1). Written at the file system's delivered write rate
(`clouds.filesystems.delivered`), with training paused while it writes (a synchronous
checkpoint, as torch.distributed.checkpoint's `save` is; asynchronous saving hides part of it,
not modelled), each checkpoint adds `state bytes / write rate`, and a run of H hours writes
H / interval of them.

Example (issue #27): 70B parameters x 16 bytes = 1.12 TB every 2 h to 9,600 GiB of FSx at
250 MB/s per TiB (2,344 MB/s): 478 s per checkpoint, +6.6 % of the run.
"""

from __future__ import annotations

import functools
import math

from clouds.filesystems import Delivery, FileSystemAsk, delivered
from profiles.spec import WorkloadSpec

# Bytes of training state per parameter when the workload gives no `model.bytes_per_param`:
# mixed-precision Adam (ZeRO sec. 3.1: 2 + 2 + 12), the memory model's default.
STATE_BYTES_PER_PARAM = 16.0


def state_bytes(spec: WorkloadSpec) -> float | None:
    """Bytes one checkpoint writes, or None when the workload gives no parameter count."""
    if spec.model is not None:
        return spec.model.params * spec.model.bytes_per_param
    if spec.work is not None and spec.work.params is not None:
        return spec.work.params * STATE_BYTES_PER_PARAM
    return None


def write_hours(state: float, write_mbps: float) -> float:
    """Hours one checkpoint of `state` bytes takes at `write_mbps` MB/s (10^6 bytes/s)."""
    return state / (write_mbps * 1e6) / 3600


@functools.lru_cache(maxsize=256)
def _delivered(provider: str, capacity_gib: int, tier: int) -> Delivery | None:
    return delivered(provider, FileSystemAsk(capacity_gib, tier))


def checkpoint_hours(
    spec: WorkloadSpec, provider: str, capacity_gib: float, tier: int, hours: float
) -> tuple[float, str] | None:
    """(hours the checkpoints add to a run of `hours`, a note) on `provider`'s file system of
    `capacity_gib` at `tier` MB/s per TiB, or None when the workload states no checkpoint
    interval, no file system or no parameter count, or the cloud cannot create it.

    A checkpoint is written every `interval` hours of training (every N steps), so a run of
    `hours` writes hours / interval of them.
    """
    state = state_bytes(spec)
    if spec.spot is None or spec.file_system is None or state is None:
        return None
    return _written(state, spec.spot.checkpoint_interval_hours, provider, math.ceil(capacity_gib), tier, hours)


@functools.lru_cache(maxsize=4096)
def _written(
    state: float, interval: float, provider: str, capacity_gib: int, tier: int, hours: float
) -> tuple[float, str] | None:
    """`checkpoint_hours` of `state` bytes every `interval` hours (zone and region copies of a
    type run the same hours: one resolve asks the same question hundreds of times)."""
    rates = _delivered(provider, capacity_gib, tier)
    if rates is None or rates.write_mbps <= 0:
        return None
    one = write_hours(state, rates.write_mbps)
    added = hours / interval * one
    note = (
        f"checkpoints: {state / 1e12:,.2f} TB every {interval:g} h at {rates.write_mbps:,.0f} MB/s write "
        f"({rates.service or provider}, {rates.basis}): {one * 3600:,.0f} s each, +{added:,.2f} h "
        f"(+{100 * added / hours:.1f}%)"
    )
    return added, note
