"""`trainstack resolve` with the measurement store: an imported run changes the pick, and
every row says whether its speed is measured, published or estimated."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from profiles.cost import inputs
from profiles.measurements.schema import RunResult
from trainstack.cli.app import app

ROOT = Path(__file__).parents[2]
IMAGES, EPOCHS = 1281167, 90


@pytest.fixture()
def project(tmp_path, monkeypatch):
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path)
    (tmp_path / "job.yaml").write_text(
        yaml.safe_dump(
            {
                "name": "resnet",
                "accelerators": ["A100-80GB:8", "H100:8"],
                "providers": ["aws"],
                "regions": ["us-east-1"],
                "nodes": 1,
                "purchase": "on-demand",
                "work": {"images": IMAGES, "epochs": EPOCHS, "flops_per_image": "24.5G", "mfu": 0.16},
            }
        )
    )
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    inputs.clear_measurements()


def resolve() -> dict:
    result = CliRunner().invoke(app, ["resolve", "job.yaml", "--json", "--top", "50"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # stderr carries the price-age warnings


def rows(answer: dict) -> dict[str, dict]:
    return {r["instance_type"]: r for r in reversed([answer["choice"], *answer["alternatives"]])}


def test_an_imported_run_changes_the_pick(project: Path) -> None:
    before = resolve()
    assert before["choice"]["instance_type"] == "p5.48xlarge" and before["choice"]["speed"] == "calibrated"
    p4de = rows(before)["p4de.24xlarge"]
    assert p4de["speed"] == "published"  # DeepLearningExamples 8x A100 80GB: 16,621 images/s
    assert p4de["hours"] == pytest.approx(IMAGES * EPOCHS * 24.5e9 / 24.535105536e9 / 16621 / 3600, rel=1e-3)

    node = {"provider": "aws", "instance_type": "p5.48xlarge", "accelerator": "H100", "accelerator_count": 8}
    run = RunResult(
        **node,
        nodes=1,
        started="2026-11-30T12:00:00Z",
        throughput=[
            {
                "model": "resnet50",
                "data": "synthetic",
                "precision": "bf16",
                "gpus": 8,
                "images_per_s_per_gpu": 2500.0,
                "flops_per_image": 24.535105536e9,
            }
        ],
    )
    (project / "run.json").write_text(run.model_dump_json())
    imported = CliRunner().invoke(app, ["bench", "import", "run.json"])
    assert imported.exit_code == 0, imported.output

    after = resolve()
    p5 = rows(after)["p5.48xlarge"]
    assert p5["speed"] == "measured"
    # 8 x 2,500 images/s: 1,281,167 x 90 x (24.5 / 24.535) images / 20,000 per second
    assert p5["hours"] == pytest.approx(IMAGES * EPOCHS * 24.5e9 / 24.535105536e9 / 20000 / 3600, rel=1e-3)
    assert after["choice"]["instance_type"] == "p4de.24xlarge" and after["choice"]["speed"] == "published"


def test_rows_of_a_job_given_in_hours_say_given(project: Path) -> None:
    spec = yaml.safe_load((project / "job.yaml").read_text())
    spec.pop("work")
    (project / "job.yaml").write_text(yaml.safe_dump({**spec, "hours": "10h"}))
    assert {r["speed"] for r in rows(resolve()).values()} == {"given"}
