"""Parsers over raw output written in each tool's documented format (tests/fixtures/bench)."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainstack.bench.parse import detect, parse_files
from trainstack.bench.parse_dcgm import parse_dcgm
from trainstack.bench.parse_nccl import ParseError, parse_nccl
from trainstack.bench.parse_samples import parse_samples
from trainstack.bench.parse_training import bench_line, parse_training

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "bench"


def text(name: str) -> str:
    return (FIXTURES / name).read_text()


def test_nccl_table_hosts_and_average() -> None:
    run = parse_nccl(text("nccl-all.log"))
    assert (run.scope, run.nodes, run.ranks) == ("all", 2, 16)
    assert run.hosts == ("ip-10-0-1-11", "ip-10-0-1-12")
    assert [p.size_bytes for p in run.by_size][:2] == [1048576, 4194304]
    assert run.by_size[-1].busbw_gbs == 88.30 and run.by_size[-1].time_us == 22800
    assert run.peak_busbw_gbs == 88.30
    assert run.avg_busbw_gbs == pytest.approx(62.3105)
    assert run.nccl_env == {"NCCL_SOCKET_IFNAME": "^lo,docker", "NCCL_PROTO": "simple"}


def test_nccl_older_layout_without_root_column() -> None:
    run = parse_nccl(text("nccl-pair-ip-10-0-1-11-ip-10-0-1-13.log"), "pair")
    assert (run.scope, run.nodes, run.ranks) == ("pair", 2, 16)
    assert [p.busbw_gbs for p in run.by_size] == [38.34, 47.64, 50.84, 52.13]
    assert run.by_size[0].algbw_gbs == 20.45  # out-of-place columns, not in-place


def test_nccl_wrong_values_are_counted() -> None:
    broken = text("nccl-all.log").replace("# Out of bounds values : 0 OK", "# Out of bounds values : 12 FAILED")
    assert parse_nccl(broken).wrong == 12


def test_nccl_without_a_table_is_refused() -> None:
    with pytest.raises(ParseError, match="no nccl-tests table"):
        parse_nccl("# nThread 1 nGpus 1\nNCCL WARN something failed\n")


def test_dcgm_3x_worst_status_per_test() -> None:
    diag = parse_dcgm(text("dcgm-ip-10-0-1-11.json"), "ip-10-0-1-11", 2)
    by_name = {t.name: t for t in diag.tests}
    assert diag.version == "3.3.9" and diag.level == 2
    assert by_name["Denylist"].status == "pass"
    assert by_name["PCIe"].status == "warn" and by_name["PCIe"].failed_gpus == ("2",)
    assert by_name["GPU Memory"].status == "fail" and by_name["GPU Memory"].messages == (
        "Error using CUDA API cudaMalloc",
    )
    assert by_name["Diagnostic"].status == "skip"
    assert diag.passed is False


def test_dcgm_4x_top_level_tests() -> None:
    diag = parse_dcgm(text("dcgm-ip-10-0-1-12.json"))
    assert [(t.category, t.name, t.status) for t in diag.tests] == [
        ("Deployment", "software", "pass"),
        ("Hardware", "memory", "pass"),
    ]
    assert diag.passed is True


def test_dcgm_runtime_error_is_named() -> None:
    with pytest.raises(ParseError, match="host engine not running"):
        parse_dcgm('{"DCGM GPU Diagnostic": {"runtime_error": "host engine not running", "version": "3.3.9"}}')


def test_nvml_samples_mean_least_busy_gpu_and_memory() -> None:
    samples = parse_samples(text("nvml-ip-10-0-1-11.csv"))
    # GPU 0: 92, 88, 95, 90 -> 91.25; GPU 1: 60, 64, 58, 62 -> 61.0
    assert samples.utilization_pct_mean == pytest.approx((91.25 + 61.0) / 2)
    assert samples.utilization_pct_min_gpu == pytest.approx(61.0)
    assert samples.memory_used_gib_max == pytest.approx(33001 / 1024)
    assert samples.memory_total_gib == 80.0 and samples.interval_s == 1.0 and samples.samples == 8


def test_nvml_samples_wrong_header() -> None:
    with pytest.raises(ParseError, match="expected the CSV header"):
        parse_samples("time,gpu,util\n1,0,50\n")


def test_training_log_skips_other_lines() -> None:
    log = parse_training(text("train.log"))
    assert [(t.data, t.images_per_s_per_gpu) for t in log.throughput] == [("synthetic", 2001.4), ("files", 1180.9)]
    assert log.file_system[0].read_mbps == 524.3
    assert log.software["torch"] == "2.13.0" and log.finished == "2026-11-30T14:20:00+00:00"


def test_training_line_round_trip_and_bad_line() -> None:
    line = bench_line("fsread", path="/d", files=2, bytes=10, seconds=1.0, read_mbps=1e-5)
    assert parse_training(line).file_system[0].files == 2
    with pytest.raises(ParseError, match="line 1"):
        parse_training('#bench {"kind": "throughput", "model": "alexnet"}')


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        pytest.param("nccl-all.log", "nccl", id="nccl"),
        pytest.param("dcgm-ip-10-0-1-11.json", "dcgm", id="dcgm-3"),
        pytest.param("dcgm-ip-10-0-1-12.json", "dcgm", id="dcgm-4"),
        pytest.param("nvml-ip-10-0-1-11.csv", "samples", id="nvml"),
        pytest.param("train.log", "training", id="training"),
    ],
)
def test_detect(name: str, kind: str) -> None:
    assert detect(text(name)) == kind


def test_parse_files_merges_everything() -> None:
    result = parse_files(sorted(FIXTURES.iterdir()))
    assert [b.scope for b in result.busbw] == ["all", "pair"]
    assert {d.host for d in result.dcgm} == {"ip-10-0-1-11", "ip-10-0-1-12"}
    assert result.nodes == 2 and len(result.throughput) == 2 and result.gpu_samples is not None
    assert result.started is not None and result.started.year == 2026


@pytest.mark.parametrize(
    "old, new, says",
    [
        pytest.param(
            "  88.30      0    22800", "    nan      0    22800", "busbw_gbs: nan is not a measurement", id="nan"
        ),
        pytest.param(
            "  88.30      0    22800", "    inf      0    22800", "busbw_gbs: inf is not a measurement", id="inf"
        ),
        pytest.param(
            "  47.09   88.30      0    22800", "  47.09  -88.30      0    22800", "busbw_gbs: -88.3", id="neg"
        ),
        pytest.param("Avg bus bandwidth    : ", "Avg bus bandwidth    : -", "avg_busbw_gbs: -", id="neg-avg"),
    ],
)
def test_a_nan_infinite_or_negative_figure_is_one_line(tmp_path: Path, old: str, new: str, says: str) -> None:
    raw = text("nccl-all.log")
    assert old in raw
    (tmp_path / "nccl.log").write_text(raw.replace(old, new, 1))
    with pytest.raises(ParseError, match=f"nccl.log: .*{says}") as caught:
        parse_files([tmp_path / "nccl.log"])
    assert "\n" not in str(caught.value) and "give the unedited output the kit wrote" in str(caught.value)


def test_a_nan_in_a_training_line_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "train.log").write_text('#bench {"kind": "fsread", "gib": NaN}\n')
    with pytest.raises(ParseError, match="train.log: line 1: "):
        parse_files([tmp_path / "train.log"])


def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    import os

    os.mkfifo(tmp_path / "nccl.log")
    with pytest.raises(ParseError, match="is a pipe, not a regular file"):
        parse_files([tmp_path / "nccl.log"])
