"""`trainstack status -s NAME`: nodes running vs asked per node group, the latest capacity error,
and the job `trainstack run` last started (`trainstack.status.job_follow`)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

import typer

from trainstack.cli.usage_errors import BAD_INPUT, FAILED, fail


def stack_settings(text: str) -> dict:
    """The stack file's `config:` (already read and checked by `read_stack`)."""
    import yaml

    document = yaml.safe_load(text)
    config = document.get("config") if isinstance(document, dict) else None
    return config if isinstance(config, dict) else {}


def run(stack: str, folder: Path) -> None:
    """Print one line per node group; exit 1 when a spot or fixed group runs fewer nodes than asked."""
    from clouds.config import ConfigError
    from profiles.stack.file import StackFileError, stack_path
    from trainstack.up.move import read_stack

    try:
        now = read_stack(stack_path(folder, stack))
    except (StackFileError, ConfigError) as exc:
        fail(str(exc))
    from trainstack.run.command import cluster_name

    cluster, settings = now.cluster, stack_settings(now.text)
    name = cluster_name(settings, stack)  # the name the resources carry, as `run` finds them
    reader = _reader(cluster)
    if reader is None:  # a managed platform runs the nodes: follow its job
        _job(stack, name, folder, cluster, required=True, settings=settings, text=now.text)
        return
    try:
        groups = reader(cluster, name, settings)
    except Exception as exc:  # credentials, permissions, network: one line
        fail(f"status: cannot read the node groups in {cluster.region}: {' '.join(str(exc).split())[:300]}", FAILED)
    if not groups:
        fail(f"status: no node group of cluster {name} found in {cluster.region}; is it up?", FAILED)
    for group in groups:
        typer.echo(group.line())
    _job(stack, name, folder, cluster, required=False, settings=settings)
    if cluster.job is not None and cluster.platform is None:  # the job's last step and checkpoint, from its files
        from trainstack.status.progress import progress

        typer.echo(progress(cluster, name, settings))
    if any(group.running < group.asked for group in groups):
        raise typer.Exit(FAILED)


def _reader(cluster) -> Callable[..., list] | None:
    """The live reading of the stack's nodes: the cloud's `trainstack.status.<cloud>_live`, a
    platform pool's own (`Platform.status`: HyperPod), or None for a platform whose pool has no
    nodes to read (its job is followed instead)."""
    from clouds.base import load
    from clouds.platform_lookup import find

    if cluster.platform is not None:
        platform = find(cluster.provider, cluster.platform)
        return load(platform.status) if platform is not None and platform.status else None  # type: ignore[no-any-return]
    try:
        live = importlib.import_module(f"trainstack.status.{cluster.provider}_live")
    except ModuleNotFoundError:
        fail(f"status: live reading of {cluster.provider} node groups is not built yet", FAILED)
    return live.status  # type: ignore[no-any-return]


def _job(
    stack: str, name: str, folder: Path, cluster, required: bool, settings: dict | None = None, text: str = ""
) -> None:
    """The line of the job `trainstack run` last started on stack `stack` (cluster `name`, its
    file's `text`); with `required`, none is an error."""
    from trainstack.run.record import load

    record = load(folder, stack)
    if record is None:
        message, code = _nothing_to_show(stack, cluster, text, folder) if required else ("", 0)
        if message:
            fail(message, code)
        return
    from nodeagent.job import RUN_SUFFIX
    from trainstack.run.vm_job import places
    from trainstack.status.job_follow import job_line

    # the run-id file is the node agent's (VM stacks); a platform's job has none, and the China
    # clouds' nodes run no agent (`places` refuses them)
    vm_job = cluster.job is not None and cluster.platform is None
    run_file = places(cluster, name)["rdzv_file"] + RUN_SUFFIX if vm_job else ""
    typer.echo(job_line(record, name, run_file, cluster, settings))


def _nothing_to_show(stack: str, cluster, text: str = "", folder: Path | None = None) -> tuple[str, int]:
    """The error line (and exit code) of `status` on a stack with no job started from here: the
    `run` that would start one (or, for a stack without `job:`, how to add one,
    `trainstack.run.no_job`), or, on a platform `run` submits nothing to (`Platform.submit`
    empty: PAI Lingjun), that status has nothing to show there, never a command that refuses;
    ("", 0) on a pool whose nodes status reads (HyperPod)."""
    from clouds.platform_lookup import find

    platform = find(cluster.provider, cluster.platform) if cluster.platform is not None else None
    if (platform is None or platform.submit) and cluster.job is None:
        from trainstack.run.no_job import no_job_line

        return f"status: no job started on stack {stack} from here; {no_job_line(cluster, stack, text, folder)}", FAILED
    if platform is None or platform.submit:
        return f"status: no job started on stack {stack} from here; start one: trainstack run -s {stack}", FAILED
    if platform.status:  # a pool whose nodes status reads (HyperPod): no job line is no error
        return "", 0
    return (
        f"status: stack {stack} runs on {platform.display_name}, to which trainstack submits no job yet "
        "(`run` refuses it) and whose nodes it does not read, so status has nothing to show; start and "
        "follow its jobs in the cloud's console or CLI (docs/platforms.md)"
    ), BAD_INPUT
