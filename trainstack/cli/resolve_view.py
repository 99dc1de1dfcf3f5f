"""The `trainstack resolve` table for people, at any terminal width.

Prices, instance types, regions and zones are never cut: they are printed whole or the
layout changes. On a wide terminal (and in logs, 160 columns) the table carries a `why`
column; when that column would be squeezed, the reasons move below the table, numbered by
rank; when even the figures do not fit (an 80-column terminal), each row becomes a short
block of lines. Notes are footnotes: each distinct note (an unsourced file-system price,
say) is printed once below the table as `[n] text`, and the rows carrying it show `[n]`.
"""

from __future__ import annotations

from typing import Any

COLUMNS = (
    "#",
    "provider",
    "region / zone",
    "instance type",
    "GPUs",
    "purchase",
    "hours",
    "speed",
    "USD/hour",
    "USD/job",
)
RIGHT = frozenset({"#", "hours", "USD/hour", "USD/job"})
WHY_MIN_CHARS = 30  # narrower than this, the why column would wrap a word per line


def _cells(rank: int, ranked: Any) -> list[str]:
    """The row's figures, in `COLUMNS` order; `speed` says where its hours come from
    (`calibrated`, `peak x MFU`, `measured`, `published` or `given`; `profiles.cost.speed`). USD/hour is what `plan`
    calls USD/hour: everything the job pays (compute, file system, bucket requests) per hour
    of its run, `Candidate.total_usd_per_hour`."""
    from profiles.catalog.platform_rows import shown

    c, o = ranked.candidate, ranked.candidate.offering
    provider, instance_type = shown(o)  # a managed row: `aws/sagemaker`, `ml.p4d.24xlarge`
    return [
        str(rank),
        provider,
        f"{o.region} / {o.zone}" + (f" +{len(ranked.also_zones)}" if ranked.also_zones else ""),
        instance_type,
        f"{c.nodes}x{o.accelerator_count} {o.accelerator}",
        c.purchase,
        f"{c.hours:,.1f}",
        c.speed,
        f"{c.total_usd_per_hour:,.2f}",
        f"{c.usd_total:,.2f}",
    ]


def footnotes(rows: list[Any]) -> dict[str, int]:
    """Each distinct note of `rows` -> its footnote number, in order of first appearance."""
    numbers: dict[str, int] = {}
    for ranked in rows:
        for note in ranked.candidate.notes:
            numbers.setdefault(note, len(numbers) + 1)
    return numbers


def _why(ranked: Any, numbers: dict[str, int]) -> str:
    refs = "".join(f"[{numbers[n]}]" for n in ranked.candidate.notes)
    return ranked.reason + (f" {refs}" if refs else "")


def table_width(cells: list[list[str]], why: bool) -> int:
    """Characters a rich table of `cells` needs with no cell cut (borders and padding included)."""
    widths = [max(len(row[i]) for row in [list(COLUMNS), *cells]) for i in range(len(COLUMNS))]
    columns = len(widths) + (1 if why else 0)
    return sum(widths) + 3 * columns + 1 + (WHY_MIN_CHARS if why else 0)


def print_resolution(out: Any, spec: Any, resolution: Any, catalog_version: str) -> None:
    """Print the ranked candidates on console `out`, choice first, in the layout that fits."""
    from rich.markup import escape
    from rich.table import Table

    rows = [resolution.choice, *resolution.alternatives]
    numbers = footnotes(rows)
    cells = [_cells(rank, ranked) for rank, ranked in enumerate(rows, start=1)]
    noun = "candidate" if resolution.matched == 1 else "candidates"
    title = f"{spec.name}: {resolution.matched} {noun} (catalog {catalog_version})"
    with_why = table_width(cells, why=True) <= out.width
    if with_why or table_width(cells, why=False) <= out.width:
        table = Table(title=escape(title))
        for column in COLUMNS:
            table.add_column(column, justify="right" if column in RIGHT else "left", no_wrap=True)
        if with_why:
            table.add_column("why", min_width=WHY_MIN_CHARS, ratio=1)
        for rank, (ranked, row) in enumerate(zip(rows, cells, strict=False), start=1):
            extra = [escape(_why(ranked, numbers))] if with_why else []
            table.add_row(*map(escape, row), *extra, style="bold green" if rank == 1 else None)
        out.print(table)
        if not with_why:
            for rank, ranked in enumerate(rows, start=1):
                out.print(f"{rank}. {escape(_why(ranked, numbers))}", highlight=False)
    else:
        out.print(f"[bold]{escape(title)}[/bold]")
        for ranked, row in zip(rows, cells, strict=False):
            style = "bold green" if row[0] == "1" else "bold"
            out.print(
                f"[{style}]{row[0]}. {escape(row[1])} {escape(row[3])} {escape(row[4])} {escape(row[5])}[/]",
                highlight=False,
            )
            out.print(f"   {escape(row[2])}", highlight=False)
            out.print(f"   {row[6]} h ({row[7]}), USD {row[8]}/hour, USD {row[9]}/job", highlight=False)
            out.print(f"   why: {escape(_why(ranked, numbers))}", highlight=False)
    for note, number in numbers.items():
        out.print(escape(f"[{number}] {note}"), highlight=False)
