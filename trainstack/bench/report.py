"""`trainstack bench report`: time to finish and total cost of the user's workload on each
measured offering, and each run judged against thresholds with its bottleneck named.

Time to finish uses the run's own throughput: the file-reading run when there is one (the
job reads files too), else the synthetic one. Hours = the workload's images x epochs x
(its FLOPs per image / the benchmark model's) / (images/s per GPU x the run's GPUs) / 3600;
work given as FLOPs divides by the achieved FLOP/s instead. The run's node count is the
job's: the throughput was measured at that scale. Cost = hours x the catalog's on-demand
USD/hour for the instance type (in the run's region, else the cheapest) x nodes.

Thresholds:
- bus bandwidth below the published figure for the type and scope (a published nccl-tests
  peak, else the provider's health-check minimum; `profiles/measurements/published/`);
- GPU utilization under 70 %: the selection guide's sign of an I/O or communication
  bottleneck rather than too little compute (issue #15's guide; a rule of thumb);
- the data loader's share of the step over 15 %: unsourced [15 %] threshold;
- any DCGM diagnostic failure, and any nccl-tests wrong values.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from profiles.measurements.schema import BusBandwidth, RunResult, Throughput

UTILIZATION_MIN_PCT = 70.0
DATA_LOADER_MAX_SHARE = 0.15  # unsourced [0.15]


@dataclass(frozen=True)
class Verdict:
    """One run judged: its figures, its findings, the bottleneck, and the job's time and cost."""

    run: RunResult
    throughput: Throughput | None
    hours: float | None
    usd_per_hour: float | None
    findings: tuple[str, ...] = ()
    bottleneck: str = "none found: compute-bound"
    published_busbw: tuple[float, str] | None = None
    notes: tuple[str, ...] = field(default=())

    @property
    def usd_total(self) -> float | None:
        """Cost of the job, USD (hours x USD/hour for the whole cluster)."""
        return None if self.hours is None or self.usd_per_hour is None else self.hours * self.usd_per_hour


def job_throughput(run: RunResult) -> Throughput | None:
    """The throughput the job would see: files over synthetic, ResNet-50 over ViT, most GPUs."""
    runs = sorted(run.throughput, key=lambda t: (t.data != "files", t.model != "resnet50", -t.gpus))
    return runs[0] if runs else None


def job_hours(spec, run: RunResult, throughput: Throughput | None) -> float | None:
    """Hours the spec's work takes at the run's throughput on the run's GPUs (None: no throughput
    or the work is given as hours / GPU-hours, which a throughput cannot convert)."""
    if throughput is None or spec.work is None:
        return None
    gpus = (run.accelerator_count or throughput.gpus // max(throughput.nodes, 1)) * run.nodes
    work = spec.work
    if work.images is not None and work.epochs is not None and work.flops_per_image is not None:
        images = work.images * work.epochs * work.flops_per_image / throughput.flops_per_image
        return images / (throughput.images_per_s_per_gpu * gpus) / 3600
    flops = work.training_flops()
    if flops is None:
        return None
    return flops / (throughput.images_per_s_per_gpu * throughput.flops_per_image * gpus) / 3600


def published_busbw(run: RunResult, busbw: BusBandwidth, store: tuple[RunResult, ...]) -> tuple[float, str] | None:
    """(GB/s, source) the type should reach at this scope: a published nccl-tests peak first,
    else a health-check minimum; None when nothing is published for the type."""
    same = [
        r
        for r in store
        if r.provenance == "published" and (r.provider, r.instance_type) == (run.provider, run.instance_type)
    ]
    peaks = [(b.peak_busbw_gbs, r.source) for r in same for b in r.busbw if b.scope == busbw.scope]
    minimums = [
        (t.value, r.source) for r in same for t in r.thresholds if t.metric == "busbw_gbs" and t.scope == busbw.scope
    ]
    return max(peaks or minimums, default=None)


def judge(spec, run: RunResult, store: tuple[RunResult, ...], usd_per_hour: float | None) -> Verdict:
    """Findings and the bottleneck of `run`, and the job's hours and cost on it."""
    throughput = job_throughput(run)
    findings: list[tuple[str, str]] = []  # (kind, text)
    for diag in run.dcgm:
        for test in (t for t in diag.tests if t.status == "fail"):
            findings.append(
                ("health", f"DCGM {test.name} failed on {diag.host or 'a node'} (GPU {', '.join(test.failed_gpus)})")
            )
    published = None
    for busbw in run.busbw:
        if busbw.wrong:
            findings.append(("network", f"nccl-tests {busbw.scope}: {busbw.wrong} wrong values"))
        expected = published_busbw(run, busbw, store)
        if expected is not None and busbw.peak_busbw_gbs < expected[0]:
            published = published or expected
            findings.append(
                (
                    "network",
                    f"busbw {busbw.scope} {busbw.peak_busbw_gbs:g} GB/s below the published {expected[0]:g} GB/s",
                )
            )
    loader = max((t.data_loader_share for t in run.throughput), default=0.0)
    if loader > DATA_LOADER_MAX_SHARE:
        reads = (
            ", file system " + ", ".join(f"{f.read_mbps:,.0f} MB/s" for f in run.file_system) if run.file_system else ""
        )
        findings.append(("io", f"data loader {loader:.0%} of the step (over {DATA_LOADER_MAX_SHARE:.0%}){reads}"))
    samples = run.gpu_samples
    if samples is not None and samples.utilization_pct_mean < UTILIZATION_MIN_PCT:
        findings.append(
            ("utilization", f"GPU utilization {samples.utilization_pct_mean:.0f} % under {UTILIZATION_MIN_PCT:.0f} %")
        )
    return Verdict(
        run,
        throughput,
        job_hours(spec, run, throughput),
        usd_per_hour,
        tuple(text for _, text in findings),
        _bottleneck([k for k, _ in findings]),
        published,
    )


def _bottleneck(kinds: list[str]) -> str:
    """Name the bottleneck from the kinds of findings, worst first."""
    if "health" in kinds:
        return "GPU health (a DCGM diagnostic failed)"
    if "io" in kinds:
        return "I/O: the data loader keeps the GPUs waiting"
    if "network" in kinds:
        return "network: bus bandwidth below the published figure"
    if "utilization" in kinds:
        return "I/O or communication (GPU utilization under 70 % with no other finding)"
    return "none found: compute-bound"
