"""`trainstack bench parse`: raw tool output -> one `RunResult`.

Each file's kind is recognised from its content: nccl-tests output (`# Avg bus bandwidth`
or a `busbw` header), `dcgmi diag --json` (a JSON object naming DCGM), the NVML sampler's
CSV (its header) or a training log (`#bench` lines). A file named `*pair*` holds a
pairwise nccl-tests run; a DCGM file named `dcgm-HOST.json` ran on HOST.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from clouds.input_file import InputFileError, read_bytes, shown_name
from profiles.measurements.schema import BusBandwidth, DcgmDiag, GpuSamples, RunResult
from trainstack.bench.parse_dcgm import parse_dcgm
from trainstack.bench.parse_nccl import ParseError, parse_nccl
from trainstack.bench.parse_samples import COLUMNS, parse_samples
from trainstack.bench.parse_training import MARK, TrainingLog, parse_training

KINDS = ("nccl", "dcgm", "samples", "training")
MAX_RAW_BYTES = 256 * 1024 * 1024  # bytes; a day of 1 Hz NVML samples of 8 GPUs is ~50 MB


def detect(text: str) -> str | None:
    """The kind of raw output `text` is (one of `KINDS`), or None."""
    head = text.lstrip()[:4000]
    if text.startswith(",".join(COLUMNS)):
        return "samples"
    if "# Avg bus bandwidth" in text or re.search(r"^#.*\bbusbw\b", head, re.M):
        return "nccl"
    if head.startswith("{") or "DCGM" in head:
        if '"test_categories"' in head or '"tests"' in head:
            return "dcgm"
    if MARK in text:
        return "training"
    return None


def _read(path: Path) -> str:
    try:
        return read_bytes(path, "file the kit wrote", MAX_RAW_BYTES).decode("utf-8", errors="replace")
    except InputFileError as exc:
        raise ParseError(str(exc)) from None


def _level(text: str) -> int | None:
    found = re.search(r"dcgmi diag\s+(?:-r|--run)\s+(\d)", text)
    return int(found.group(1)) if found else None


def parse_files(paths: list[Path], cluster: Any = None, stack: str | None = None) -> RunResult:
    """Read every file into one run result.

    Args:
        paths: raw output files, any mix of `KINDS`.
        cluster: the stack's `ClusterConfig` (provider, instance type, nodes...), or None.
        stack: the stack's name, recorded with the run.

    Raises:
        ParseError: a file of no known kind, or one that does not read (message names the file).
    """
    busbw: list[BusBandwidth] = []
    dcgm: list[DcgmDiag] = []
    samples: GpuSamples | None = None
    log = TrainingLog()
    for path in paths:
        text = _read(path)
        kind = detect(text)
        try:
            if kind == "nccl":
                busbw.append(parse_nccl(text, "pair" if "pair" in path.name else None))
            elif kind == "dcgm":
                host = path.stem.removeprefix("dcgm-") if path.stem.startswith("dcgm-") else ""
                dcgm.append(parse_dcgm(text, host, _level(text)))
            elif kind == "samples":
                samples = parse_samples(text)
            elif kind == "training":
                found = parse_training(text)
                log.throughput += found.throughput
                log.file_system += found.file_system
                log.software.update(found.software)
                log.started, log.finished = log.started or found.started, found.finished or log.finished
            else:
                raise ParseError(
                    "not nccl-tests output, `dcgmi diag --json`, NVML samples CSV or a training "
                    "log; give a file the kit wrote"
                )
        except ParseError as exc:
            raise ParseError(f"{shown_name(path)}: {exc}") from None
        except ValidationError as exc:  # a NaN, infinite or negative figure in a row
            raise ParseError(f"{shown_name(path)}: {_figure_problem(exc)}") from None
    try:
        return _result(cluster, stack, busbw, dcgm, samples, log)
    except ValidationError as exc:
        raise ParseError(f"{', '.join(map(shown_name, paths))}: {_figure_problem(exc)}") from None


def _figure_problem(exc: ValidationError) -> str:
    """A schema error in a parsed figure, in words, with the fix."""
    error = exc.errors()[0]
    where = ".".join(str(p) for p in error["loc"]) or "value"
    return (
        f"{where}: {error.get('input')!r} is not a measurement ({error['msg'].lower()}); "
        "give the unedited output the kit wrote"
    )


def _result(cluster: Any, stack: Any, busbw: list, dcgm: list, samples: Any, log: TrainingLog) -> RunResult:
    return RunResult(
        **_where(cluster, busbw),
        stack=stack,
        software=log.software,
        started=_time(log.started),
        finished=_time(log.finished),
        busbw=tuple(busbw),
        throughput=tuple(log.throughput),
        gpu_samples=samples,
        file_system=tuple(log.file_system),
        dcgm=tuple(dcgm),
    )


def _time(text: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(text) if text else None
    except ValueError:
        raise ParseError(f"training log: time '{text}' is not ISO 8601") from None


def _where(cluster: Any, busbw: list[BusBandwidth]) -> dict[str, Any]:
    """Identification fields from the stack's cluster config, or what the logs tell."""
    if cluster is None:
        return {"nodes": max((b.nodes for b in busbw), default=1)}
    return {
        "provider": cluster.provider,
        "region": cluster.region,
        "instance_type": cluster.instance_type,
        "accelerator": cluster.accelerator,
        "accelerator_count": cluster.accelerator_count,
        "nodes": cluster.nodes,
        "catalog_version": cluster.catalog_version,
    }
