"""Training speed per accelerator and workload class, from published measurements, not peaks.

One table, `speed_calibration.csv` beside this module: per workload class and accelerator
(form factors apart), the training speed of one accelerator relative to one H100 SXM on the
same class of work, each row derived from published same-benchmark pairs and naming its
source id (shared/reference-facts/training-throughput.md: T1 MLPerf Training result logs,
T3 NVIDIA DeepLearningExamples, T5 MosaicML LLM Foundry) and its arithmetic. Rows marked
`assumed` copy a sibling's figure and say which. Classes (`work.kind`):

  * `llm`: dense decoder LLM training (GPT-3 175B, Llama 3.1 405B, Llama 2 70B LoRA, MPT);
  * `cnn`: vision CNN training (ResNet-50);
  * `bert`: BERT-class encoder training (BERT-large).

Peak ratios are biased across generations (H100 SXM is 3.2x A100 by peak, 2.1x on ResNet-50
and 2.2x on MPT in the pairs above), so the time model scales speed by this table wherever
both the target and the MFU's (or gpu_hours') reference accelerator have a row; otherwise it
falls back to the target's peak x MFU and the row's `speed` says `peak x MFU`. A TPU row is
per chip at the pair's slice size (512 chips; v5e 4,096); `profiles.cost.throughput` scales
it by slice size. The comparison with published pairs, including pairs kept out of this
table, is tests/profiles/test_calibration.py; docs/workloads.md reports its errors.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import NamedTuple

from facts.performance import NVL_SIZES

TABLE = Path(__file__).resolve().parent / "speed_calibration.csv"
WORKLOADS = ("llm", "cnn", "bert")
# The accelerator an `mfu` is taken to be measured on when `work.mfu_reference` is not given:
# llm: H100 SXM (the MFUs published for Megatron-LM, torchtitan and Llama 3, T4/T6, are H100's);
# cnn and bert: A100 80GB SXM (NVIDIA DeepLearningExamples' tables, T3).
MFU_REFERENCE = {"llm": "H100", "cnn": "A100-80GB", "bert": "A100-80GB"}
PEAK = "peak x MFU"
CALIBRATED = "calibrated"
GIVEN = "given"  # the spec gives `hours`: no speed model
# Every value a ranked row's `speed` takes (`Candidate.speed`, `resolve`'s speed column and
# `--json` key; docs/cli.md and docs/benchmarks.md list these): a registered measurement's
# provenance (`measured`, `published`: `profiles.measurements.schema.Provenance`), else the
# calibrated ratio, else peak x MFU; `given` for a job given as hours.
SPEED_CLASSES = ("measured", "published", CALIBRATED, PEAK, GIVEN)


class Speed(NamedTuple):
    """One row of the table.

    Attributes:
        speed: training speed per accelerator relative to one H100 SXM, same workload class.
        source: source id (T1, T3, T5) or `assumed`.
        derivation: the published figures and the arithmetic.
    """

    speed: float
    source: str
    derivation: str


@functools.cache
def table() -> dict[tuple[str, str, str], Speed]:
    """(workload, accelerator, form factor) -> Speed, read once from `TABLE` (csv is imported
    here: a job given as `hours` never reads the table)."""
    import csv

    with TABLE.open(encoding="utf-8", newline="") as f:
        return {
            (row["workload"], row["accelerator"], row["form_factor"]): Speed(
                float(row["speed"]), row["source"], row["derivation"]
            )
            for row in csv.DictReader(f)
        }


def relative_speed(accelerator: str, form_factor: str | None, workload: str, instance_type: str = "") -> Speed | None:
    """The table's row for `accelerator` (as fitted: `form_factor`, `instance_type`) on
    `workload`, or None: no row for it (an H100 NVL size is not the PCIe card)."""
    if instance_type in NVL_SIZES:
        return None
    return table().get((workload, accelerator, form_factor or ""))


def reference_speed(accelerator: str, workload: str) -> Speed | None:
    """The row of a reference accelerator named in a spec (`work.reference`,
    `work.mfu_reference`), read as the SXM part (or the TPU chip)."""
    return relative_speed(accelerator, "SXM", workload) or relative_speed(accelerator, "TPU", workload)


def workload_of(work: object) -> str:
    """The spec's `work.kind`, else `cnn` for work given as images and `llm` otherwise."""
    kind = getattr(work, "kind", None)
    if kind:
        return str(kind)
    return "cnn" if getattr(work, "images", None) is not None else "llm"


def speed_ratio(target: Speed | None, reference: Speed | None) -> float | None:
    """Speed of the target per accelerator over the reference's, or None when either has no row."""
    if target is None or reference is None:
        return None
    return target.speed / reference.speed
