"""The benchmark results schema: one `RunResult` per run (or per published figure).

Documented field by field in docs/bench-results.md; bump `SCHEMA_VERSION` on any change a
reader of an older file would misread. Every measurement carries its unit in its field name
and description: GB/s for bus bandwidth (nccl-tests' unit, 10^9 bytes per second), images/s
per GPU, seconds, percent, GiB, MB/s (10^6 bytes per second).
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from clouds.path_names import path_name_problem

SCHEMA_VERSION: Literal[1] = 1
# defer_build: validators are built on first use, so `trainstack resolve` without `work:` never builds them.
_FROZEN = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, defer_build=True)
Provenance = Literal["measured", "published"]


class SizePoint(BaseModel):
    """One row of an nccl-tests table (out-of-place columns)."""

    model_config = _FROZEN

    size_bytes: int = Field(ge=0, description="Message size, bytes.")
    time_us: float = Field(ge=0, description="Average time per operation, microseconds.")
    algbw_gbs: float = Field(ge=0, description="Algorithm bandwidth, GB/s.")
    busbw_gbs: float = Field(ge=0, description="Bus bandwidth, GB/s.")


class BusBandwidth(BaseModel):
    """An nccl-tests run: bus bandwidth by message size.

    `scope` is `all` (every node at once), `pair` (two nodes, `hosts` names them) or
    `node` (one node, NVLink only).
    """

    model_config = _FROZEN

    test: str = Field(default="all_reduce_perf", description="nccl-tests binary.")
    scope: Literal["all", "pair", "node"] = Field(description="Which nodes took part.")
    nodes: int = Field(ge=1, description="Nodes in the run.")
    ranks: int = Field(ge=1, description="GPUs (ranks) in the run.")
    hosts: tuple[str, ...] = Field(default=(), description="Host names, when known.")
    by_size: tuple[SizePoint, ...] = Field(default=(), description="Rows of the table.")
    avg_busbw_gbs: float | None = Field(default=None, ge=0, description="`# Avg bus bandwidth`, GB/s.")
    peak_busbw_gbs: float = Field(ge=0, description="Largest busbw of any size, GB/s.")
    wrong: int = Field(default=0, ge=0, description="`# Out of bounds values` count.")
    nccl_env: dict[str, str] = Field(default_factory=dict, description="NCCL_*/FI_* settings of the run.")


class Throughput(BaseModel):
    """A training-throughput run of one model for a fixed number of steps."""

    model_config = _FROZEN

    model: Literal["resnet50", "vit_b16"] = Field(description="Benchmark model.")
    data: Literal["synthetic", "files"] = Field(description="Synthetic tensors or image files.")
    precision: Literal["bf16", "fp16", "fp32"] = Field(description="Autocast dtype.")
    gpus: int = Field(ge=1, description="GPUs (ranks) in the run.")
    nodes: int = Field(default=1, ge=1, description="Nodes in the run.")
    batch_per_gpu: int | None = Field(default=None, ge=1, description="Images per GPU per step (None: not published).")
    steps: int | None = Field(default=None, ge=1, description="Timed steps (None: not published).")
    images_per_s_per_gpu: float = Field(gt=0, description="Images/s per GPU.")
    step_time_s: float | None = Field(default=None, gt=0, description="Mean step time, seconds (None: not published).")
    data_loader_share: float = Field(default=0.0, ge=0, le=1, description="Fraction of the step waiting on data.")
    flops_per_image: float = Field(gt=0, description="Training FLOPs per image (forward + backward).")


class GpuSamples(BaseModel):
    """NVML samples taken during the throughput run (one per GPU per second)."""

    model_config = _FROZEN

    samples: int = Field(ge=1, description="Samples read.")
    gpus: int = Field(ge=1, description="Distinct GPUs sampled.")
    interval_s: float = Field(gt=0, description="Seconds between samples.")
    utilization_pct_mean: float = Field(ge=0, le=100, description="Mean GPU utilization, %.")
    utilization_pct_min_gpu: float = Field(ge=0, le=100, description="Mean utilization of the least busy GPU, %.")
    memory_used_gib_max: float = Field(ge=0, description="Peak memory used on any GPU, GiB.")
    memory_total_gib: float = Field(ge=0, description="Memory per GPU, GiB.")


class FileSystemRead(BaseModel):
    """Reading many small files from a directory (the shared file system)."""

    model_config = _FROZEN

    path: str = Field(description="Directory read.")
    files: int = Field(ge=1, description="Files read.")
    bytes: int = Field(ge=0, description="Bytes read.")
    seconds: float = Field(gt=0, description="Wall-clock seconds.")
    read_mbps: float = Field(ge=0, description="Read throughput, MB/s (10^6 bytes/s).")


class DiagTest(BaseModel):
    """One DCGM diagnostic test and its worst status over the GPUs it ran on."""

    model_config = _FROZEN

    category: str = Field(description="DCGM category (Deployment, Hardware, ...).")
    name: str = Field(description="Test name.")
    status: Literal["pass", "fail", "warn", "skip"] = Field(description="Worst status.")
    failed_gpus: tuple[str, ...] = Field(default=(), description="GPU ids that failed or warned.")
    messages: tuple[str, ...] = Field(default=(), description="Warnings DCGM attached.")


class DcgmDiag(BaseModel):
    """`dcgmi diag -r LEVEL --json` on one node."""

    model_config = _FROZEN

    level: int | None = Field(default=None, ge=1, le=4, description="Diagnostic level, when known.")
    host: str = Field(default="", description="Node it ran on, when known.")
    version: str = Field(default="", description="DCGM version.")
    tests: tuple[DiagTest, ...] = Field(description="Every test with a result.")

    @property
    def passed(self) -> bool:
        """No test failed (warnings and skips do not fail the node)."""
        return all(t.status != "fail" for t in self.tests)


class Threshold(BaseModel):
    """A published health-check threshold: a node or pair below `value` is unhealthy."""

    model_config = _FROZEN

    metric: Literal["busbw_gbs", "ib_loopback_busbw_gbs"] = Field(description="What is compared.")
    scope: Literal["all", "pair", "node"] = Field(description="Which nodes the check runs on.")
    value: float = Field(gt=0, description="Minimum, in the metric's unit (GB/s).")
    message_bytes: int | None = Field(default=None, description="Message size the check uses, bytes.")


class RunResult(BaseModel):
    """One benchmark run on one stack, or one published figure, with every measurement.

    Attributes:
        schema_version: this schema's version (1).
        provenance: `measured` (a run of the kit) or `published` (a public figure; `source` set).
        stack: trainstack stack name, when run from one.
        provider, region, instance_type: where it ran (None for hardware-level figures
            such as a DGX A100, which match by accelerator instead).
        accelerator, accelerator_count, form_factor: GPUs per node.
        nodes: nodes in the run.
        catalog_version: the catalog the stack was resolved with.
        software: versions (`torch`, `cuda`, `nccl`, `driver`, `dcgm`, `nccl_tests`).
        started, finished: when the run ran (UTC); for published figures, `published` is the
            date of the source.
        source: where a published figure comes from (repository, commit, file), or "".
        notes: remarks (unsourced parts, conditions of the run).
    """

    model_config = _FROZEN

    schema_version: Literal[1] = Field(default=SCHEMA_VERSION, description="Schema version.")
    provenance: Provenance = Field(default="measured", description="measured or published.")
    stack: str | None = Field(default=None, description="Stack name.")
    provider: str | None = Field(default=None, description="Cloud.")
    region: str | None = Field(default=None, description="Region.")
    instance_type: str | None = Field(default=None, description="Instance type.")
    accelerator: str | None = Field(default=None, description="Accelerator name (catalog spelling).")
    accelerator_count: int | None = Field(default=None, ge=1, description="GPUs per node.")
    form_factor: str | None = Field(default=None, description="SXM or PCIe.")
    nodes: int = Field(default=1, ge=1, description="Nodes.")
    catalog_version: str | None = Field(default=None, description="Catalog version.")
    software: dict[str, str] = Field(default_factory=dict, description="Software versions.")
    started: datetime | None = Field(default=None, description="Run start, UTC.")
    finished: datetime | None = Field(default=None, description="Run end, UTC.")
    published: str | None = Field(default=None, description="Date of a published source (YYYY-MM-DD).")
    source: str = Field(default="", description="Source of a published figure.")
    notes: tuple[str, ...] = Field(default=(), description="Remarks.")
    example: bool = Field(default=False, description="An illustrative file shipped with trainstack, not a measurement.")
    busbw: tuple[BusBandwidth, ...] = Field(default=(), description="nccl-tests runs.")
    throughput: tuple[Throughput, ...] = Field(default=(), description="Training throughput runs.")
    gpu_samples: GpuSamples | None = Field(default=None, description="NVML samples.")
    file_system: tuple[FileSystemRead, ...] = Field(default=(), description="File-system reads.")
    dcgm: tuple[DcgmDiag, ...] = Field(default=(), description="DCGM diagnostics.")
    thresholds: tuple[Threshold, ...] = Field(default=(), description="Published health thresholds.")

    @model_validator(mode="after")
    def _published_has_source(self) -> RunResult:
        if self.provenance == "published" and not self.source:
            raise ValueError("source: a published figure needs its source (repository, commit and file, or URL)")
        for field in ("provider", "instance_type", "stack"):
            value = getattr(self, field)
            if value is not None and (problem := path_name_problem(field, value)):
                raise ValueError(problem)
        return self

    def label(self) -> str:
        """A short name for tables: `aws p4de.24xlarge x2` or `8x A100-80GB`."""
        if self.instance_type:
            where = f"{self.provider} {self.instance_type}"
        elif self.accelerator:
            where = f"{self.accelerator_count or '?'}x {self.accelerator}"
        else:
            where = "unknown offering (parse with -s STACK)"
        return f"{where} x{self.nodes}" if self.nodes > 1 else where
