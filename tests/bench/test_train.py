"""The training benchmark run for real on the CPU with tiny sizes, and its helpers."""

from __future__ import annotations

import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

# The [torch] extra (`make test` installs it). torch is imported by the tests that run, not at
# collection: every xdist worker collects this file, and torch's import is about 1.5 s of CPU.
pytestmark = pytest.mark.skipif(find_spec("torch") is None, reason="needs the [torch] extra")

TINY = [
    "--steps",
    "2",
    "--warmup",
    "1",
    "--batch",
    "2",
    "--image-size",
    "32",
    "--width",
    "4",
    "--classes",
    "10",
    "--workers",
    "0",
    "--cpu",
]


@pytest.mark.parametrize(
    ("name", "params"),
    [
        pytest.param("resnet50", 25_557_032, id="resnet50-25.6M"),  # He et al. 2015: 25.6M
        pytest.param("vit_b16", 86_567_656, id="vit-b16-86.6M"),  # Dosovitskiy et al. 2020: 86M
    ],
)
def test_published_shapes(name: str, params: int) -> None:
    from trainstack.bench.models import build

    assert sum(p.numel() for p in build(name).parameters()) == params


def test_vit_b16_flops_match_the_published_count() -> None:
    from trainstack.bench.models import build, training_flops_per_image

    # ViT-B/16 at 224 px: 17.6 G multiply-adds forward (2 FLOPs each), x3 for training.
    flops = training_flops_per_image(build("vit_b16"), 224)
    assert flops == pytest.approx(3 * 2 * 17.56e9, rel=0.01)


def test_tiny_vit_flops_by_hand() -> None:
    from trainstack.bench.models import ViT, training_flops_per_image

    # 32 px, patch 16: 4 patches + class token = 5 tokens; hidden 96, MLP 384, 12 layers, 10 classes.
    model = ViT(32, 16, 96, 12, 12, 384, 10)
    macs = 4 * 3 * 256 * 96 + 12 * (5 * (4 * 96**2 + 2 * 96 * 384) + 2 * 25 * 96) + 96 * 10
    assert training_flops_per_image(model, 32) == 3 * 2 * macs


def test_file_run_through_the_data_loader(tmp_path: Path) -> None:
    from trainstack.bench.data import ImageFiles, write_images
    from trainstack.bench.train import benchmark, parse_args

    assert write_images(tmp_path / "img", 6, 24) == 6
    assert write_images(tmp_path / "img", 6, 24) == 0  # kept, not rewritten
    image, label = ImageFiles(tmp_path / "img", 32, 10)[0]
    assert tuple(image.shape) == (3, 32, 32) and 0 <= label < 10 and float(image.max()) <= 1.0
    result = benchmark(parse_args(["--model", "resnet50", "--data", "files", "--dir", str(tmp_path / "img"), *TINY]))
    assert result["data"] == "files" and 0 <= result["data_loader_share"] <= 1
    assert result["flops_per_image"] > 0


def test_fsread_counts_every_byte(tmp_path: Path) -> None:
    from trainstack.bench.data import write_images
    from trainstack.bench.fsread import read_throughput

    write_images(tmp_path, 3, 16)
    found = read_throughput(tmp_path, threads=2)
    files = sorted(tmp_path.rglob("*.jpg"))
    assert found["files"] == 3 and found["bytes"] == sum(f.stat().st_size for f in files)
    # read_mbps is rounded to 3 decimals: on tiny reads (~0.04 MB/s) that alone exceeds 1 %
    assert found["read_mbps"] == pytest.approx(found["bytes"] / found["seconds"] / 1e6, rel=1e-2, abs=5e-4)


def test_missing_image_dir_is_one_line(tmp_path: Path) -> None:
    from trainstack.bench.data import ImageFiles

    with pytest.raises(ValueError, match="no .jpg/.png files"):
        ImageFiles(tmp_path, 32)


def test_sampler_without_a_gpu_says_why(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "trainstack.bench.sampler", "--out", str(tmp_path / "s.csv")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "NVML could not start" in done.stderr or "nvidia-ml-py is not installed" in done.stderr


def test_synthetic_run_prints_lines_bench_parse_reads(capsys, monkeypatch) -> None:
    """The command `python -m trainstack.bench.train` runs, called in this process (no second
    torch import): one process, so no WORLD_SIZE/RANK from the environment."""
    from trainstack.bench.parse_training import parse_training
    from trainstack.bench.train import main as train_main

    for variable in ("WORLD_SIZE", "RANK"):
        monkeypatch.delenv(variable, raising=False)
    train_main(["--model", "vit_b16", *TINY])
    log = parse_training(capsys.readouterr().out)
    run = log.throughput[0]
    assert (run.model, run.data, run.gpus, run.steps, run.precision) == ("vit_b16", "synthetic", 1, 2, "bf16")
    assert run.images_per_s_per_gpu == pytest.approx(2 / run.step_time_s, rel=1e-3)
    assert run.data_loader_share < 0.5 and log.software["torch"] and log.finished
