"""A results file as a few readable lines (what `bench parse` prints without --json)."""

from __future__ import annotations

from profiles.measurements.schema import RunResult


def summary_lines(result: RunResult) -> list[str]:
    """One line per measurement, with its unit."""
    lines = [f"run: {result.label()} ({result.provenance}){f', stack {result.stack}' if result.stack else ''}"]
    for b in result.busbw:
        avg = f", avg {b.avg_busbw_gbs:g} GB/s" if b.avg_busbw_gbs is not None else ""
        lines.append(
            f"busbw {b.scope} {b.nodes} nodes / {b.ranks} GPUs: peak {b.peak_busbw_gbs:g} GB/s{avg}"
            f"{'' if not b.wrong else f', {b.wrong} wrong values'}"
        )
    for t in result.throughput:
        step = f"step {t.step_time_s:.4f} s, " if t.step_time_s else ""
        lines.append(
            f"{t.model} {t.data} {t.precision}: {t.images_per_s_per_gpu:,.1f} images/s per GPU, "
            f"{step}data loader {t.data_loader_share:.0%} of the step"
        )
    if (g := result.gpu_samples) is not None:
        lines.append(
            f"GPU utilization {g.utilization_pct_mean:.1f} % mean (least busy GPU {g.utilization_pct_min_gpu:.1f} %), "
            f"memory {g.memory_used_gib_max:.1f} / {g.memory_total_gib:.1f} GiB"
        )
    for f in result.file_system:
        lines.append(f"file system {f.path}: {f.read_mbps:,.1f} MB/s over {f.files} files")
    for d in result.dcgm:
        bad = [f"{t.name} {t.status} (GPU {', '.join(t.failed_gpus)})" for t in d.tests if t.status in ("fail", "warn")]
        lines.append(
            f"DCGM diag{f' level {d.level}' if d.level else ''}{f' on {d.host}' if d.host else ''}: "
            f"{'pass' if d.passed else 'FAIL'}{'; ' + '; '.join(bad) if bad else ''}"
        )
    return lines
