"""Terminal output of `trainstack catalog refresh` and `trainstack check` (rich)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from profiles.catalog.diff import RefreshSummary
from profiles.preflight.finding import Finding

MARKS = {"ok": "[green]ok[/]", "fail": "[red]FAIL[/]", "unknown": "[yellow]?[/]", "info": "[cyan]info[/]"}


@contextlib.contextmanager
def progress_bar(provider: str) -> Iterator[Callable[[str], None]]:
    """A progress bar on stderr; yields the `progress(message)` callback fetchers call.

    The number of API steps is not known in advance, so the bar pulses and counts steps.
    Without a terminal (pipes, CI) nothing is drawn, so stderr keeps only real errors.
    """
    console = Console(stderr=True)
    if not console.is_terminal:
        yield lambda _: None
        return
    columns = (
        SpinnerColumn(),
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.completed} steps"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(f"{provider}: starting", total=None)

        def advance(message: str) -> None:
            bar.update(task, description=message, advance=1)

        yield advance


def refresh_summary(summary: RefreshSummary) -> None:
    """Print what a refresh changed and where the previous catalog was kept."""
    console = Console(soft_wrap=True)
    scope = ", ".join(summary.regions) or "all regions"
    console.print(
        f"[bold]{summary.provider}[/] ({scope}): {summary.rows} offerings fetched; "
        f"{summary.added} added, {summary.removed} removed, {summary.changed} repriced, "
        f"{summary.unchanged} unchanged"
    )
    if summary.moves:
        console.print("largest price moves (per hour for the whole instance):")
    for move in summary.moves:
        zones = f"{move.zones} zone{'s' if move.zones > 1 else ''}"
        console.print(
            f"  {move.instance_type} {move.region} {move.purchase}: {move.old_usd_per_hour:.4f} -> "
            f"{move.new_usd_per_hour:.4f} {move.currency} ({move.percent:+.1f}%, {zones})",
            highlight=False,
        )
    console.print(f"catalog version {summary.version}")
    if summary.snapshot:
        console.print(f"previous file kept as {summary.snapshot}")


def findings(stack: str, items: list[Finding], path: Path | None = None) -> None:
    """Print one line per preflight finding, with its fix underneath, under a header naming
    the stack and its file (`path`), so a finding about a key says which file holds it."""
    console = Console(soft_wrap=True)
    console.print(f"[bold]preflight {stack}[/]" + (f" ({path})" if path is not None else ""), highlight=False)
    for item in items:
        console.print(f"  {MARKS.get(item.status, item.status)} {item.check}: {item.detail}", highlight=False)
        if item.fix:
            console.print(f"      fix: {item.fix}", highlight=False)
