"""`bench report` output: a side-by-side table, a plot of time to finish and cost, and JSON."""

from __future__ import annotations

from pathlib import Path

from trainstack.bench.report import Verdict


def _money(value: float | None, digits: int | None = None) -> str:
    """USD without the sign: to `digits` decimals, or (None) as `clouds.words.usd` shows money,
    to the cent below $100 so runs a few cents apart never read the same."""
    from clouds.words import usd

    if value is None:
        return "n/a"
    return usd(value).replace("$", "") if digits is None else f"{value:,.{digits}f}"


def report_json(workload: str, verdicts: list[Verdict], warnings: list[str] | None = None) -> dict:
    """The report's figures, one entry per run, cheapest job first, and the warnings printed
    on stderr (the catalog prices' age; keys in docs/cli.md)."""
    return {
        "workload": workload,
        "runs": [
            {
                "run": v.run.label(),
                "stack": v.run.stack,
                "provider": v.run.provider,
                "instance_type": v.run.instance_type,
                "nodes": v.run.nodes,
                "images_per_s_per_gpu": v.throughput.images_per_s_per_gpu if v.throughput else None,
                "data": v.throughput.data if v.throughput else None,
                "hours": None if v.hours is None else round(v.hours, 4),
                "usd_per_hour": None if v.usd_per_hour is None else round(v.usd_per_hour, 4),
                "usd_total": None if v.usd_total is None else round(v.usd_total, 2),
                "findings": list(v.findings),
                "bottleneck": v.bottleneck,
                "example": v.run.example,
            }
            for v in verdicts
        ],
        "warnings": list(warnings or ()),
    }


def report_table(workload: str, verdicts: list[Verdict]) -> None:
    """Print one row per run: throughput, data loader, utilization, busbw, DCGM, time, cost,
    bottleneck. Figures are never cut: they fold onto a second line when the terminal is narrow,
    and below `WIDE` columns each run's name and bottleneck move under the table as a numbered
    note (as `resolve`'s long reasons do)."""
    from rich.markup import escape
    from rich.table import Table

    from trainstack.cli.render import console

    out = console()
    wide = out.width >= WIDE
    table = Table(title=f"{workload}: time to finish and cost per measured offering")
    for column in _COLUMNS[: None if wide else -1]:
        table.add_column(
            column, justify="left" if column in ("run", "DCGM", "bottleneck") else "right", overflow="fold"
        )
    notes: list[str] = []
    for v in verdicts:
        why = v.bottleneck + "".join(f"\n- {f}" for f in v.findings)
        label = v.run.label() + (" [example]" if v.run.example else "")
        if not wide:  # the run's name and its bottleneck go under the table
            notes.append(f"[{len(notes) + 1}] {label}: {why}")
            label = f"[{len(notes)}]"
        table.add_row(escape(label), *_figures(v), *([escape(why)] if wide else []))
    out.print(table)
    for note in notes:
        out.print(escape(note), overflow="fold")


_COLUMNS = (
    "run",
    "images/s/GPU",
    "loader",
    "GPU util",
    "busbw GB/s",
    "DCGM",
    "hours",
    "USD/hour",
    "USD/job",
    "bottleneck",
)
# Terminal columns from which the bottleneck stays in the table (below: notes under it).
WIDE = 160


def _figures(v: Verdict) -> tuple[str, ...]:
    """The row's measured and computed figures, as the table shows them."""
    t, g = v.throughput, v.run.gpu_samples
    busbw = max((b.peak_busbw_gbs for b in v.run.busbw if b.scope != "node"), default=None)
    expected = f" (published {v.published_busbw[0]:g})" if v.published_busbw else ""
    dcgm = "n/a" if not v.run.dcgm else ("pass" if all(d.passed for d in v.run.dcgm) else "FAIL")
    return (
        "n/a" if t is None else f"{t.images_per_s_per_gpu:,.0f} ({t.data})",
        "n/a" if t is None else f"{max(x.data_loader_share for x in v.run.throughput):.0%}",
        "n/a" if g is None else f"{g.utilization_pct_mean:.0f} %",
        "n/a" if busbw is None else f"{busbw:g}{expected}",
        dcgm,
        "n/a" if v.hours is None else f"{v.hours:,.2f}",
        _money(v.usd_per_hour, 2),
        _money(v.usd_total),
    )


def write_report_plot(path: Path, workload: str, verdicts: list[Verdict]) -> int:
    """Two bar charts side by side: hours to finish and USD per job, one bar per run; runs with
    a bottleneck in red. Returns the number of runs drawn.

    Raises:
        OSError: the file cannot be written.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = [v for v in verdicts if v.hours is not None]
    labels = [v.run.label() for v in shown]
    colors = ["tab:green" if v.bottleneck.startswith("none") else "tab:red" for v in shown]
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 1.2 + 0.6 * max(len(shown), 1)), sharey=True)
    left.barh(labels, [v.hours for v in shown], color=colors)
    left.set_xlabel("hours to finish")
    right.barh(labels, [v.usd_total or 0.0 for v in shown], color=colors)
    right.set_xlabel("USD per job (on-demand)")
    for axes, values, shown_as in (
        (left, [v.hours for v in shown], lambda hours: f"{hours:,.1f} h"),
        (right, [v.usd_total or 0.0 for v in shown], lambda usd: f"${_money(usd)}"),  # cents below $100
    ):
        for y, value in enumerate(values):
            axes.annotate(
                shown_as(value), (value, y), xytext=(3, 0), textcoords="offset points", va="center", fontsize=8
            )
        axes.grid(axis="x", alpha=0.3)
        axes.margins(x=0.25)
    left.invert_yaxis()
    figure.suptitle(f"{workload}: measured offerings (red: a bottleneck was found)")
    figure.tight_layout()
    figure.savefig(path, dpi=110, format=path.suffix.lower().removeprefix(".") or "png")
    plt.close(figure)
    return len(shown)
