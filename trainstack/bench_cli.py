"""`trainstack bench ...`: run the benchmark kit, parse its raw output, import results into
the measurement store, and report time and cost per measured offering.

A thin layer like `trainstack/cli.py`: errors a user can fix print one line and exit 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from trainstack.usage_errors import fail

bench_app = typer.Typer(no_args_is_help=True, help="Benchmark the cluster: kit, parse, import, report.")


def _project_dir() -> Path:
    from trainstack.cli import project_dir  # the CLI's own project discovery

    return project_dir()


def _cluster(stack: str):
    """The stack's validated cluster config (one-line error when it cannot be read)."""
    from profiles.preflight import PreflightError, read_cluster
    from profiles.stack_writer import StackWriteError, stack_path

    try:
        return read_cluster(stack_path(_project_dir(), stack))
    except (PreflightError, StackWriteError) as exc:
        fail(str(exc))


@bench_app.command("parse")
def parse(
    files: list[Path] = typer.Argument(..., help="Raw output: nccl-tests logs, dcgmi diag --json, NVML CSV, training log."),
    stack: Optional[str] = typer.Option(None, "-s", "--stack", help="Stack the run was on (fills provider, type, nodes)."),
    as_json: bool = typer.Option(False, "--json", help="Print the results file (JSON) instead of a summary."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write the results file here."),
) -> None:
    """Read raw tool output into one results file (docs/bench-results.md)."""
    from trainstack.bench.parse import ParseError, parse_files
    from trainstack.bench.summary import summary_lines

    cluster = _cluster(stack) if stack else None
    try:
        result = parse_files(files, cluster, stack)
    except ParseError as exc:
        fail(str(exc))
    text = result.model_dump_json(indent=2, exclude_none=True)
    if output is not None:
        try:
            output.write_text(text + "\n", encoding="utf-8")
        except OSError as exc:
            fail(f"--output {output}: cannot write ({exc.strerror}); give a writable path")
    if as_json:
        typer.echo(text)
    else:
        for line in summary_lines(result):
            typer.echo(line)
        if output is not None:
            typer.echo(f"results written: {output}")
