"""Read the NVML sampler's CSV (`trainstack.bench.sampler`): one row per GPU per second.

Columns: `timestamp` (ISO 8601, UTC), `host`, `gpu` (index), `utilization_pct` (NVML
`utilization.gpu`, % of the interval a kernel ran), `memory_used_mib`, `memory_total_mib`.
"""

from __future__ import annotations

import csv
import io
from datetime import datetime

from profiles.measurements.schema import GpuSamples
from trainstack.bench.parse_nccl import ParseError

COLUMNS = ("timestamp", "host", "gpu", "utilization_pct", "memory_used_mib", "memory_total_mib")
MIB_PER_GIB = 1024


def parse_samples(text: str) -> GpuSamples:
    """Summarize NVML samples: mean utilization, the least busy GPU, peak memory (GiB).

    Raises:
        ParseError: the header differs from `COLUMNS` or a row does not read as numbers.
    """
    reader = csv.DictReader(io.StringIO(text))
    if tuple(reader.fieldnames or ()) != COLUMNS:
        raise ParseError(f"expected the CSV header {','.join(COLUMNS)}; give the file the NVML sampler wrote")
    per_gpu: dict[tuple[str, str], list[float]] = {}
    times: list[datetime] = []
    used, total = 0.0, 0.0
    for line, row in enumerate(reader, start=2):
        try:
            util = float(row["utilization_pct"])
            used = max(used, float(row["memory_used_mib"]) / MIB_PER_GIB)
            total = max(total, float(row["memory_total_mib"]) / MIB_PER_GIB)
            times.append(datetime.fromisoformat(row["timestamp"]))
        except (TypeError, ValueError):
            raise ParseError(
                f"line {line}: cannot read {dict(row)}; every column but host is a number or a time"
            ) from None
        per_gpu.setdefault((row["host"], row["gpu"]), []).append(util)
    if not per_gpu:
        raise ParseError("no samples after the header; run the sampler during the training run")
    means = [sum(v) / len(v) for v in per_gpu.values()]
    count = sum(len(v) for v in per_gpu.values())
    rounds = max(len(v) for v in per_gpu.values())
    span = (max(times) - min(times)).total_seconds()
    return GpuSamples(
        samples=count,
        gpus=len(per_gpu),
        interval_s=span / (rounds - 1) if rounds > 1 and span > 0 else 1.0,
        utilization_pct_mean=sum(means) / len(means),
        utilization_pct_min_gpu=min(means),
        memory_used_gib_max=used,
        memory_total_gib=total,
    )
