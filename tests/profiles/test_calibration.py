"""The time model against published measurements: each error bounded, not pinned.

Each pair is one published measurement on a reference configuration and one on a target
(shared/reference-facts/training-throughput.md, source ids T1 MLPerf Training result logs, T3
DeepLearningExamples, T5 MosaicML LLM Foundry). The model predicts the target's time from the
reference's by running the same work on both configurations (`job_hours`); the error is
predicted / measured - 1. Rates (tokens/s, images/s, sequences/s per GPU) are written as
times, 1 / rate.

CALIBRATED pairs are the ones `profiles/cost/speed_calibration.csv` was derived from: their
errors show the table reproduces its sources (bound 5 %: rounding and the geometric mean of
the two MPT pairs). HELD_OUT pairs were kept out of the table: their errors are the model's
error on measurements it was not fitted to (bound 20 % for a same-class cross-accelerator
prediction, one pair stated wider). docs/workloads.md reports both; `python -m
tests.profiles.test_calibration` prints them.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from profiles.catalog.offering import Offering
from profiles.cost.estimate import JobHours, job_hours
from profiles.spec import parse_spec


class Pair(NamedTuple):
    id: str
    workload: str
    reference: tuple[str, str, int]  # accelerator, form factor, accelerators in the run
    reference_time: float
    target: tuple[str, str, int]
    target_time: float
    source: str
    bound: float


def _rate(per_second: float) -> float:
    return 1 / per_second


CALIBRATED = [
    Pair(
        "resnet50-a100-to-h100", "cnn", ("A100-80GB", "SXM", 8), 28.62, ("H100", "SXM", 8), 13.49, "T1 v2.1/v3.1", 0.05
    ),
    Pair("resnet50-h100-to-h100-pcie", "cnn", ("H100", "SXM", 8), 13.49, ("H100", "PCIe", 8), 20.86, "T1 v3.1", 0.05),
    Pair("resnet50-h100-to-h200", "cnn", ("H100", "SXM", 8), 13.27, ("H200", "SXM", 8), 12.03, "T1 v4.0", 0.05),
    Pair("resnet50-h100-to-l40s", "cnn", ("H100", "SXM", 8), 13.49, ("L40S", "PCIe", 8), 42.64, "T1 v3.1", 0.05),
    Pair(
        "resnet50-dle-a100-to-v100",
        "cnn",
        ("A100-80GB", "SXM", 8),
        _rate(16621),
        ("V100", "SXM", 8),
        _rate(8322),
        "T3",
        0.05,
    ),
    Pair("bert-a100-to-h100", "bert", ("A100-80GB", "SXM", 8), 16.88, ("H100", "SXM", 8), 5.47, "T1 v2.1/v3.1", 0.05),
    Pair(
        "bert-a100-sxm-to-pcie",
        "bert",
        ("A100-80GB", "SXM", 8),
        16.88,
        ("A100-80GB", "PCIe", 8),
        23.16,
        "T1 v2.1",
        0.05,
    ),
    Pair("bert-h100-sxm-to-pcie", "bert", ("H100", "SXM", 8), 5.47, ("H100", "PCIe", 8), 10.06, "T1 v3.1", 0.05),
    Pair("bert-h100-to-l40s", "bert", ("H100", "SXM", 8), 5.47, ("L40S", "PCIe", 8), 32.18, "T1 v3.1", 0.05),
    Pair("bert-h100-to-b200", "bert", ("H100", "SXM", 8), 5.47, ("B200", "SXM", 8), 3.80, "T1 v3.1/v4.1", 0.05),
    Pair("lora-h100-to-l40s-64", "llm", ("H100", "SXM", 64), 4.57, ("L40S", "PCIe", 64), 21.84, "T1 v4.1/v4.0", 0.05),
    Pair("lora-h200-to-b200", "llm", ("H200", "SXM", 8), 22.88, ("B200", "SXM", 8), 11.24, "T1 v5.0", 0.05),
    Pair(
        "llama405b-h100-to-h200-512", "llm", ("H100", "SXM", 512), 230.69, ("H200", "SXM", 512), 209.59, "T1 v5.0", 0.05
    ),
    Pair(
        "mpt7b-h100-to-a100", "llm", ("H100", "SXM", 8), _rate(10643), ("A100-80GB", "SXM", 8), _rate(4641), "T5", 0.05
    ),
    Pair(
        "mpt13b-h100-to-a100", "llm", ("H100", "SXM", 8), _rate(4792), ("A100-80GB", "SXM", 8), _rate(2262), "T5", 0.05
    ),
    Pair("gpt3-h100-to-v5p-512", "llm", ("H100", "SXM", 512), 51.28, ("tpu-v5p", "TPU", 512), 114.98, "T1 v4.0", 0.05),
    Pair("gpt3-h100-to-v6e-512", "llm", ("H100", "SXM", 512), 51.03, ("tpu-v6e", "TPU", 512), 102.34, "T1 v4.1", 0.05),
    # The slice curves use each generation's 512 and 2,048 points; the cross-generation ratio
    # at 2,048 (v6e 1.08x v5p) follows from the table and those curves.
    Pair(
        "gpt3-v5p-to-v6e-2048", "llm", ("tpu-v5p", "TPU", 2048), 29.60, ("tpu-v6e", "TPU", 2048), 27.32, "T1 v4.1", 0.05
    ),
]

HELD_OUT = [
    Pair("lora-h100-to-h200-v4.1", "llm", ("H100", "SXM", 8), 27.93, ("H200", "SXM", 8), 24.03, "T1 v4.1", 0.20),
    Pair("lora-h100-v4.1-to-b200-v5.0", "llm", ("H100", "SXM", 8), 27.93, ("B200", "SXM", 8), 11.24, "T1", 0.20),
    Pair("gpt3-h100-256-to-b200-64", "llm", ("H100", "SXM", 256), 97.84, ("B200", "SXM", 64), 193.39, "T1 v4.1", 0.20),
    Pair(
        "mpt70b-h100-to-a100-64",
        "llm",
        ("H100", "SXM", 64),
        _rate(1039),
        ("A100-80GB", "SXM", 64),
        _rate(410),
        "T5",
        0.20,
    ),
    Pair(
        "resnet50-h100-to-azure-a100",
        "cnn",
        ("H100", "SXM", 8),
        13.27,
        ("A100-80GB", "SXM", 8),
        29.37,
        "T1 v4.0/v2.1",
        0.20,
    ),
    Pair(
        "bert-seq512-dle-a100-to-v100",
        "bert",
        ("A100-80GB", "SXM", 8),
        _rate(1657),
        ("V100-32GB", "SXM", 8),
        _rate(586),
        "T3",
        0.20,
    ),
    # Lenovo's L40S system, same round as the H100 figure: 20 % slower than xFusion's L40S, on
    # which the table's row rests; stated wider.
    Pair("resnet50-h100-to-lenovo-l40s", "cnn", ("H100", "SXM", 8), 13.27, ("L40S", "PCIe", 8), 52.61, "T1 v4.0", 0.25),
]


def _node(accelerator: str, form: str, count: int) -> tuple[Offering, int]:
    """An offering and node count holding `count` accelerators: one TPU slice, or 8-GPU nodes."""
    if form == "TPU":
        return Offering(
            "gcp",
            "r",
            "z",
            f"{accelerator}-{count}",
            accelerator,
            count,
            95,
            "TPU",
            1,
            1,
            "tpu-ici",
            0,
            0,
            1.0,
            None,
            "d",
        ), 1
    node = Offering("aws", "r", "z", "x", accelerator, 8, 80, form, 1, 1, "efa", 32, 3200, 1.0, None, "d")
    return node, count // 8


def _hours(pair_side: tuple[str, str, int], workload: str) -> float:
    """Model hours of one fixed piece of work (1,000 H100-hours of `workload`) on one side. A
    1T-token batch keeps the per-GPU batch term and the all-reduce out: the pairs compare
    accelerators (and TPU slice sizes), not the runs' batches."""
    work = {"gpu_hours": 1000, "reference": "H100", "kind": workload, "batch_tokens": "1T"}
    offering, nodes = _node(*pair_side)
    spec = parse_spec({"accelerators": offering.accelerator, "nodes": nodes, "work": work})
    job = job_hours(spec, offering, nodes)
    assert isinstance(job, JobHours)
    return job.hours


def error(pair: Pair) -> float:
    """predicted / measured - 1 for the pair's target time."""
    predicted = pair.reference_time * _hours(pair.target, pair.workload) / _hours(pair.reference, pair.workload)
    return predicted / pair.target_time - 1


pytestmark = pytest.mark.usefixtures("no_failures")


@pytest.mark.parametrize("pair", [pytest.param(p, id=p.id) for p in CALIBRATED])
def test_the_table_reproduces_the_pairs_it_was_derived_from(pair):
    assert abs(error(pair)) <= pair.bound, f"{pair.id}: {error(pair):+.1%}"


@pytest.mark.parametrize("pair", [pytest.param(p, id=p.id) for p in HELD_OUT])
def test_held_out_pairs_are_predicted_within_their_bound(pair):
    assert abs(error(pair)) <= pair.bound, f"{pair.id}: {error(pair):+.1%}"


def test_the_comparison_covers_the_accelerators_the_issue_names():
    pairs = CALIBRATED + HELD_OUT
    targets = {(p.target[0], p.target[1]) for p in pairs} | {(p.reference[0], p.reference[1]) for p in pairs}
    assert len(pairs) >= 12 and len(HELD_OUT) >= 6
    assert {("A100-80GB", "SXM"), ("A100-80GB", "PCIe"), ("H100", "SXM"), ("H100", "PCIe")} <= targets
    assert {("H200", "SXM"), ("B200", "SXM"), ("L40S", "PCIe"), ("tpu-v5p", "TPU"), ("tpu-v6e", "TPU")} <= targets


def test_peak_ratios_would_miss_what_the_table_gets():
    """The issue's misses by peak ratio, now within the bound: ResNet-50 H100 (-33 % by peaks),
    A100 PCIe BERT (-27 %), H100 PCIe BERT (-29 %), L40S BERT (-54 %), TPU v6e vs v5p (-46 %)."""
    by_id = {p.id: p for p in CALIBRATED}
    for pid in ("resnet50-a100-to-h100", "bert-a100-sxm-to-pcie", "bert-h100-sxm-to-pcie", "bert-h100-to-l40s"):
        assert abs(error(by_id[pid])) <= 0.05


if __name__ == "__main__":  # the figures docs/workloads.md reports
    from profiles.cost import inputs

    inputs.FAILURES_PER_ACCELERATOR_HOUR = 0.0
    for name, group in (("calibrated", CALIBRATED), ("held out", HELD_OUT)):
        for p in group:
            print(f"{name:10} {p.id:32} {p.source:14} {error(p):+7.1%}  bound {p.bound:.0%}")


@pytest.mark.parametrize(
    ("instance_type", "flops", "speed"),
    [
        # H100 NVL (Azure NC H100 v5): no measured row, so its own peak 835 TFLOPS x 0.4
        pytest.param("Standard_NC80adis_H100_v5", 835e12 * 0.4, "peak x MFU", id="nvl-size-peak"),
        # H100 PCIe: BERT row 0.5437 / A100-80GB 0.3241 = 1.678x the MFU reference, 312 TFLOPS x 0.4 x that
        pytest.param("Standard_other_H100", 312e12 * 0.4 * 0.5437 / 0.3241, "calibrated", id="pcie-calibrated"),
    ],
)
def test_an_nvl_size_is_not_calibrated_as_the_pcie_card(instance_type, flops, speed):
    from facts.performance import performance
    from profiles.cost.speed import peak_rate
    from tests.profiles.offering_factory import offering

    work = parse_spec({"accelerators": "H100:2", "work": {"params": 3.4e8, "tokens": 1e10, "mfu": 0.4, "kind": "bert"}})
    node = offering(instance_type=instance_type, accelerator="H100", form_factor="PCIe", accelerator_count=2)
    rate = peak_rate(work.work, node, performance("H100", "PCIe", instance_type), 0.4)
    assert (rate.flops_per_s, rate.speed) == (pytest.approx(flops, rel=1e-4), speed)


@pytest.mark.parametrize(
    ("accelerator", "form", "instance_type", "kind", "hours", "flops", "speed", "note"),
    [
        # the reference itself: its hours, the anchor's 989 TFLOPS x 0.4, no ratio to state
        pytest.param("H100", "SXM", "p5.48xlarge", "llm", 1000.0, 989e12 * 0.4, "calibrated", "", id="reference"),
        # no measured V100 row: hours by the ratio of peaks to the H100 SXM's 989 (not the PCIe card's 756)
        pytest.param(
            "V100", "SXM", "p3", "llm", 1000 * 989 / 125, 125e12 * 0.4, "peak x MFU", "no calibrated speed: peak ratio"
        ),
        # BERT on H100 PCIe: the measured row 0.5437; on the NVL size: its own peak, 835
        pytest.param(
            "H100",
            "PCIe",
            "x",
            "bert",
            1000 / 0.5437,
            989e12 * 0.4 * 0.5437,
            "calibrated",
            "bert speed 0.544x H100 (calibrated)",
        ),
        pytest.param(
            "H100",
            "PCIe",
            "Standard_NC80adis_H100_v5",
            "bert",
            1000 * 989 / 835,
            835e12 * 0.4,
            "peak x MFU",
            "no calibrated speed: peak ratio",
        ),
    ],
)
def test_gpu_hours_scale_by_the_calibrated_speed_else_by_peaks(
    accelerator, form, instance_type, kind, hours, flops, speed, note
):
    from facts.performance import performance
    from profiles.cost.speed import gpu_hours_speed
    from tests.profiles.offering_factory import offering

    work = parse_spec({"accelerators": "H100", "work": {"gpu_hours": 1000, "reference": "H100", "kind": kind}}).work
    node = offering(accelerator=accelerator, form_factor=form, instance_type=instance_type)
    found, rate = gpu_hours_speed(work, node, performance(accelerator, form, instance_type))
    assert (found, rate.flops_per_s) == (pytest.approx(hours), pytest.approx(flops))
    assert (rate.speed, rate.note) == (speed, note)


def test_a_measured_speed_replaces_the_calibrated_one_for_gpu_hours():
    from facts.performance import performance
    from profiles.cost import inputs
    from profiles.cost.speed import gpu_hours_speed
    from tests.profiles.offering_factory import offering

    work = parse_spec({"accelerators": "H100", "work": {"gpu_hours": 1000, "reference": "H100"}}).work
    inputs.register_measurements(lambda o: inputs.Measured(tflops_per_gpu=400.0, source="bench"))
    node = offering(accelerator="H100", form_factor="SXM", instance_type="p5.48xlarge")
    hours, rate = gpu_hours_speed(work, node, performance("H100", "SXM"))
    # 1,000 h at the model's 395.6 TFLOPS take 1,000 x 395.6 / 400 = 989 h at the measured 400
    assert (hours, rate.flops_per_s, rate.speed) == (pytest.approx(989.0), 400e12, "measured")
