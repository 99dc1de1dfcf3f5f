"""The `trainstack` command line: `resolve`, `plan`, `check` and `catalog`.

A thin layer: it parses, calls the resolver / plan runner, and prints. Errors the user can
fix print one line on stderr and exit with status 2, never a traceback. Pulumi is imported
only by `plan`, so `resolve` stays fast.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Optional

import typer

from trainstack import render
from trainstack.bench_cli import bench_app
from trainstack.catalog_cli import catalog_app
from trainstack.usage_errors import OneLineUsageErrors, fail

# trainstack uses no pydantic plugins; skipping their entry-point scan keeps `resolve` fast.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__.splitlines()[0], cls=OneLineUsageErrors)
app.add_typer(catalog_app, name="catalog")
app.add_typer(bench_app, name="bench")


PROJECT_HELP = "The trainstack project (holds Pulumi.yaml and stacks/); default: found from here upwards."


def project_dir(given: Optional[Path] = None) -> Path:
    """The project folder (`trainstack.project.find_project`); a miss is a one-line error."""
    from trainstack.project import ProjectError, find_project

    try:
        return find_project(given)
    except ProjectError as exc:
        fail(str(exc))
        raise  # unreachable: fail exits


@app.command()
def resolve(
    workload: Path = typer.Argument(..., help="Workload spec YAML, e.g. profiles/workloads/training-a100.yaml."),
    top: int = typer.Option(5, "--top", min=1, help="How many ranked candidates to show."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
    write_stack: Optional[str] = typer.Option(None, "--write-stack", help="Write stacks/Pulumi.NAME.yaml."),
    force: bool = typer.Option(False, "--force", help="Overwrite a hand-edited stack file."),
    plot: Optional[Path] = typer.Option(None, "--plot", help="Write a cost-vs-time chart (PNG) here."),
    project: Optional[Path] = typer.Option(None, "--project-dir", help=PROJECT_HELP),
) -> None:
    """Pick the cheapest offering for WORKLOAD and explain the ranking."""
    from profiles.catalog.loader import CatalogError, load_catalog
    from profiles.resolver import NoMatchError
    from profiles.resolver import resolve as run_resolve
    from profiles.spec import SpecError, load_spec

    folder = project_dir(project) if write_stack is not None else None
    _check_outputs(plot, write_stack, folder)  # before anything is resolved or written
    try:
        spec = load_spec(workload)
        catalog = load_catalog(providers=spec.providers or None)
        if not catalog.offerings and catalog.left_out:
            fail(_left_out_message(catalog))
        resolution = run_resolve(spec, catalog.offerings, top=top)
    except NoMatchError as exc:
        fail(f"{exc}{_left_out_hint(catalog, spec)}")
    except (SpecError, CatalogError) as exc:
        fail(str(exc))
    if catalog.left_out and (spec.providers or spec.jurisdiction == "cn-mainland"):
        typer.echo(f"note: {_left_out_message(catalog)}", err=True)
    # The stack first: it is the write that can be refused (hand-edited), and then no chart is left behind.
    written = _write_stack(write_stack, spec, resolution, catalog, workload, force, folder) if write_stack is not None else ""
    plotted = _write_plot(plot, spec, resolution) if plot is not None else ""
    if as_json:
        typer.echo(json.dumps(render.resolution_json(resolution, catalog.version), indent=2))
    else:
        render.resolution_table(spec, resolution, catalog.version)
    for line in (_rounded(spec, resolution.choice.candidate.offering.provider), written, plotted):
        if line:
            typer.echo(line, err=as_json)


def _rounded(spec, provider: str) -> str:
    """The line saying the chosen cloud rounds the file system up, or "" (see `rounding_note`)."""
    if spec.file_system is None:
        return ""
    import math

    from clouds.contract import FileSystemConfig
    from clouds.filesystems import rounding_note

    fs = spec.file_system
    return rounding_note(provider, FileSystemConfig(capacity_gib=math.ceil(fs.capacity_gib),
                                                    throughput_mbps_per_tib=fs.throughput_mbps_per_tib))


def _left_out_message(catalog) -> str:
    currency, count = sorted(catalog.left_out.items())[0]
    return (f"catalog: {count} offerings are listed in {currency} and left out of USD comparisons: "
            f"{catalog.left_out_reason(currency)}")


def _left_out_hint(catalog, spec) -> str:
    """`; N offerings listed in CUR that would fit are left out: why` per currency, or "" when
    no left-out offering could have fitted the spec (then the rate is not the problem)."""
    if not catalog.left_out:
        return ""
    from profiles.left_out import fitting, unpriced_rows

    counts = fitting(spec, unpriced_rows(catalog.left_out, spec.providers or _all_providers()))
    return "".join(f"; {count} {'offering' if count == 1 else 'offerings'} listed in {currency} that would fit "
                   f"{'is' if count == 1 else 'are'} left out: {catalog.left_out_reason(currency)}"
                   for currency, count in sorted(counts.items()))


def _all_providers() -> tuple[str, ...]:
    from profiles.catalog.loader import PROVIDERS

    return PROVIDERS


def _check_outputs(plot: Optional[Path], write_stack: Optional[str], folder: Optional[Path]) -> None:
    """Refuse a `--plot` path or `--write-stack` name that cannot be written (one line, exit 2)."""
    if plot is not None:
        from trainstack.plot import PlotPathError, check_plot_path

        try:
            check_plot_path(plot)
        except PlotPathError as exc:
            fail(str(exc))
    if write_stack is not None:
        from profiles.stack_writer import StackWriteError, stack_path

        try:
            stack_path(folder, write_stack)
        except StackWriteError as exc:
            fail(str(exc))


def _write_plot(path: Path, spec, resolution) -> str:
    from trainstack.plot import write_plot

    try:
        points = write_plot(path, spec, resolution)
    except OSError as exc:
        fail(f"--plot {path}: cannot write ({exc.strerror}); give a writable .png path")
    return f"plot written: {path} ({points} candidates)"


def _write_stack(name, spec, resolution, catalog, workload: Path, force: bool, folder: Path) -> str:
    from profiles.stack_writer import StackWriteError, cluster_config, keep_zone, kept_settings, render_stack
    from profiles.stack_writer import stack_path
    from profiles.stack_writer import write_stack as write

    try:
        path = stack_path(folder, name)
        config = keep_zone(cluster_config(spec, resolution.choice.candidate, catalog.version), path)
        text = render_stack(config, _relative(workload, folder), catalog.built, resolution.choice.candidate.usd_storage,
                            kept_settings(path))
        changed = write(path, text, force=force)
    except StackWriteError as exc:
        fail(str(exc))
    return f"stack {'written' if changed else 'unchanged'}: {path}"


def _relative(path: Path, folder: Path) -> str:
    try:
        return str(path.resolve().relative_to(folder.resolve()))
    except ValueError:
        return str(path)


@app.command()
def plan(
    stack: str = typer.Option(..., "-s", "--stack", help="Stack name: reads stacks/Pulumi.STACK.yaml."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a tree."),
    markdown: bool = typer.Option(False, "--markdown", help="Print a pull-request comment: changes, cost, policies."),
    against: Optional[str] = typer.Option(None, "--against", help="Git revision to diff with, e.g. origin/main."),
    project: Optional[Path] = typer.Option(None, "--project-dir", help=PROJECT_HELP),
) -> None:
    """Run the Pulumi program offline under Pulumi's mocks and show every resource."""
    from trainstack.plan import PlanError, run_plan

    if against is not None and not against.strip():
        fail("--against: give a git revision such as origin/main or HEAD~1")
    folder = project_dir(project)
    if markdown or against:
        _review(stack, against, markdown, as_json, folder)
        return
    from policies import evaluate
    from trainstack.review import stack_budget

    try:
        result = run_plan(stack, folder)
        limit = stack_budget(folder / "stacks" / f"Pulumi.{stack}.yaml")
    except PlanError as exc:
        fail(str(exc))
    policies = evaluate(result.resources, result.budget_usd_per_hour, limit)
    if as_json:
        typer.echo(json.dumps(render.plan_json(result, policies), indent=2, default=str))
    else:
        render.plan_tree(stack, result)
        render.policy_summary(policies)
        _plan_rounding(folder / "stacks" / f"Pulumi.{stack}.yaml")


def _plan_rounding(path: Path) -> None:
    """Say when the stack's file system is created larger than the capacity it asks for."""
    from clouds.filesystems import rounding_note
    from profiles.stack_file import read_cluster

    cluster = read_cluster(path)[1]  # already read and validated by the plan
    if cluster.file_system is not None:
        note = rounding_note(cluster.provider, cluster.file_system)
        if note:
            typer.echo(note)


def _review(stack: str, against: Optional[str], markdown: bool, as_json: bool, folder: Path) -> None:
    """`plan --markdown` / `--against`: the review as a PR comment (or `--json`, same data)."""
    from trainstack.markdown import review_markdown
    from trainstack.plan import PlanError
    from trainstack.review import build_review

    if markdown and as_json:
        fail("--markdown and --json print the same review; choose one")
    try:
        review = build_review(stack, folder, against)
    except PlanError as exc:
        fail(str(exc))
    typer.echo(json.dumps(review, indent=2) if as_json else review_markdown(review), nl=as_json)


@app.command()
def check(
    stack: str = typer.Option(..., "-s", "--stack", help="Stack name: reads stacks/Pulumi.STACK.yaml."),
    project: Optional[Path] = typer.Option(None, "--project-dir", help=PROJECT_HELP),
) -> None:
    """Preflight a stack before `pulumi up`: the component's own checks, then zone offering and
    quota (exit 1 if a check fails)."""
    from profiles.catalog.loader import CatalogError, load_catalog
    from profiles.preflight import PreflightError, preflight, read_cluster
    from profiles.stack_writer import StackWriteError, stack_path
    from trainstack import live_view

    from trainstack.plan import PlanError
    from trainstack.review import stack_budget

    try:
        path = stack_path(project_dir(project), stack)
        cluster = read_cluster(path)
        stack_budget(path)  # a budget `plan` and the policy pack would refuse
        items = preflight(cluster, catalog_version=load_catalog(providers=(cluster.provider,)).version, name=stack)
    except PreflightError as exc:
        if exc.findings:  # offline findings first, then why the live checks did not run
            live_view.findings(stack, exc.findings)
        fail(f"live checks did not run: {exc}" if exc.findings else str(exc))
    except (StackWriteError, CatalogError, PlanError) as exc:
        fail(str(exc))
    live_view.findings(stack, items)
    if any(item.status == "fail" for item in items):
        raise typer.Exit(code=1)
