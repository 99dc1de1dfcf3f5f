"""`resolve --plot FILE.png`: cost per job against hours, Pareto front marked (matplotlib)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from profiles.pareto import pareto_front

# File formats the chart is written in, by file-name ending; all built into matplotlib
# (Agg, SVG and PDF backends), so none needs an extra package or LaTeX.
FORMATS = ("png", "svg", "pdf")


class PlotPathError(ValueError):
    """The `--plot` path cannot take the chart (one-line message naming the fix)."""


def check_plot_path(path: Path, option: str = "--plot") -> str:
    """Check, before anything is resolved or written, that the chart can be written to `path`.

    Args:
        path: where the chart goes.
        option: the command-line option that named it, as the messages say it.

    Returns:
        The file format, from the file name's ending (`png`).

    Raises:
        PlotPathError: `path` is a directory, has no supported ending, or its folder is
            missing or not writable.
    """
    if path.is_dir():
        raise PlotPathError(f"{option} {path}: is a directory; give a file name ending .png")
    fmt = path.suffix.lower().removeprefix(".")
    if fmt not in FORMATS:
        ending = f"'{path.suffix}' is not a chart format" if path.suffix else "has no file ending"
        raise PlotPathError(f"{option} {path}: {ending}; give a file name ending .png (or .svg, .pdf)")
    folder = path.parent
    if not folder.is_dir():
        raise PlotPathError(f"{option} {path}: cannot write (no folder {folder}); give a writable .png path")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise PlotPathError(f"{option} {path}: cannot write (permission denied); give a writable .png path")
    return fmt


def write_plot(path: Path, spec: Any, resolution: Any) -> int:
    """Draw every candidate (hours, USD per job), the Pareto front and the choice to `path`.

    The format follows the file name's ending (see `FORMATS`; call `check_plot_path` first).

    Returns:
        The number of points drawn.

    Raises:
        OSError: the file cannot be written.
    """
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    every = resolution.candidates
    front = pareto_front(every)
    figure, axes = plt.subplots(figsize=(9, 5.5))
    by_provider: dict[str, list] = {}
    for c in every:
        by_provider.setdefault(c.offering.provider, []).append(c)
    for provider, points in sorted(by_provider.items()):
        axes.scatter([c.hours for c in points], [c.usd_total for c in points], s=14, alpha=0.45, label=provider)
    axes.plot(
        [c.hours for c in front],
        [c.usd_total for c in front],
        "k-",
        lw=1.2,
        marker="o",
        ms=4,
        label="Pareto front (no faster and cheaper option)",
    )
    choice = resolution.choice.candidate
    axes.scatter(
        [choice.hours],
        [choice.usd_total],
        s=140,
        marker="*",
        color="crimson",
        zorder=5,
        label=f"choice: {choice.offering.instance_type} {choice.purchase}",
    )
    if spec.deadline_hours:
        axes.axvline(spec.deadline_hours, color="grey", ls="--", lw=1, label=f"deadline {spec.deadline_hours:g} h")
    axes.set_xlabel("job hours")
    axes.set_ylabel("USD per job")
    axes.set_title(f"{spec.name}: {len(every)} candidates")
    axes.grid(alpha=0.3)
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=110, format=path.suffix.lower().removeprefix(".") or "png")
    plt.close(figure)
    return len(every)
