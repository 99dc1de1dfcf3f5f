"""The `trainstack` command line: `resolve`, `plan`, `up`, `run`, `check`, `catalog` and `bench`.

A thin layer: it parses, calls the resolver / plan runner, and prints. Errors print one line
on stderr, never a traceback: status 2 for input the user must fix, 1 when the input was fine
but the work failed or found a failure (`trainstack.cli.usage_errors`). Pulumi is imported
only by `plan`, so `resolve` stays fast.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import typer

from trainstack.cli import render
from trainstack.cli.bench_cli import bench_app
from trainstack.cli.catalog_cli import catalog_app
from trainstack.cli.project import PROJECT_HELP
from trainstack.cli.usage_errors import FAILED, OneLineUsageErrors, fail

# trainstack uses no pydantic plugins; skipping their entry-point scan keeps `resolve` fast.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help=__doc__.splitlines()[0],
    cls=OneLineUsageErrors,
    context_settings={"help_option_names": ["-h", "--help"]},  # inherited by every subcommand
)
app.add_typer(catalog_app, name="catalog")
app.add_typer(bench_app, name="bench")


def _show_version(wanted: bool) -> None:
    if wanted:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"trainstack {version('trainstack')}")
        except PackageNotFoundError:  # run from a source tree that was never installed
            typer.echo("trainstack (not installed: no version recorded)")
        raise typer.Exit()


@app.callback()
def main(
    _version: bool = typer.Option(
        False, "--version", callback=_show_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Pick the cheapest GPU offering for a training job and stand it up with Pulumi."""


def project_dir(given: Path | None = None) -> Path:
    """The project folder (`trainstack.cli.project.find_project`); a miss is a one-line error."""
    from trainstack.cli.resolve_cmd import project_dir as find

    return find(given)


@app.command()
def resolve(
    workload: Path = typer.Argument(
        ..., help="Workload spec YAML, e.g. profiles/workloads/training-a100.yaml; - reads standard input."
    ),
    top: int = typer.Option(5, "--top", min=1, help="How many ranked candidates to show."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
    write_stack: str | None = typer.Option(
        None, "--write-stack", metavar="NAME", help="Write stacks/Pulumi.NAME.yaml."
    ),
    zone: str | None = typer.Option(
        None, "--zone", help="With --write-stack: the zone id for a pick priced per region (Alibaba, Tencent)."
    ),
    force: bool = typer.Option(
        False, "--force", help="Overwrite a hand-edited stack file, or write one that misses the deadline."
    ),
    plot: Path | None = typer.Option(
        None, "--plot", help="Write a cost-vs-time chart here: .png, .svg or .pdf (from the name's ending)."
    ),
    project: Path | None = typer.Option(None, "--project-dir", help=PROJECT_HELP),
    live: bool = typer.Option(
        False, "--live", help="Rank spot rows with the clouds' live capacity answers (AWS, Azure; needs credentials)."
    ),
) -> None:
    """Pick the cheapest offering for WORKLOAD and explain the ranking."""
    from trainstack.cli import resolve_cmd

    resolve_cmd.run(workload, top, as_json, write_stack, force, plot, project, zone, live)


@app.command()
def offers(
    accelerator: str = typer.Argument(..., help="Accelerator as a workload names it: H100, H100:8, A100-80GB:8."),
    spot: bool = typer.Option(False, "--spot", help="Rank by spot price; hide offerings without one."),
    provider: list[str] = typer.Option(
        [], "--provider", help="Only this cloud (repeatable), as `trainstack catalog info` names it."
    ),
    region: list[str] = typer.Option([], "--region", help="Only this region (repeatable), e.g. us-east-1."),
    nodes: int = typer.Option(1, "--nodes", min=1, help="Price this many nodes (whole-cluster USD/hour)."),
    top: int = typer.Option(20, "--top", min=0, help="How many rows to show; 0 shows all."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON (keys in docs/cli.md) instead of a table."),
) -> None:
    """List the cheapest catalog offerings per hour for ACCELERATOR, no workload file needed.

    One row per cloud, region and instance type: the zones listing it, the cheapest
    on-demand and spot USD/hour over those zones (a range when they differ), and the date
    the prices were observed.
    """
    from trainstack.cli import offers_cmd

    offers_cmd.run(accelerator, spot, provider, region, nodes, top, as_json)


@app.command()
def plan(
    stack: str = typer.Option(..., "-s", "--stack", help="Stack name: reads stacks/Pulumi.STACK.yaml."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a tree."),
    markdown: bool = typer.Option(False, "--markdown", help="Print a pull-request comment: changes, cost, policies."),
    against: str | None = typer.Option(
        None, "--against", metavar="REV", help="Git revision to diff with, e.g. origin/main."
    ),
    project: Path | None = typer.Option(None, "--project-dir", help=PROJECT_HELP),
) -> None:
    """Run the Pulumi program offline under Pulumi's mocks and show every resource."""
    from trainstack.plan.runner import PlanError, run_plan

    if against is not None and not against.strip():
        fail("--against: give a git revision such as origin/main or HEAD~1")
    folder = project_dir(project)
    if markdown or against:
        _review(stack, against, markdown, as_json, folder)
        return
    from policies import evaluate
    from trainstack.review.report import refuses_oversized, size_warnings, stack_budget

    path = folder / "stacks" / f"Pulumi.{stack}.yaml"
    try:
        result = run_plan(stack, folder)
        limit, refuse = stack_budget(path), refuses_oversized(path)
    except PlanError as exc:
        fail(str(exc))
    warnings = size_warnings(path, result)  # with refuse_oversized the budget rule refuses them
    oversized = warnings if refuse else None
    policies = evaluate(result.resources, result.budget_usd_per_hour, limit, result.budget_basis, oversized)
    from profiles.stack.file import read_cluster

    cluster = read_cluster(path)[1]  # validated by the plan
    if as_json:
        data = {**render.plan_json(result, policies, stack, cluster), "warnings": warnings}
        typer.echo(json.dumps(data, indent=2, default=str))
    else:
        render.plan_tree(stack, result)
        render.policy_summary(policies)
        if note := render.rounding_line(cluster):  # the file system is created larger than asked
            typer.echo(note)
        for warned in result.program_warnings:  # what `pulumi preview` shows as the program's warnings
            typer.echo(f"warning: {warned}", err=True)
        for line in [] if refuse else warnings:  # refused, they are the budget policy's failure above
            typer.secho(line, fg="yellow")


def _review(stack: str, against: str | None, markdown: bool, as_json: bool, folder: Path) -> None:
    """`plan --markdown` / `--against`: the review as a PR comment (or `--json`, same data)."""
    from trainstack.plan.runner import PlanError
    from trainstack.review.markdown import review_markdown
    from trainstack.review.report import build_review

    if markdown and as_json:
        fail("--markdown and --json print the same review; choose one")
    try:
        review = build_review(stack, folder, against)
    except PlanError as exc:
        fail(str(exc))
    typer.echo(json.dumps(review, indent=2) if as_json else review_markdown(review), nl=as_json)


@app.command()
def run(
    stack: str = typer.Option(..., "-s", "--stack", help="Stack name: reads stacks/Pulumi.STACK.yaml."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Print the request the platform would get; send nothing."),
    as_json: bool = typer.Option(False, "--json", help="Print the submitted job as JSON."),
    project: Path | None = typer.Option(None, "--project-dir", help=PROJECT_HELP),
) -> None:
    """Submit the stack's job where its platform runs it (SageMaker, Azure ML, ...), or on a VM stack (re)start the job its nodes run.

    Prints the job's id, where its logs and checkpoints are and its expected cost. Exits 2 for a job
    the platform cannot run (one line naming the field), 1 when it refused it or credentials are missing.
    """
    from profiles.stack.writer import StackWriteError, stack_path
    from trainstack.run import MissingCredentials, RunError
    from trainstack.run.command import run as run_job

    try:
        path = stack_path(project_dir(project), stack)
        run_job(path, stack, typer.echo, dry_run=dry_run, as_json=as_json)
    except (StackWriteError, RunError) as exc:
        fail(str(exc))
    except MissingCredentials as exc:  # the job is fine; the platform cannot be reached without them
        fail(f"run: {exc}", code=FAILED)
    except Exception as exc:  # the platform's answer (HTTP or SDK error): the input was fine, the work failed
        from trainstack.cli.usage_errors import work_failed

        fail(work_failed("run", exc), code=FAILED)


@app.command()
def check(
    stack: str = typer.Option(..., "-s", "--stack", help="Stack name: reads stacks/Pulumi.STACK.yaml."),
    project: Path | None = typer.Option(None, "--project-dir", help=PROJECT_HELP),
) -> None:
    """Preflight a stack before `pulumi up`: its own checks, zone offering, quota and capacity signals.

    The stack is validated as `plan` validates it (the component's own checks included), then
    the live checks run. Exits 2 for a stack `plan` would refuse, 1 if a check fails or the
    live checks cannot run (credentials).
    """
    from profiles.catalog.loader import CatalogError, load_catalog
    from profiles.preflight.check import PreflightError, preflight, read_cluster
    from profiles.stack.writer import StackWriteError, stack_path
    from trainstack.cli import live_view
    from trainstack.plan.runner import PlanError
    from trainstack.review.report import refuses_oversized, stack_budget

    try:  # a stack that cannot be read or is refused: bad input (exit 2)
        path = stack_path(project_dir(project), stack)
        cluster = read_cluster(path)
        budget = stack_budget(path)  # a budget `plan` and the policy pack would refuse
        refuse = refuses_oversized(path)  # sizes the budget rule refuses (exit 1 below)
        version = load_catalog(providers=(cluster.provider,)).version
    except (PreflightError, StackWriteError, CatalogError, PlanError) as exc:
        fail(str(exc))
    from policies.stack_rules import oversized
    from profiles.cost.sanity import stack_warnings
    from profiles.stack.price import price_from_catalog

    price = price_from_catalog(cluster)  # the price `plan` shows, from the catalog
    warnings = stack_warnings(cluster, price.usd_per_hour, price.usd_storage, budget)  # first: they need no API
    refused = [f"error: {v.message}" for v in oversized(warnings)] if refuse else []
    for said in refused or warnings:
        typer.secho(said, fg="red" if refused else "yellow", err=True)
    from clouds.job_runtime import runtime_line

    if line := runtime_line(cluster):  # which torch and NCCL the nodes will run
        typer.echo(line)
    try:  # the stack is fine but could not be checked (credentials, an API failure): exit 1
        items = preflight(cluster, catalog_version=version, name=stack)
    except PreflightError as exc:
        if exc.findings:  # offline findings first, then why the live checks did not run
            live_view.findings(stack, exc.findings, path)
        fail(f"live checks did not run: {exc}", code=FAILED)
    from profiles.preflight.signals import capacity_signals
    from trainstack.cli.status_cmd import stack_settings

    try:  # advice, never a failure; but without the cloud's credentials they cannot run: exit 1
        items += capacity_signals(cluster, stack_settings(path.read_text()))
    except PreflightError as exc:
        live_view.findings(stack, items, path)
        fail(f"live checks did not run: {exc}", code=FAILED)
    live_view.findings(stack, items, path)
    if refused or any(item.status == "fail" for item in items):
        raise typer.Exit(code=FAILED)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def up(
    ctx: typer.Context,
    stack: str = typer.Option(..., "-s", "--stack", help="Stack name: deploys stacks/Pulumi.STACK.yaml."),
    attempts: int = typer.Option(5, "--attempts", min=1, max=20, help="Deployments at most, the first included."),
    minutes: float = typer.Option(120, "--max-minutes", min=1, help="No new attempt starts after this many minutes."),
    force: bool = typer.Option(False, "--force", help="Let up rewrite a stack file edited by hand."),
    project: Path | None = typer.Option(None, "--project-dir", help=PROJECT_HELP),
) -> None:
    """Run `pulumi up` (Automation API; flags after `--` pass through); on no capacity, move to the next fallback."""
    from trainstack.cli.up_cmd import run

    run(stack, list(ctx.args), attempts, minutes, force, project_dir(project))


@app.command()
def status(
    stack: str = typer.Option(..., "-s", "--stack", help="Stack name: reads stacks/Pulumi.STACK.yaml."),
    project: Path | None = typer.Option(None, "--project-dir", help=PROJECT_HELP),
) -> None:
    """Show each node group's nodes running vs asked and the cloud's latest capacity error."""
    from trainstack.cli.status_cmd import run

    run(stack, project_dir(project))
