"""`trainstack resolve`, the command itself, without typer: `trainstack.entry` runs it
directly (the fast path) and the typer command in `trainstack.cli.app` calls it too.

It parses nothing: it takes the options' values, resolves, prints, and writes the stack
or the chart. Errors the user can fix print one `error:` line on stderr and exit 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from trainstack.cli import render
from trainstack.cli.resolve_hints import left_out_hint, left_out_message, platform_hint


def echo(text: str, err: bool = False) -> None:
    """Print one line on stdout (or stderr)."""
    print(text, file=sys.stderr if err else sys.stdout)


def fail(message: str) -> None:
    """Print `error: message` on stderr, on one line, and exit 2 (as `trainstack.cli.usage_errors.fail`)."""
    from profiles.short_text import one_line as short

    echo(f"error: {short(message, limit=None)}", err=True)
    raise SystemExit(2)


def run(
    workload: Path,
    top: int = 5,
    as_json: bool = False,
    write_stack: str | None = None,
    force: bool = False,
    plot: Path | None = None,
    project: Path | None = None,
    zone: str | None = None,
    live: bool = False,
) -> None:
    """Pick the cheapest offering for `workload`, print the ranking, write what was asked.

    Args:
        workload: the workload spec YAML.
        top: how many ranked candidates to show (at least 1).
        as_json: print JSON instead of a table.
        write_stack: a stack name to write (`stacks/Pulumi.NAME.yaml` in the project).
        force: overwrite a hand-edited stack file.
        plot: a chart path to write.
        project: `--project-dir`, or None to find the project upwards.
        zone: `--zone`: the zone id to write for a pick priced per region, or None.
        live: `--live`: read the clouds' spot capacity answers for the rows and rank with them
            (`trainstack.cli.resolve_live`); without credentials one line says so and the ranking is offline.
    """
    from clouds.clock import ClockError
    from profiles.catalog.loader import CatalogError, load_catalog
    from profiles.explain import WorkloadFieldError
    from profiles.files import shown_name
    from profiles.measurements import StoreError
    from profiles.measurements.speeds import use_store
    from profiles.resolver import NoMatchError
    from profiles.resolver import resolve as run_resolve
    from profiles.spec import SpecError, load_spec

    if zone is not None and write_stack is None:
        fail(f"--zone {zone}: only with --write-stack NAME (it is the zone written into the stack)")
    folder = project_dir(project) if write_stack is not None else None
    _check_outputs(plot, write_stack, folder)  # before anything is resolved or written
    try:
        spec = load_spec(workload)
        use_store(spec, _measured_in(project))  # trainstack bench: measured / published speeds
        catalog = load_catalog(providers=spec.providers or None)
        if not catalog.offerings and catalog.left_out:
            fail(left_out_message(catalog))
        rows = catalog.offerings + (catalog.platform_rows if spec.platform != "vm" else ())
        resolution = run_resolve(spec, rows, top=top)
        said: list[str] = []  # `--live`: what was read, or why not
        if live:
            from trainstack.cli.resolve_live import live_ranking

            resolution, said = live_ranking(spec, rows, top, resolution)
    except WorkloadFieldError as exc:  # a field of the workload file: name the file, as SpecError does
        fail(f"{shown_name(workload)}: {exc}{platform_hint(catalog, spec)}{left_out_hint(catalog, spec)}")
    except NoMatchError as exc:  # the workload asks for what no offering has: name its file too
        fail(f"{shown_name(workload)}: {exc}{platform_hint(catalog, spec)}{left_out_hint(catalog, spec)}")
    except (SpecError, CatalogError, StoreError, ClockError) as exc:
        fail(str(exc))
    note = (
        f"note: {left_out_message(catalog)}"
        if catalog.left_out and (spec.providers or spec.jurisdiction == "cn-mainland")
        else ""
    )
    if note:
        echo(note, err=True)
    for line in said:  # what was read live, or why not (then the ranking is offline)
        echo(line, err=True)
    # The stack first: it is the write that can be refused (hand-edited), and then no chart is left behind.
    written = (
        _write_stack(write_stack, spec, resolution, catalog, workload, force, folder, zone)
        if write_stack is not None and folder is not None
        else ""
    )
    plotted = _write_plot(plot, spec, resolution) if plot is not None else ""
    rounded, warnings = (
        _rounded(spec, resolution.choice.candidate.offering.provider),
        _warnings(spec, resolution, catalog),
    )
    if as_json:  # the JSON carries every line the table would say beside it (they go to stderr too)
        said = [line for line in (note, *said, rounded, *warnings) if line]
        echo(json.dumps({**render.resolution_json(resolution, catalog.version), "warnings": said}, indent=2))
    else:
        render.resolution_table(spec, resolution, catalog.version)
    for line in (rounded, written, plotted):
        if line:
            echo(line, err=as_json)
    for line in warnings:
        echo(line, err=True)


def _warnings(spec, resolution, catalog) -> list[str]:
    """The warnings `resolve` prints on stderr after the table: the checkpoint and node-range
    warnings, then one line per shown cloud whose prices are old or undated."""
    from profiles.explain import checkpoint_warning, node_range_warning

    lines = [warning(spec, resolution.choice.candidate) for warning in (checkpoint_warning, node_range_warning)]
    shown = tuple(dict.fromkeys(r.candidate.offering.provider for r in (resolution.choice, *resolution.alternatives)))
    return [line for line in lines if line] + catalog.price_warnings(shown)


def project_dir(given: Path | None = None) -> Path:
    """The project folder (`trainstack.cli.project.find_project`); a miss is a one-line error."""
    from trainstack.cli.project import ProjectError, find_project

    try:
        return find_project(given)
    except ProjectError as exc:
        fail(str(exc))
        raise  # unreachable: fail exits


def _measured_in(project: Path | None) -> Path | None:
    """The project whose measurement store resolve reads: `--project-dir` (which must be a
    project), else the one found upwards, else None (published measurements only)."""
    from trainstack.cli.project import ProjectError, find_project

    if project is not None:
        return project_dir(project)
    try:
        return find_project()
    except ProjectError:
        return None


def _rounded(spec, provider: str) -> str:
    """The line saying the chosen cloud rounds the file system up, or "" (see `rounding_note`)."""
    if spec.file_system is None:
        return ""
    import math

    from clouds.filesystems import FileSystemAsk, rounding_note

    fs = spec.file_system
    return rounding_note(provider, FileSystemAsk(math.ceil(fs.capacity_gib), fs.throughput_mbps_per_tib))


def _check_outputs(plot: Path | None, write_stack: str | None, folder: Path | None) -> None:
    """Refuse a `--plot` path or `--write-stack` name that cannot be written (one line, exit 2)."""
    if plot is not None:
        from trainstack.cli.plot import PlotPathError, check_plot_path

        try:
            check_plot_path(plot)
        except PlotPathError as exc:
            fail(str(exc))
    if write_stack is not None and folder is not None:
        from profiles.stack.writer import StackWriteError, stack_path

        try:
            stack_path(folder, write_stack)
        except StackWriteError as exc:
            fail(str(exc))


def _write_plot(path: Path, spec, resolution) -> str:
    from trainstack.cli.plot import write_plot

    try:
        points = write_plot(path, spec, resolution)
    except OSError as exc:
        fail(f"--plot {path}: cannot write ({exc.strerror}); give a writable .png path")
    return f"plot written: {path} ({points} candidates)"


def _write_stack(name, spec, resolution, catalog, workload: Path, force: bool, folder: Path, zone: str | None) -> str:
    from profiles.stack.fallbacks import fallback_rows, roomiest_copy
    from profiles.stack.writer import (
        StackWriteError,
        cluster_config,
        keep_cluster_settings,
        keep_zone,
        kept_settings,
        render_stack,
        stack_path,
    )
    from profiles.stack.writer import write_stack as write

    choice = roomiest_copy(
        resolution.choice.candidate, resolution.choice.also_zones, resolution.movable, spec.interconnect
    )
    if resolution.deadline_met is False and not force:
        fail(
            f"--write-stack: no offering meets the {spec.deadline_hours:g} h deadline (the choice takes "
            f"{choice.hours:,.1f} h); {resolution.to_meet}; or pass --force to write it anyway"
        )
    from profiles.cost.cluster_cost import usd_per_cny

    try:
        path = stack_path(folder, name)
        ranked = resolution.movable  # a fallback meets the deadline when the pick does
        # `--zone` corrects a zone the stack already names, the region's own name (Azure's regional
        # placement) included; the stack's zone is kept only without one
        picked = cluster_config(spec, choice, catalog.version, ranked)
        config, kept = keep_cluster_settings(
            _zoned(picked, zone) if zone is not None else keep_zone(picked, path), path
        )
        rate = usd_per_cny(choice.offering)
        on_demand = choice.offering.on_demand_usd_per_hour
        on_demand = None if on_demand is None else on_demand * choice.nodes
        rows = fallback_rows(choice, ranked, spec.interconnect, config.file_system is not None)
        text = render_stack(
            config, _relative(workload, folder), catalog.built, rate, kept_settings(path), on_demand, rows
        )
        changed = write(path, text, force=force)
    except StackWriteError as exc:
        per_region = zone is None and choice.offering.zone == choice.offering.region and "zone:" in str(exc)
        fail(f"{exc}; pass --zone ZONE with --write-stack" if per_region else str(exc))
    except ValueError as exc:  # the stack's cluster refuses what the workload let through: one line
        fail(f"{_relative(workload, folder)}: --write-stack {name}: {_first_problem(exc)}")
    note = f" (kept its own {', '.join(kept)}; YAML comments are not kept)" if kept and changed else ""
    return f"stack {'written' if changed else 'unchanged'}: {path}{note}"


def _zoned(config, zone: str | None):
    """`config` with the `--zone` given, for a pick priced per region (zone == region); a pick
    priced in its own zone refuses another (one line, exit 2)."""
    if zone is None:
        return config
    if config.zone != config.region:
        fail(f"--zone {zone}: the pick is priced in its own zone {config.zone}; drop --zone")
    return config.model_copy(update={"zone": zone.strip()})


def _first_problem(exc: ValueError) -> str:
    """The first problem of a refused cluster config, as `field: message` on one line."""
    from pydantic import ValidationError  # only on this error path

    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        return f"{'.'.join(map(str, first['loc']))}: {first['msg'].removeprefix('Value error, ')}"
    return str(exc).splitlines()[0]


def _relative(path: Path, folder: Path) -> str:
    """The workload as the stack's header names it: relative to the project (`../w.yaml` for one
    beside it), never an absolute path of the author's machine; `-` for standard input. A path
    that is in the project as typed (`..` folded, symlinks not followed) is named so: a link in
    the project (`w/team.yaml -> /shared/team.yaml`) is the name a teammate's clone has, the
    file it points to is not; other paths are named by the file they lead to."""
    import os

    if str(path) == "-":
        return "-"
    root = folder.resolve()
    try:
        typed = os.path.relpath(os.path.abspath(path), root)
        if typed != ".." and not typed.startswith(f"..{os.sep}"):
            return Path(typed).as_posix()
        return Path(os.path.relpath(path.resolve(), root)).as_posix()
    except ValueError:  # another drive (Windows): no relative path exists
        return path.name
