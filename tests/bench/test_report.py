"""`trainstack bench report` over the shipped examples, its figures checked by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from profiles.measurements.schema import RunResult
from profiles.measurements.store import load_store
from profiles.spec import parse_spec
from trainstack.bench.report import judge
from trainstack.cli.app import app

ROOT = Path(__file__).parents[2]
EXAMPLES = ROOT / "examples" / "bench"
# ResNet-50 ImageNet workload: 1,281,167 images x 90 epochs, 24.5 GFLOPs per image against the
# benchmark model's 24.535105536 GFLOPs.
IMAGES = 1281167 * 90 * 24.5 / 24.535105536


@pytest.fixture()
def in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def report(*args: str) -> dict:
    result = CliRunner().invoke(app, ["bench", "report", str(EXAMPLES), "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_report_figures_by_hand(in_repo, tmp_path: Path) -> None:
    plot = tmp_path / "report.png"
    runs = {r["instance_type"]: r for r in report("--plot", str(plot))["runs"]}
    assert plot.stat().st_size > 1000
    aws = runs["p4de.24xlarge"]
    # files run: 1,980 images/s per GPU x 16 GPUs; us-east-1 on-demand 27.44705 USD/h per node x 2 (v8 catalog)
    assert aws["hours"] == pytest.approx(IMAGES / (1980 * 16) / 3600, abs=1e-4) == pytest.approx(1.0096, abs=1e-4)
    assert aws["usd_total"] == pytest.approx(1.00958 * 54.8941, abs=0.01) == pytest.approx(55.42, abs=0.01)
    assert aws["bottleneck"] == "none found: compute-bound" and aws["findings"] == []
    azure = runs["Standard_ND96amsr_A100_v4"]
    # 1,150 images/s per GPU; eastus 32.77 USD/h per node x 2
    assert azure["hours"] == pytest.approx(1.7382, abs=1e-4) and azure["usd_total"] == pytest.approx(113.92, abs=0.01)
    assert azure["bottleneck"].startswith("I/O")
    assert azure["findings"] == [
        "data loader 41% of the step (over 15%), file system 520 MB/s",
        "GPU utilization 58 % under 70 %",
    ]
    gcp = runs["a3-megagpu-8g"]
    assert gcp["bottleneck"].startswith("network")
    assert gcp["findings"] == ["busbw pair 240 GB/s below the published 338.82 GB/s"]
    assert [r["instance_type"] for r in report()["runs"]] == [
        "p4de.24xlarge",
        "a3-megagpu-8g",
        "Standard_ND96amsr_A100_v4",
    ]  # cheapest job first


def test_report_without_a_plot_path_writes_no_file(tmp_path: Path, monkeypatch) -> None:
    """A report writes a chart only where --plot / -o says (it once overwrote the repository's
    tracked bench-report.png from the working directory)."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["bench", "report", str(EXAMPLES)])
    assert result.exit_code == 0, result.output
    assert list(tmp_path.iterdir()) == [] and "written" not in result.output
    chart = tmp_path / "out" / "chart.png"
    chart.parent.mkdir()
    written = CliRunner().invoke(app, ["bench", "report", str(EXAMPLES), "-o", str(chart)])
    assert written.exit_code == 0 and chart.stat().st_size > 1000
    assert f"plot written: {chart.resolve()} (3 runs)" in written.stdout


def test_table_and_plot_on_a_fresh_clone(in_repo, tmp_path: Path) -> None:
    plot = tmp_path / "r.svg"
    result = CliRunner().invoke(
        app, ["bench", "report", *map(str, sorted(EXAMPLES.glob("*.json"))), "--plot", str(plot)]
    )
    assert result.exit_code == 0, result.output
    assert "time to finish and cost per measured offering" in result.output and "I/O: the data loader" in result.output
    assert plot.read_text().startswith("<?xml")


def thresholds_case(**changes) -> RunResult:
    base = RunResult.model_validate_json((EXAMPLES / "aws-p4de-x2.json").read_text())
    return base.model_copy(update=changes)


def test_dcgm_failure_is_the_bottleneck_first() -> None:
    base = thresholds_case()
    failed = base.dcgm[0].model_copy(
        update={"tests": (base.dcgm[0].tests[1].model_copy(update={"status": "fail", "failed_gpus": ("3",)}),)}
    )
    spec = parse_spec(
        {
            "name": "r",
            "accelerators": ["A100-80GB"],
            "work": {"images": 1281167, "epochs": 90, "flops_per_image": "24.5G", "mfu": 0.16},
        }
    )
    verdict = judge(spec, base.model_copy(update={"dcgm": (failed,)}), load_store(None), 80.0)
    assert (
        verdict.bottleneck.startswith("GPU health") and "DCGM GPU Memory failed on node-0 (GPU 3)" in verdict.findings
    )


def test_low_utilization_alone_names_io_or_communication() -> None:
    base = thresholds_case()
    samples = base.gpu_samples.model_copy(update={"utilization_pct_mean": 69.9})
    verdict = judge(
        parse_spec({"name": "r", "accelerators": ["A100-80GB"], "hours": "5h"}),
        base.model_copy(update={"gpu_samples": samples}),
        (),
        None,
    )
    assert verdict.bottleneck.startswith("I/O or communication") and verdict.hours is None and verdict.usd_total is None


def test_health_check_minimum_when_no_published_peak() -> None:
    run = RunResult(
        provider="gcp",
        instance_type="a3-highgpu-8g",
        nodes=2,
        busbw=[{"scope": "pair", "nodes": 2, "ranks": 16, "peak_busbw_gbs": 55.0}],
    )
    verdict = judge(parse_spec({"name": "r", "accelerators": ["H100"], "hours": "5h"}), run, load_store(None), None)
    assert verdict.findings == ("busbw pair 55 GB/s below the published 60 GB/s",)  # cluster-health-scanner a3.yaml


def test_report_refuses_a_bad_plot_path(in_repo) -> None:
    result = CliRunner().invoke(app, ["bench", "report", str(EXAMPLES), "--plot", "chart.txt"])
    assert result.exit_code == 2 and "chart.txt" in result.output


@pytest.mark.parametrize(
    ("columns", "in_table"),
    [pytest.param("80", False, id="80-columns-notes-below"), pytest.param("200", True, id="wide-bottleneck-column")],
)
def test_report_never_cuts_a_figure(in_repo, monkeypatch, columns: str, in_table: bool) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    result = CliRunner().invoke(app, ["bench", "report", str(EXAMPLES)])
    assert result.exit_code == 0 and "…" not in result.output
    for figure in ("1,980", "4,200", "1,150", "184.43", "54.89", "65.54", "0.48", "1.74"):
        assert figure in result.output
    note = "[2] gcp a3-megagpu-8g x2 [example]: network: bus bandwidth below the published"
    assert (note in result.output) is not in_table
    assert ("│ gcp a3-megagpu-8g x2 [example]" in result.output) is in_table


@pytest.mark.parametrize("option", ["-o", "--output", "--plot"])
def test_a_bad_chart_path_names_the_option_given(in_repo, option: str) -> None:
    result = CliRunner().invoke(app, ["bench", "report", str(EXAMPLES), option, "/nonexistent/dir/r.png"])
    named = "--plot" if option == "--plot" else "-o/--output"
    assert result.exit_code == 2
    assert f"{named} /nonexistent/dir/r.png: cannot write (no folder /nonexistent/dir)" in result.output


@pytest.mark.parametrize(
    ("usd", "shown"),
    [
        pytest.param(55.4181, "55.42", id="to-the-cent-below-100"),
        pytest.param(55.01, "55.01", id="a-cent-apart-stays-apart"),
        pytest.param(113.92, "114", id="whole-dollars-from-100"),
        pytest.param(None, "n/a", id="unpriced"),
    ],
)
def test_the_reports_usd_per_job_keeps_cents_below_100(usd, shown):
    """The table and plot showed USD/job in whole dollars: the example runs' $55.42 read 55, and
    two runs 50 cents apart read the same."""
    from trainstack.bench.report_view import _money

    assert _money(usd) == shown
