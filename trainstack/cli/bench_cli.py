"""`trainstack bench ...`: run the benchmark kit, parse its raw output, import results into
the measurement store, and report time and cost per measured offering.

A thin layer like `trainstack/cli/app.py`: errors a user can fix print one line and exit 2.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from trainstack.cli.bench_stack import (
    node_cluster,
    project_dir,
    project_option,
    project_or_none,
    stack_cluster,
    stack_config,
    write_results,
)
from trainstack.cli.usage_errors import fail, stdin_once

bench_app = typer.Typer(
    no_args_is_help=True, help="Benchmark the cluster: run (the kit), fetch, parse, import, report."
)


@bench_app.command("parse")
def parse(
    files: list[Path] = typer.Argument(
        ..., help="Raw output: nccl-tests logs, dcgmi diag --json, NVML CSV, training log; - reads standard input."
    ),
    stack: str | None = typer.Option(None, "-s", "--stack", help="Stack the run was on (fills provider, type, nodes)."),
    as_json: bool = typer.Option(False, "--json", help="Print the results file (JSON) instead of a summary."),
    output: Path | None = typer.Option(
        None, "-o", "--output", help="Write the results file here; - writes standard output."
    ),
    project: Path | None = project_option(),
) -> None:
    """Read raw tool output into one results file (docs/bench-results.md)."""
    from trainstack.bench.parse import ParseError, parse_files
    from trainstack.bench.summary import summary_lines

    stdin_once(FILES=files)
    cluster = stack_cluster(stack, project) if stack else None
    try:
        result = parse_files(files, cluster, stack)
    except ParseError as exc:
        fail(str(exc))
    text = result.model_dump_json(indent=2, exclude_none=True)
    if output is not None and not write_results(output, text):
        return  # `-o -`: the results file went to standard output, as with --json
    if as_json:
        typer.echo(text)
    else:
        for line in summary_lines(result):
            typer.echo(line)
        if output is not None:
            typer.echo(f"results written: {output}")


@bench_app.command("run")
def run(
    stack: str = typer.Option(..., "-s", "--stack", help="Stack name: reads stacks/Pulumi.STACK.yaml."),
    out: Path | None = typer.Option(None, "--out", help="Folder for the kit (default bench-kit/STACK)."),
    steps: int = typer.Option(50, "--steps", min=1, help="Timed steps per throughput run."),
    batch: int = typer.Option(256, "--batch", min=1, help="Images per GPU per step."),
    data_dir: str | None = typer.Option(
        None, "--data-dir", metavar="DIR", help="Shared directory on the nodes (default: on the stack's file system)."
    ),
    print_kit: bool = typer.Option(False, "--print", help="Print the kit script instead of writing it."),
    send: bool = typer.Option(
        False,
        "--send",
        help=(
            "Run it now on the stack's nodes (AWS: Systems Manager; Azure: Run Command; "
            "GCP: SSH through IAP, which the stack's ssh_cidrs must admit)."
        ),
    ),
    wait: bool = typer.Option(False, "--wait", help="With --send: wait, then fetch the results file."),
    max_bytes: str = typer.Option(
        "8G", "--max-bytes", help="Largest all-reduce message: bytes with an optional K, M or G (8G = 8 GiB)."
    ),
    output: Path | None = typer.Option(
        None, "-o", "--output", help="With --wait: the results file to write; - writes standard output."
    ),
    project: Path | None = project_option(),
) -> None:
    """Render the benchmark kit for STACK: nccl-tests (all nodes, pairwise), DCGM diag, training
    throughput (ResNet-50, ViT-B/16), NVML samples and file-system reads. With --send, run the
    all-reduce and training steps on a stack that is up, through its node agents."""
    from trainstack.bench.kit import KitOptions, render_kit
    from trainstack.bench.nccl_tests import max_bytes_problem

    if problem := max_bytes_problem(max_bytes):
        fail(problem)
    cluster = node_cluster(stack, project)
    if send or wait:
        from trainstack.cli.bench_remote import send_run

        if wait and not send:
            fail("--wait: only with --send (the kit is run by hand); add --send")
        send_run(stack, cluster, steps, batch, max_bytes, wait, output, stack_config(stack, project))
        return
    script, notes = render_kit(
        stack, cluster, KitOptions(steps=steps, batch=batch, data_dir=data_dir, max_bytes=max_bytes)
    )
    if print_kit:
        typer.echo(script, nl=False)
        return
    folder = out or project_dir(project) / "bench-kit" / stack
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "run-bench.sh").write_text(script, encoding="utf-8")
    except OSError as exc:
        fail(f"--out {folder}: cannot write ({exc.strerror}); give a writable folder")
    from trainstack.bench.access import access_steps
    from trainstack.bench.kit import default_data_dir

    results = f"{data_dir or default_data_dir(cluster.provider)}/results/run.json"
    lines = [f"kit written: {folder / 'run-bench.sh'}", *access_steps(stack, cluster, folder / "run-bench.sh", results)]
    lines.append(
        "  needs on every node: trainstack installed (pip install -e '.[torch]'), nccl-tests in $NCCL_TESTS, "
        "MPI; DCGM is used where installed"
    )
    for line in lines + [f"note: {n}" for n in notes]:
        typer.echo(line)


@bench_app.command("fetch")
def fetch(
    stack: str = typer.Option(..., "-s", "--stack", help="Stack name: reads stacks/Pulumi.STACK.yaml."),
    run_id: str | None = typer.Option(None, "--run", help="The run `bench run --send` printed (default: newest)."),
    output: Path | None = typer.Option(
        None, "-o", "--output", help="Results file to write (default bench-STACK.json); - writes standard output."
    ),
    project: Path | None = project_option(),
) -> None:
    """Bring the results of `bench run --send` back from the stack's file system as a results file."""
    from trainstack.cli.bench_remote import fetch_run

    fetch_run(stack, node_cluster(stack, project), run_id, output, stack_config(stack, project))


@bench_app.command("import")
def import_results(
    results: list[Path] = typer.Argument(
        ..., help="Results files from `trainstack bench parse -o run.json`; - reads standard input."
    ),
    project: Path | None = project_option(),
) -> None:
    """Keep RESULTS in the measurement store (PROJECT/measurements/) that `trainstack resolve` reads."""
    from profiles.files import shown_name
    from profiles.measurements.store import StoreError, check_import, store_result

    stdin_once(RESULTS=results)
    try:  # every file is checked before any is stored (nothing half-imported); `-` is read once
        checked = [(path, check_import(path)) for path in results]
        for path, result in checked:
            target, new = store_result(result, project_dir(project))
            typer.echo(f"{'imported' if new else 'already imported'}: {shown_name(path)} -> {target}")
    except StoreError as exc:
        fail(str(exc))


DEFAULT_WORKLOAD = Path("profiles") / "workloads" / "resnet50-imagenet.yaml"


@bench_app.command("report")
def report(
    runs: list[Path] = typer.Argument(
        ..., help="Results files (or folders of them), e.g. examples/bench/*.json; - reads standard input."
    ),
    workload: Path | None = typer.Option(
        None,
        "-w",
        "--workload",
        help="Workload spec (default: the ResNet-50 ImageNet example); - reads standard input.",
    ),
    plot: Path | None = typer.Option(
        None, "--plot", help="Also write a chart of time to finish and cost here (.png, .svg, .pdf); default: no file."
    ),
    output: Path | None = typer.Option(None, "-o", "--output", help="The same as --plot."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
    project: Path | None = project_option(),
) -> None:
    """Compare measured offerings: time to finish and total cost of WORKLOAD on each run, with
    each run judged against thresholds and its bottleneck named. Writes no file unless --plot
    (-o) names one."""
    from profiles.catalog.loader import CatalogError, load_catalog
    from profiles.measurements.store import StoreError, load_store, read_result
    from profiles.spec import SpecError, load_spec
    from trainstack.bench.report import judge
    from trainstack.bench.report_view import report_json, report_table, write_report_plot
    from trainstack.cli.plot import PlotPathError, check_plot_path

    stdin_once(RUNS=runs, **{"--workload": workload})
    option = "--plot" if plot is not None or output is None else "-o/--output"
    plot = plot or output
    try:
        if plot is not None:
            check_plot_path(plot, option)
        spec = load_spec(workload or _default_workload(project))
        files = [p for path in runs for p in (sorted(path.glob("*.json")) if path.is_dir() else [path])]
        results = [read_result(p) for p in files]
        store = load_store(project_or_none(project))
        catalog = load_catalog(providers=tuple(sorted({r.provider for r in results if r.provider})) or None)
    except (PlotPathError, SpecError, StoreError, CatalogError) as exc:
        fail(str(exc))
    if not results:
        fail(f"no results files in {', '.join(map(str, runs))}; give files from `trainstack bench parse -o run.json`")
    for path, result in zip(files, results, strict=True):
        if not (result.busbw or result.throughput or result.gpu_samples or result.file_system or result.dcgm):
            fail(
                f"{path}: holds no measurement (busbw, throughput, gpu_samples, file_system or dcgm); "
                "give a results file from `trainstack bench parse -o run.json`"
            )
    verdicts = [judge(spec, r, store, _cluster_price(r, catalog.offerings)) for r in results]
    verdicts.sort(key=lambda v: (v.usd_total is None, v.usd_total or 0.0, v.run.label()))
    drawn = None
    if plot is not None:
        try:
            drawn = write_report_plot(plot, spec.name, verdicts)
        except OSError as exc:
            fail(f"{option} {plot}: cannot write ({exc.strerror}); give a writable .png path")
    priced = tuple(dict.fromkeys(v.run.provider for v in verdicts if v.usd_per_hour is not None and v.run.provider))
    warnings = catalog.price_warnings(priced) if priced else []  # the prices' age, as resolve and offers say it
    if as_json:
        typer.echo(json.dumps(report_json(spec.name, verdicts, warnings), indent=2))
    else:
        report_table(spec.name, verdicts)
    for line in warnings:
        typer.echo(line, err=True)
    if plot is not None:  # the full path: no doubt about where the file went
        typer.echo(f"plot written: {plot.resolve()} ({drawn} runs)", err=as_json)


def _default_workload(given: Path | None = None) -> Path:
    """The project's ResNet-50 ImageNet example workload, else the one installed with trainstack."""
    import profiles

    project = project_or_none(given)
    local = project / DEFAULT_WORKLOAD if project else None
    return (
        local
        if local is not None and local.is_file()
        else Path(profiles.__file__).parent / "workloads" / DEFAULT_WORKLOAD.name
    )


def _cluster_price(run, offerings) -> float | None:
    """Whole-cluster on-demand USD/hour of the run's type: in its region, else the cheapest."""
    rows = [
        o
        for o in offerings
        if (o.provider, o.instance_type) == (run.provider, run.instance_type) and o.on_demand_usd_per_hour is not None
    ]
    local = [o for o in rows if o.region == run.region] or rows
    return min(o.on_demand_usd_per_hour for o in local) * run.nodes if local else None
