"""Fixtures for the CLI tests: an empty Pulumi project as the working directory and a
rate-less copy of the committed catalog."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import profiles.catalog.loader as loader
from tests.cli.helpers import ROOT, copy_committed_catalog, without_rate


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty Pulumi project folder as the working directory."""
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path / "Pulumi.yaml")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture()
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the catalog folder without its USD/CNY rate, used by the CLI instead of the
    installed one."""
    copy = copy_committed_catalog(tmp_path / "data")
    without_rate(copy)
    monkeypatch.setattr(loader, "DATA_DIR", copy)
    return copy
