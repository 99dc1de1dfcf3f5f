"""`trainstack up` without the Pulumi CLI: the one line names the stack's own `pulumi up -s`
command (new-user pass 2, finding 15: it said `-s NAME`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import typer

from trainstack.cli import up_cmd

ROOT = Path(__file__).parents[3]


def test_missing_pulumi_cli_names_the_stacks_own_command(tmp_path, monkeypatch, capsys) -> None:
    (tmp_path / "stacks").mkdir()
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path)
    shutil.copy(ROOT / "stacks" / "Pulumi.training-a100.yaml", tmp_path / "stacks" / "Pulumi.team-run.yaml")
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(typer.Exit) as stopped:
        up_cmd.run("team-run", [], 5, 120.0, False, tmp_path)
    assert stopped.value.exit_code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "or run `pulumi up -s team-run` yourself" in err
