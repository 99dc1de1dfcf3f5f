"""`trainstack up -s NAME [-- PULUMI-UP-FLAGS]`: deploy through the Automation API, walking the
stack's fallbacks on no capacity (`trainstack.up.walk`), and print the report."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from trainstack.cli.usage_errors import FAILED, fail
from trainstack.up.engine import FlagError, automation_engine, up_flags

if TYPE_CHECKING:
    from trainstack.up.walk import Engine


def run(
    stack: str,
    extra: list[str],
    attempts: int,
    minutes: float,
    force: bool,
    folder: Path,
    engine: Engine = automation_engine,
) -> None:
    """Parse the passed-through flags, walk, print the report; exit 1 when nothing deployed.

    `engine` is the Automation API's (which needs the Pulumi CLI: a missing one is a one-line
    error, status 1); tests hand in one that replays recorded engine events.
    """
    from clouds.config import ConfigError
    from profiles.stack.file import StackFileError, stack_path
    from trainstack.up.move import read_stack
    from trainstack.up.walk import walk

    try:
        flags = up_flags(extra)
        read_stack(stack_path(folder, stack))  # bad input first (exit 2, the field), as run and status do
    except (FlagError, StackFileError, ConfigError) as exc:
        fail(str(exc))
    if engine is automation_engine and shutil.which("pulumi") is None:
        fail(
            "trainstack up runs the Pulumi CLI through the Automation API and it is not on PATH; install it "
            f"(https://www.pulumi.com/docs/install/) or run `pulumi up -s {stack}` yourself",
            FAILED,
        )
    try:
        report = walk(stack, folder, engine, flags, attempts, minutes, force=force)
    except (StackFileError, ConfigError) as exc:
        fail(str(exc))
    for line in report.lines():
        typer.echo(line)
    if not report.deployed:
        raise typer.Exit(FAILED)
