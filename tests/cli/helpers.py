"""What the CLI tests share: the real CLI runner and the one-line-error check."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import Result
from typer.testing import CliRunner

import profiles.catalog.loader as loader
from trainstack.cli.app import app

ROOT = Path(__file__).parents[2]
WORKLOAD = ROOT / "profiles" / "workloads" / "training-a100.yaml"


def run(*args: str) -> Result:
    """`trainstack ARGS` through the real typer app, in this process."""
    return CliRunner().invoke(app, list(args))


def one_error_line(result: Result, text: str, code: int = 2) -> None:
    """The run failed with `code` (2 bad input, 1 the work itself failed) and printed exactly one
    `error:` line on stderr containing `text`, with no traceback (plain or Rich-boxed)."""
    assert result.exit_code == code, result.output
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    assert text in result.stderr, result.stderr
    assert "Traceback" not in result.output and "╭" not in result.output


def without_rate(folder: Path) -> None:
    """Drop the committed USD/CNY rate (and its version suffix): the catalog as before any rate."""
    path = folder / "catalog.json"
    meta = json.loads(path.read_text())
    meta.pop("exchange_rates", None)
    meta["version"] = meta["version"].split("+")[0]
    path.write_text(json.dumps(meta))


def copy_committed_catalog(to: Path) -> Path:
    """A writable copy of the catalog folder the suite reads (HEAD's, see tests/conftest.py)."""
    shutil.copytree(loader.DATA_DIR, to, ignore=shutil.ignore_patterns("snapshots"))
    return to


def documented_keys() -> set[str]:
    """Every `word` in backticks in docs/cli.md: the JSON keys it documents are among them."""
    import re

    return set(re.findall(r"`([a-z_0-9]+)`", (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")))
