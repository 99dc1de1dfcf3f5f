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
from trainstack.usage_errors import OneLineUsageErrors

# trainstack uses no pydantic plugins; skipping their entry-point scan keeps `resolve` fast.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__.splitlines()[0], cls=OneLineUsageErrors)
catalog_app = typer.Typer(no_args_is_help=True, help="Inspect the price catalog.")
app.add_typer(catalog_app, name="catalog")


def fail(message: str) -> None:
    """Print `error: message` on stderr and exit 2."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code=2)


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
    from profiles.resolver import NoMatchError
    from profiles.resolver import resolve as run_resolve
    from profiles.spec import SpecError, load_spec

    _check_outputs(plot, write_stack)  # before anything is resolved or written
    try:
        spec = load_spec(workload)
        catalog = load_catalog(providers=spec.providers or None)
        if not catalog.offerings and catalog.left_out:
            fail(_left_out_message(catalog))
        resolution = run_resolve(spec, catalog.offerings, top=top)
    except NoMatchError as exc:
        fail(f"{exc}{_left_out_hint(catalog)}")
    except (SpecError, CatalogError) as exc:
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


@catalog_app.command("info")
def catalog_info() -> None:
    """Show the catalog version, sources and offering counts."""
    from profiles.catalog.loader import DATA_DIR, CatalogError, load_catalog
    from trainstack.catalog_view import catalog_sources

    try:
        catalog = load_catalog(DATA_DIR)
    except CatalogError as exc:
        fail(str(exc))
    render.catalog_summary(catalog)
    for line in catalog_sources(catalog, DATA_DIR):
        typer.echo(line)


@catalog_app.command("set-rate")
def catalog_set_rate(
    currency: str = typer.Argument(..., help="ISO currency code, e.g. CNY (lowercase is accepted and upper-cased)."),
    per_usd: float = typer.Argument(..., help="Units of the currency per 1 USD, e.g. 7.12."),
    as_of: str = typer.Option(..., "--as-of", help="Date the rate applies to, YYYY-MM-DD (at most 1 day ahead)."),
    source: str = typer.Option(..., "--source", help="Where the rate comes from."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help="Catalog folder; default the installed one."),
    force: bool = typer.Option(False, "--force", help="Replace a recorded rate dated later than --as-of."),
) -> None:
    """Record an exchange rate so offerings listed in that currency compare in USD."""
    from profiles.catalog.loader import DATA_DIR
    from profiles.catalog.rates import RateError, describe, previous_rate, set_rate

    currency, folder = currency.strip().upper(), data_dir or DATA_DIR
    try:
        before = previous_rate(folder, currency)
        entry = set_rate(folder, currency, per_usd, as_of, source, force=force)
    except RateError as exc:
        fail(str(exc))
    recorded = describe(currency, entry)
    typer.echo(f"recorded {recorded}")
    if before and before != recorded:
        typer.echo(f"replaced {before}")


@catalog_app.command("refresh-rate")
def catalog_refresh_rate(
    currency: str = typer.Argument("CNY", help="Currency to fetch, CNY (lowercase is accepted); CFETS quotes no other."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help="Catalog folder; default the installed one."),
) -> None:
    """Fetch the latest CFETS USD/CNY central parity (chinamoney.com.cn) and record it as `set-rate` does.

    A recorded rate dated after CFETS's latest is kept.
    """
    from profiles.catalog.fetchers import FetchError
    from profiles.catalog.loader import DATA_DIR
    from profiles.catalog.rates import KeptRate, RateError, describe, previous_rate, refresh_rate

    currency, folder = currency.strip().upper(), data_dir or DATA_DIR
    try:
        before = previous_rate(folder, currency)
        entry = refresh_rate(folder, currency)
    except (FetchError, RateError) as exc:
        fail(str(exc))
    if isinstance(entry, KeptRate):
        typer.echo(f"kept {describe(currency, entry)}; CFETS's latest is {entry.latest} "
                   f"({entry.latest_per_usd:g} {currency} per USD)")
        return
    recorded = describe(currency, entry)
    typer.echo(f"recorded {recorded}")
    if before and before != recorded:
        typer.echo(f"replaced {before}")


@catalog_app.command("refresh")
def catalog_refresh(
    provider: str = typer.Option(..., "--provider", help="Cloud to refresh: aws, azure, gcp, alicloud, tencentcloud, huaweicloud, volcengine or baiducloud."),
    regions: Optional[str] = typer.Option(None, "--regions", help="Comma-separated regions; default all."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help="Catalog folder; default the installed one."),
    top: int = typer.Option(5, "--top", min=1, help="How many of the largest price moves to show."),
) -> None:
    """Refresh one cloud's offerings and prices from its live APIs, then show what changed."""
    from profiles.catalog.fetchers import FetchError
    from profiles.catalog.loader import DATA_DIR, CatalogError
    from profiles.catalog.refresh import refresh
    from trainstack import live_view

    names = [r.strip() for r in regions.split(",") if r.strip()] if regions else None
    if regions is not None and not names:
        fail("--regions: give region names separated by commas, e.g. us-east-1,us-west-2")
    try:
        with live_view.progress_bar(provider) as progress:
            summary = refresh(provider, names, data_dir or DATA_DIR, progress, top=top)
    except (FetchError, CatalogError) as exc:
        fail(str(exc))
    live_view.refresh_summary(summary)
    note = _rate_after_refresh(provider, data_dir or DATA_DIR)
    if note:
        typer.echo(note)


def _rate_after_refresh(provider: str, data_dir: Path, today=None) -> str:
    """After a refresh of a cloud priced in CNY with no usable USD/CNY rate, fetch one (CFETS).

    Returns the line to print ("" when nothing was needed). A failed fetch only warns:
    the prices are refreshed either way. `today` (a `datetime.date`, default today) is the
    day the rate's age is measured from.
    """
    from profiles.catalog.fetchers import FetchError
    from profiles.catalog.loader import CatalogError, load_catalog
    from profiles.catalog.rates import RateError, refresh_rate

    try:
        left_out = load_catalog(data_dir, providers=(provider,), today=today).left_out
    except CatalogError:
        return ""
    if "CNY" not in left_out:
        return ""
    try:
        entry = refresh_rate(data_dir, "CNY", today=today)
    except (FetchError, RateError) as exc:
        return (f"note: {provider} prices are in CNY and no current USD/CNY rate is recorded; fetching one failed "
                f"({exc}); run `trainstack catalog refresh-rate` later or record one with `catalog set-rate`")
    return f"USD/CNY rate: recorded 1 USD = {entry['per_usd']} CNY as of {entry['as_of']} ({entry['source']})"


@app.command()
def check(stack: str = typer.Option(..., "-s", "--stack", help="Stack name: reads stacks/Pulumi.STACK.yaml.")) -> None:
    """Preflight a stack before `pulumi up`: the component's own checks, then zone offering and
    quota (exit 1 if a check fails)."""
    from profiles.catalog.loader import CatalogError, load_catalog
    from profiles.preflight import PreflightError, preflight, read_cluster
    from profiles.stack_writer import StackWriteError, stack_path
    from trainstack import live_view

    try:
        cluster = read_cluster(stack_path(project_dir(), stack))
        items = preflight(cluster, catalog_version=load_catalog(providers=(cluster.provider,)).version, name=stack)
    except (PreflightError, StackWriteError, CatalogError) as exc:
        fail(str(exc))
    live_view.findings(stack, items)
    if any(item.status == "fail" for item in items):
        raise typer.Exit(code=1)
