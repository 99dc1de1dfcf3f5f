"""`trainstack bench run --send` and `trainstack bench fetch`: the benchmark on a stack that is up,
through its cloud's own remote-run service and node agents (`trainstack.bench.remote`).

AWS only for now (Systems Manager Run Command); other clouds refuse in one line.
"""

from __future__ import annotations

from pathlib import Path

import typer

from trainstack.cli.usage_errors import fail

WAIT_SECONDS = 3 * 3600  # a choice: the slowest step (ViT on 8 GiB messages) fits well within it


def check_remote(stack: str, cluster, option: str) -> None:
    """One line and exit 2 when `stack` cannot be benchmarked remotely."""
    from trainstack.bench.aws_ssm import PROVIDER

    if cluster.provider != PROVIDER:
        fail(
            f"{option}: {cluster.provider} has no remote run in trainstack yet (AWS only, via Systems Manager); "
            f"render the kit and run it on a node instead: trainstack bench run -s {stack}"
        )
    if cluster.job is None:
        fail(
            f"{option}: stack {stack} has no job:, so its nodes have no node agent to run the benchmark; "
            f"add a job: to stacks/Pulumi.{stack}.yaml and run pulumi up, or use the kit: trainstack bench run -s {stack}"
        )


def _clients(cluster):
    """(ssm, ec2) clients in the stack's region."""
    import boto3

    return boto3.client("ssm", region_name=cluster.region), boto3.client("ec2", region_name=cluster.region)


def _aws(call):
    """Run `call()`; AWS errors become one line (no credentials, access denied, ...)."""
    from botocore.exceptions import BotoCoreError, ClientError

    from trainstack.bench.aws_ssm import RemoteError

    try:
        return call()
    except ClientError as exc:
        error = exc.response.get("Error", {})
        fail(f"AWS Systems Manager: {error.get('Code', 'error')}: {error.get('Message', exc)}")
    except BotoCoreError as exc:
        fail(f"AWS Systems Manager: {exc}; set AWS credentials for the stack's account")
    except RemoteError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None


def send_run(stack: str, cluster, steps: int, batch: int, max_bytes: str, wait: bool, output: Path | None) -> None:
    """Start the benchmark on every node of `stack`; with `wait`, fetch its results file."""
    from trainstack.bench import aws_ssm as ssm
    from trainstack.bench.remote import new_run_id, node_commands, results_root

    check_remote(stack, cluster, "--send")
    run = new_run_id()
    client, ec2 = _clients(cluster)
    commands = node_commands(stack, cluster, run, steps, batch, max_bytes)
    command_id = _aws(lambda: ssm.send(client, stack, commands, f"trainstack bench {stack} {run}", WAIT_SECONDS))
    typer.echo(f"benchmark {run} sent to the nodes of {stack} (SSM command {command_id})")
    typer.echo(f"  logs: {results_root(cluster.provider, stack)}/{run}/ on the shared file system")
    if not wait:
        typer.echo(f"  then: trainstack bench fetch -s {stack} --run {run}")
        return
    runs = _aws(lambda: ssm.wait(client, command_id, ssm.stack_instances(ec2, stack), WAIT_SECONDS))
    typer.echo(f"  finished on {len(runs)} nodes")
    fetch_run(stack, cluster, run, output)


def fetch_run(stack: str, cluster, run: str | None, output: Path | None) -> None:
    """Bring a run's logs back from one node and write the results file `bench import` takes."""
    from trainstack.bench import aws_ssm as ssm
    from trainstack.bench.remote import FetchError, fetch_commands, results_from_output

    check_remote(stack, cluster, "fetch")
    client, ec2 = _clients(cluster)
    command_id = _aws(
        lambda: ssm.send(client, stack, fetch_commands(stack, cluster, run), f"trainstack bench fetch {stack}", 120)
    )
    runs = _aws(lambda: ssm.wait(client, command_id, ssm.stack_instances(ec2, stack), 300, pause=3.0))
    try:
        result = results_from_output(runs[0].output, cluster, stack)
    except FetchError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    target = output or Path(f"bench-{stack}.json")
    try:
        target.write_text(result.model_dump_json(indent=2, exclude_none=True) + "\n", encoding="utf-8")
    except OSError as exc:
        fail(f"--output {target}: cannot write ({exc.strerror}); give a writable path")
    typer.echo(f"results written: {target}; keep them: trainstack bench import {target}")
