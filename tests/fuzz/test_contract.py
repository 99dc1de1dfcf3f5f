"""Property-based fuzzing of the input contract (hypothesis, bounded): for generated workloads,
stack files and bench results, trainstack exits 0, or 2 with exactly one `error:` line, never
prints a traceback, writes nothing but the output it was asked for, and answers within a time
and memory bound. Runs in-process (the real typer app), a few seconds in all.

The properties (strategies, settings: 15 derandomized examples each) are in
`tests/fuzz/contract.py`, imported by each test when it runs, so that a worker that runs none
of them never imports hypothesis.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def project(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path_factory.mktemp("fuzz")
    shutil.copy(ROOT / "Pulumi.yaml", folder / "Pulumi.yaml")
    monkeypatch.chdir(folder)
    return folder


def test_resolve_keeps_the_contract_for_any_workload(project: Path) -> None:
    from tests.fuzz.contract import resolve_any_workload

    resolve_any_workload(project)


def test_resolve_keeps_the_contract_for_any_text(project: Path) -> None:
    from tests.fuzz.contract import resolve_any_text

    resolve_any_text(project)


def test_a_stack_is_valid_or_refused_in_one_line(project: Path) -> None:
    from tests.fuzz.contract import read_any_stack

    read_any_stack(project)


def test_bench_import_writes_only_into_the_store(project: Path) -> None:
    from tests.fuzz.contract import bench_import_anything

    bench_import_anything(project)
