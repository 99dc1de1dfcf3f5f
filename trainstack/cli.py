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


def project_dir() -> Path:
    """The nearest folder at or above the working directory holding Pulumi.yaml (else cwd)."""
    here = Path.cwd()
    return next((d for d in (here, *here.parents) if (d / "Pulumi.yaml").exists()), here)


@app.command()
def resolve(
    workload: Path = typer.Argument(..., help="Workload spec YAML, e.g. profiles/workloads/training-a100.yaml."),
    top: int = typer.Option(5, "--top", min=1, help="How many ranked candidates to show."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
    write_stack: Optional[str] = typer.Option(None, "--write-stack", help="Write stacks/Pulumi.NAME.yaml."),
    force: bool = typer.Option(False, "--force", help="Overwrite a hand-edited stack file."),
    plot: Optional[Path] = typer.Option(None, "--plot", help="Write a cost-vs-time chart (PNG) here."),
) -> None:
    """Pick the cheapest offering for WORKLOAD and explain the ranking."""
    from profiles.catalog.loader import CatalogError, load_catalog
    from profiles.measurements.speeds import use_measurements
    from profiles.measurements.store import StoreError, load_store
    from profiles.resolver import NoMatchError
    from profiles.resolver import resolve as run_resolve
    from profiles.spec import SpecError, load_spec

    _check_outputs(plot, write_stack)  # before anything is resolved or written
    try:
        spec = load_spec(workload)
        use_measurements(spec, load_store(project_dir()) if spec.work else ())  # trainstack bench: measured speeds
        catalog = load_catalog(providers=spec.providers or None)
        if not catalog.offerings and catalog.left_out:
            fail(_left_out_message(catalog))
        resolution = run_resolve(spec, catalog.offerings, top=top)
    except NoMatchError as exc:
        fail(f"{exc}{_left_out_hint(catalog)}")
    except (SpecError, CatalogError, StoreError) as exc:
        fail(str(exc))
    if catalog.left_out and (spec.providers or spec.jurisdiction == "cn-mainland"):
        typer.echo(f"note: {_left_out_message(catalog)}", err=True)
    # The stack first: it is the write that can be refused (hand-edited), and then no chart is left behind.
    written = _write_stack(write_stack, spec, resolution, catalog, workload, force) if write_stack is not None else ""
    plotted = _write_plot(plot, spec, resolution) if plot is not None else ""
    if as_json:
        typer.echo(json.dumps(render.resolution_json(resolution, catalog.version), indent=2))
    else:
        render.resolution_table(spec, resolution, catalog.version)
    for line in (written, plotted):
        if line:
            typer.echo(line, err=as_json)


def _left_out_message(catalog) -> str:
    currency, count = sorted(catalog.left_out.items())[0]
    return (f"catalog: {count} offerings are listed in {currency} and left out of USD comparisons: "
            f"{catalog.left_out_reason(currency)}")


def _left_out_hint(catalog) -> str:
    """`; N offerings listed in CUR are left out: why` per currency, or "" when none are."""
    return "".join(f"; {count} offerings listed in {currency} are left out: {catalog.left_out_reason(currency)}"
                   for currency, count in sorted(catalog.left_out.items()))


def _check_outputs(plot: Optional[Path], write_stack: Optional[str]) -> None:
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
            stack_path(project_dir(), write_stack)
        except StackWriteError as exc:
            fail(str(exc))


def _write_plot(path: Path, spec, resolution) -> str:
    from trainstack.plot import write_plot

    try:
        points = write_plot(path, spec, resolution)
    except OSError as exc:
        fail(f"--plot {path}: cannot write ({exc.strerror}); give a writable .png path")
    return f"plot written: {path} ({points} candidates)"


def _write_stack(name, spec, resolution, catalog, workload: Path, force: bool) -> str:
    from profiles.stack_writer import StackWriteError, cluster_config, keep_zone, kept_settings, render_stack
    from profiles.stack_writer import stack_path
    from profiles.stack_writer import write_stack as write

    try:
        path = stack_path(project_dir(), name)
        config = keep_zone(cluster_config(spec, resolution.choice.candidate, catalog.version), path)
        text = render_stack(config, _relative(workload), catalog.built, resolution.choice.candidate.usd_storage,
                            kept_settings(path))
        changed = write(path, text, force=force)
    except StackWriteError as exc:
        fail(str(exc))
    return f"stack {'written' if changed else 'unchanged'}: {path}"


def _relative(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(project_dir().resolve()))
    except ValueError:
        return str(path)


@app.command()
def plan(
    stack: str = typer.Option(..., "-s", "--stack", help="Stack name: reads stacks/Pulumi.STACK.yaml."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a tree."),
    markdown: bool = typer.Option(False, "--markdown", help="Print a pull-request comment: changes, cost, policies."),
    against: Optional[str] = typer.Option(None, "--against", help="Git revision to diff with, e.g. origin/main."),
) -> None:
    """Run the Pulumi program offline under Pulumi's mocks and show every resource."""
    from trainstack.plan import PlanError, run_plan

    if against is not None and not against.strip():
        fail("--against: give a git revision such as origin/main or HEAD~1")
    if markdown or against:
        _review(stack, against, markdown, as_json)
        return
    from policies import evaluate
    from trainstack.review import stack_budget

    try:
        result = run_plan(stack, project_dir())
        limit = stack_budget(project_dir() / "stacks" / f"Pulumi.{stack}.yaml")
    except PlanError as exc:
        fail(str(exc))
    policies = evaluate(result.resources, result.budget_usd_per_hour, limit)
    if as_json:
        typer.echo(json.dumps(render.plan_json(result, policies), indent=2, default=str))
    else:
        render.plan_tree(stack, result)
        render.policy_summary(policies)


def _review(stack: str, against: Optional[str], markdown: bool, as_json: bool) -> None:
    """`plan --markdown` / `--against`: the review as a PR comment (or `--json`, same data)."""
    from trainstack.markdown import review_markdown
    from trainstack.plan import PlanError
    from trainstack.review import build_review

    if markdown and as_json:
        fail("--markdown and --json print the same review; choose one")
    try:
        review = build_review(stack, project_dir(), against)
    except PlanError as exc:
        fail(str(exc))
    typer.echo(json.dumps(review, indent=2) if as_json else review_markdown(review), nl=as_json)


@app.command()
def check(stack: str = typer.Option(..., "-s", "--stack", help="Stack name: reads stacks/Pulumi.STACK.yaml.")) -> None:
    """Preflight a stack before `pulumi up`: the component's own checks, then zone offering and
    quota (exit 1 if a check fails)."""
    from profiles.catalog.loader import CatalogError, load_catalog
    from profiles.preflight import PreflightError, preflight, read_cluster
    from profiles.stack_writer import StackWriteError, stack_path
    from trainstack import live_view

    from trainstack.plan import PlanError
    from trainstack.review import stack_budget

    try:
        path = stack_path(project_dir(), stack)
        cluster = read_cluster(path)
        stack_budget(path)  # a budget `plan` and the policy pack would refuse
        items = preflight(cluster, catalog_version=load_catalog(providers=(cluster.provider,)).version, name=stack)
    except (PreflightError, StackWriteError, CatalogError, PlanError) as exc:
        fail(str(exc))
    live_view.findings(stack, items)
    if any(item.status == "fail" for item in items):
        raise typer.Exit(code=1)
