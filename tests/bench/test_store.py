"""The measurement store: published seeds, `bench import`, and which figure an offering gets."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from profiles.catalog.offering import Offering
from profiles.cost import inputs
from profiles.measurements.schema import RunResult
from profiles.measurements.speeds import best_busbw, speed_lookup, speed_of, use_measurements
from profiles.measurements.store import PUBLISHED, StoreError, import_result, load_store, read_result
from profiles.spec import parse_spec
from tests.cases import cases
from trainstack.cli.app import app

ROOT = Path(__file__).parents[2]
EXAMPLES = ROOT / "examples" / "bench"
IMAGES = {"images": 1281167, "epochs": 90, "flops_per_image": "24.5G", "mfu": 0.16}


def offering(provider: str, instance_type: str, accelerator: str, form_factor: str = "SXM") -> Offering:
    fields = dict.fromkeys(Offering._fields)
    return Offering(
        **{
            **fields,
            "provider": provider,
            "region": "r",
            "zone": "z",
            "instance_type": instance_type,
            "accelerator": accelerator,
            "accelerator_count": 8,
            "form_factor": form_factor,
            "interconnect": "efa",
            "currency": "USD",
            "price_note": "",
        }
    )


def spec(nodes: int = 1, **work):
    return parse_spec(
        {
            "name": "job",
            "accelerators": ["A100-80GB:8"],
            "nodes": nodes,
            "interconnect": "rdma" if nodes > 1 else "none",
            "work": work or IMAGES,
        }
    )


def measured(instance_type: str, images_per_s: float, busbw: float | None = None, nodes: int = 1) -> RunResult:
    return RunResult(
        provider="aws",
        instance_type=instance_type,
        accelerator="A100-80GB",
        accelerator_count=8,
        nodes=nodes,
        started="2026-11-30T14:00:00Z",
        throughput=[
            {
                "model": "resnet50",
                "data": "synthetic",
                "precision": "bf16",
                "gpus": 8,
                "images_per_s_per_gpu": images_per_s,
                "flops_per_image": 24.5e9,
            }
        ],
        busbw=[] if busbw is None else [{"scope": "all", "nodes": nodes, "ranks": 8 * nodes, "peak_busbw_gbs": busbw}],
    )


@pytest.fixture(autouse=True)
def no_registered_lookup():
    yield
    inputs.clear_measurements()


def test_every_published_seed_has_a_source_and_validates() -> None:
    seeds = load_store(None)
    assert len(seeds) == len(list(PUBLISHED.glob("*.json"))) >= 8
    assert all(s.provenance == "published" and s.source for s in seeds)
    dle = next(s for s in seeds if s.accelerator == "A100-80GB" and s.throughput)
    assert dle.throughput[0].images_per_s_per_gpu * 8 == pytest.approx(16621)  # DeepLearningExamples, T3


def test_published_dgx_figure_applies_to_the_same_gpus_per_node() -> None:
    lookup = speed_lookup(spec(), load_store(None))
    found = lookup(offering("aws", "p4de.24xlarge", "A100-80GB"))
    assert found is not None and found.provenance == "published"
    assert found.tflops_per_gpu == pytest.approx(16621 / 8 * 24.535105536e9 / 1e12)
    assert lookup(offering("aws", "p4de.24xlarge", "A100-80GB", "PCIe")) is None  # other form factor
    assert lookup(offering("aws", "p5.48xlarge", "H100")) is None  # no published H100 figure


def test_own_run_beats_published_and_the_newest_wins() -> None:
    older = measured("p4de.24xlarge", 1500.0)
    newer = older.model_copy(
        update={
            "started": older.started.replace(hour=18),
            "throughput": (older.throughput[0].model_copy(update={"images_per_s_per_gpu": 1800.0}),),
        }
    )
    found = speed_lookup(spec(), (*load_store(None), older, newer))(offering("aws", "p4de.24xlarge", "A100-80GB"))
    assert found.provenance == "measured" and found.tflops_per_gpu == pytest.approx(1800 * 24.5e9 / 1e12)


def test_transformer_work_ignores_resnet_figures() -> None:
    llm = spec(params="13B", tokens="260B", mfu=0.4)
    assert speed_lookup(llm, load_store(None))(offering("aws", "p4de.24xlarge", "A100-80GB")) is None


def test_multi_node_jobs_take_the_measured_busbw_and_the_weakest_class() -> None:
    run = measured("p4de.24xlarge", 1900.0, busbw=92.5, nodes=2)
    found = speed_lookup(spec(nodes=2), (run,))(offering("aws", "p4de.24xlarge", "A100-80GB"))
    # busbw 92.5 GB/s per rank over 16 ranks on 2 nodes: algbw 92.5 x 16 / 30, node-level x 2 x 1 / 2
    assert found.busbw_gbytes_per_s == pytest.approx(92.5 * 16 / 30) and found.provenance == "measured"
    fabric_only = speed_lookup(spec(nodes=2), (run.model_copy(update={"throughput": ()}),))
    assert fabric_only(offering("aws", "p4de.24xlarge", "A100-80GB")).provenance == "estimated"
    # one node: the fabric is not used; a node-scope (NVLink) run never counts as inter-node
    assert speed_lookup(spec(), (run,))(offering("aws", "p4de.24xlarge", "A100-80GB")).busbw_gbytes_per_s is None
    node = run.model_copy(update={"busbw": (run.busbw[0].model_copy(update={"scope": "node", "nodes": 1}),)})
    assert best_busbw((node,), offering("aws", "p4de.24xlarge", "A100-80GB")) is None


def test_speed_of_reads_the_registered_lookup() -> None:
    p4de = offering("aws", "p4de.24xlarge", "A100-80GB")
    assert speed_of(p4de) == "estimated"
    use_measurements(spec(), load_store(None))
    assert speed_of(p4de) == "published" and speed_of(offering("aws", "p5.48xlarge", "H100")) == "estimated"
    use_measurements(parse_spec({"name": "j", "accelerators": ["A100"], "hours": "72h"}), ())
    assert speed_of(p4de) == "given"


def test_import_copies_once_and_never_overwrites(tmp_path: Path) -> None:
    source = tmp_path / "run.json"
    source.write_text(measured("p4de.24xlarge", 1900.0).model_dump_json())
    target, new = import_result(source, tmp_path)
    assert new and target.parent == tmp_path / "measurements" and read_result(target).instance_type == "p4de.24xlarge"
    assert import_result(source, tmp_path) == (target, False)
    assert load_store(tmp_path)[-1].provenance == "measured"


@pytest.mark.parametrize(("content", "message"), cases("bench_import_refusals.yaml", "content", "message"))
def test_import_refuses_with_one_line(tmp_path: Path, content: str, message: str) -> None:
    (tmp_path / "run.json").write_text(content)
    with pytest.raises(StoreError, match=message):
        import_result(tmp_path / "run.json", tmp_path)
    assert not (tmp_path / "measurements").exists()


@pytest.mark.parametrize(
    ("started", "finished", "field"),
    [
        pytest.param("2026-11-30T14:00:00Z", "2026-11-30T14:40:00Z", None, id="past-run"),
        pytest.param("2026-12-04T11:00:00Z", "2026-12-04T12:09:00Z", None, id="node-clock-9-min-ahead"),
        pytest.param("2026-12-04T11:00:00Z", "2026-12-04T12:11:00Z", "finished", id="11-min-ahead"),
        pytest.param("2026-12-04T11:00:00", "2026-12-04T11:30:00", None, id="no-zone-read-as-utc"),
        pytest.param("2026-12-04T13:00:00", None, "started", id="no-zone-future"),
        pytest.param("2026-11-30T14:00:00Z", "2026-11-30T14:00:00Z", None, id="zero-length"),
        pytest.param("2026-11-30T14:00:01Z", "2026-11-30T14:00:00Z", "finished", id="one-second-backwards"),
        pytest.param(None, "2027-01-01T00:00:00Z", "finished", id="only-finished-future"),
        pytest.param(None, None, None, id="undated"),
        pytest.param("9999-12-31T23:59:59-01:00", None, "started", id="beyond-utc-calendar"),
    ],
)
def test_dates_problem(started, finished, field) -> None:
    from datetime import datetime, timezone

    from profiles.measurements.plausible import dates_problem

    result = RunResult(started=started, finished=finished)
    problem = dates_problem(result, datetime(2026, 12, 4, 12, 0, tzinfo=timezone.utc))
    assert (problem.split(":", 1)[0] if problem else None) == field


def test_bench_import_cli_checks_every_file_first(tmp_path: Path, monkeypatch) -> None:
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path)
    monkeypatch.chdir(tmp_path)
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(measured("p4de.24xlarge", 1900.0).model_dump_json())
    bad.write_text(json.dumps({"nodes": "two"}))
    result = CliRunner().invoke(app, ["bench", "import", str(good), str(bad)])
    assert result.exit_code == 2 and "bad.json: nodes" in result.output
    assert not (tmp_path / "measurements").exists()
    result = CliRunner().invoke(app, ["bench", "import", str(good)])
    assert result.exit_code == 0 and "imported: " in result.output
    assert len(list((tmp_path / "measurements").glob("*.json"))) == 1


def test_a_run_at_the_peak_is_imported(tmp_path: Path) -> None:
    # 12,734 x 24.5e9 = 311.98 TFLOPS: just under the A100-80GB's 312 TFLOPS (MFU 1.00)
    source = tmp_path / "run.json"
    source.write_text(measured("p4de.24xlarge", 12734.0).model_dump_json())
    assert import_result(source, tmp_path)[1] is True


def test_a_stored_run_faster_than_the_peak_is_refused_by_resolve(tmp_path: Path) -> None:
    (tmp_path / "measurements").mkdir()
    bad = tmp_path / "measurements" / "copied-by-hand.json"
    bad.write_text(measured("p4de.24xlarge", 1e9).model_dump_json())
    with pytest.raises(
        StoreError, match=r"copied-by-hand\.json: throughput\.0\.images_per_s_per_gpu: .* or remove the file"
    ):
        load_store(tmp_path)


def test_bench_import_refuses_an_impossible_file_after_a_good_one(tmp_path: Path, monkeypatch) -> None:
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path)
    monkeypatch.chdir(tmp_path)
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(measured("p4de.24xlarge", 1900.0).model_dump_json())
    bad.write_text(measured("p4de.24xlarge", 20000.0).model_dump_json())
    result = CliRunner().invoke(app, ["bench", "import", str(good), str(bad)])
    assert result.exit_code == 2 and "490 TFLOPS per GPU" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "measurements").exists()
