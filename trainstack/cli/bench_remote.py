"""`trainstack bench run --send` and `trainstack bench fetch`: the benchmark on a stack that is up,
through its cloud's own remote-run service and node agents (`trainstack.bench.remote`).

Each cloud's own way of running a command on a VM (`trainstack.bench.node_run`: AWS Systems
Manager Run Command, Azure Run Command, GCP SSH through IAP); other clouds refuse in one line.
"""

from __future__ import annotations

import time
from pathlib import Path

import typer

from trainstack.cli.usage_errors import fail

WAIT_SECONDS = 3 * 3600  # a choice: the slowest step (ViT on 8 GiB messages) fits well within it
START_SECONDS = 300  # a choice: a detached run's start (checks, script written, unit started) per node
POLL_SECONDS = 60.0  # a choice: between looks at a detached run's end markers


def check_remote(stack: str, cluster, option: str) -> None:
    """One line and exit 2 when `stack` cannot be benchmarked remotely."""
    from trainstack.bench.node_run import has_runner, providers

    if not has_runner(cluster.provider):
        fail(
            f"{option}: {cluster.provider} has no remote run in trainstack yet (only {', '.join(providers())}); "
            f"render the kit and run it on a node instead: trainstack bench run -s {stack}"
        )
    if cluster.job is None:
        fail(
            f"{option}: stack {stack} has no job:, so its nodes have no node agent to run the benchmark; "
            f"add a job: to stacks/Pulumi.{stack}.yaml and run pulumi up, or use the kit: trainstack bench run -s {stack}"
        )


def _remote(call):
    """Run `call()`; the cloud's errors become one line (no credentials, access denied, a node
    that failed)."""
    from trainstack.bench.node_run import RemoteError

    try:
        return call()
    except RemoteError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    except Exception as exc:  # the SDK's or REST plumbing's errors: credentials, permissions, network
        from trainstack.cli.usage_errors import FAILED, work_failed

        fail(work_failed("bench", exc)[:400], code=FAILED)


def send_run(
    stack: str, cluster, steps: int, batch: int, max_bytes: str, wait: bool, output: Path | None, settings=None
) -> None:
    """Start the benchmark on every node of `stack`; with `wait`, fetch its results file.

    A runner whose remote call cannot last the whole run (`detaches`: an SSH session, Azure's
    90-minute Run Command) starts it as a transient unit on each node (`remote.detached`) and
    waits only for every node to have started it; `wait` then polls the run's end markers."""
    from trainstack.bench.node_run import runner_for
    from trainstack.bench.remote import detached, new_run_id, node_commands, results_root

    check_remote(stack, cluster, "--send")
    run = new_run_id()
    runner = _remote(lambda: runner_for(cluster, stack, settings))
    nodes = _remote(runner.nodes)
    commands = node_commands(stack, cluster, run, steps, batch, max_bytes)
    detaches = getattr(runner, "detaches", False)
    if detaches:
        commands = detached(run, commands)
    handle = _remote(lambda: runner.send(nodes, commands, f"trainstack bench {stack} {run}", WAIT_SECONDS))
    if detaches:  # every node has checked and started it (or said why not)
        _remote(lambda: runner.wait(handle, START_SECONDS))
    typer.echo(f"benchmark {run} sent to {len(nodes)} nodes of {stack} ({runner.named(handle)})")
    typer.echo(f"  logs: {results_root(cluster.provider, stack)}/{run}/ on the shared file system")
    if not wait:
        typer.echo(f"  then: trainstack bench fetch -s {stack} --run {run}")
        return
    if detaches:
        _await_finished(runner, stack, cluster, run, len(nodes))
    else:
        _remote(lambda: runner.wait(handle, WAIT_SECONDS))
    typer.echo(f"  finished on {len(nodes)} nodes")
    fetch_run(stack, cluster, run, output, settings)


def _await_finished(runner, stack: str, cluster, run: str, nodes: int) -> None:
    """Poll one node every `POLL_SECONDS` until `nodes` have marked the run finished."""
    from trainstack.bench.node_run import run_on_one
    from trainstack.bench.remote import finished_commands, finished_count

    end = time.monotonic() + WAIT_SECONDS
    while True:
        answer = _remote(
            lambda: run_on_one(runner, finished_commands(stack, cluster, run), "trainstack bench wait", 60)
        )
        done = finished_count(answer.output) if answer is not None else 0
        if done >= nodes:
            return
        if time.monotonic() >= end:
            typer.echo(f"error: run {run}: {done} of {nodes} nodes finished after {WAIT_SECONDS} s", err=True)
            raise typer.Exit(1)
        time.sleep(POLL_SECONDS)


def fetch_run(stack: str, cluster, run: str | None, output: Path | None, settings=None) -> None:
    """Bring a run's logs back from one node and write the results file `bench import` takes."""
    from trainstack.bench.node_run import run_on_one, runner_for
    from trainstack.bench.remote import FetchError, fetch_commands, fetched_part, results_from_output

    check_remote(stack, cluster, "fetch")
    runner = _remote(lambda: runner_for(cluster, stack, settings))
    comment = f"trainstack bench fetch {stack}"
    answers = [_remote(lambda: run_on_one(runner, fetch_commands(stack, cluster, run), comment, 120))]
    try:
        if answers[0] is None:
            raise FetchError(f"no running node of {stack} to read the results from; is the stack up?")
        found, parts, _ = fetched_part(answers[0].output)
        for part in range(1, parts):  # the rest of a pack too long for one answer, from the same run
            answers.append(
                _remote(lambda p=part: run_on_one(runner, fetch_commands(stack, cluster, found, p), comment, 120))
            )
        result = results_from_output([a.output if a else "" for a in answers], cluster, stack)
    except FetchError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    from trainstack.cli.bench_stack import write_results

    target = output or Path(f"bench-{stack}.json")
    if write_results(target, result.model_dump_json(indent=2, exclude_none=True)):
        typer.echo(f"results written: {target}; keep them: trainstack bench import {target}")
