"""The `trainstack run -s NAME` command: read the stack, find its platform's submitter, send the
job, print its id, where its logs and checkpoints are, and what it is expected to cost."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from clouds.base import load
from clouds.clock import now
from clouds.contract import CONFIG_NAMESPACE, ClusterConfig
from clouds.platform_lookup import find
from trainstack.run import RunError, Submitted

Echo = Callable[[str], None]


def cluster_name(config: dict[str, Any], stack: str) -> str:
    """The name the stack's resources carry (`__main__.py`): the first of
    `trainstack:previous_names` after a rename, else the stack name."""
    previous = config.get(f"{CONFIG_NAMESPACE}:previous_names") or []
    return str(previous[0]) if previous else stack


def vm_runner(provider: str) -> str:
    """The module of `run` on `provider`'s VM stacks (`clouds.base.Cloud.vm_run`: AWS's Run
    Command, `trainstack.run.vm_job`; the head's job channel on GCP and Azure,
    `trainstack.run.head_channel`).

    Raises:
        RunError: a cloud without one.
    """
    from clouds.registry import CLOUDS

    module = CLOUDS[provider].vm_run
    if not module:
        raise RunError(
            f"platform: trainstack has no remote run on {provider} VMs (their nodes run no node agent and no "
            "trainstack-job unit); start training on the nodes by hand"
        )
    return module


def submitter(cluster: ClusterConfig) -> Callable[..., Submitted]:
    """The stack's platform's submitter (`clouds.platforms.Platform.submit`); on a VM stack the
    start or restart of the node agents' job (`vm_runner`), which takes the stack's settings too.

    Raises:
        RunError: a platform or cloud without a submitter.
    """
    platform = find(cluster.provider, cluster.platform)
    if platform is None:  # the cloud's own VMs: (re)start the job their node agents run
        return load(f"{vm_runner(cluster.provider)}:submit")  # type: ignore[no-any-return]
    if not platform.submit:
        raise RunError(f"platform: {platform.display_name} has no job submitter yet")
    return load(platform.submit)  # type: ignore[no-any-return]


def expected_cost(cluster: ClusterConfig) -> str:
    """`$X per job (H h at $Y/hour)` from the catalog, as `plan` prices the stack."""
    from profiles.stack.price import price_from_catalog

    price = price_from_catalog(cluster)
    total, hourly = price.usd_total, price.total_usd_per_hour
    if total is None or hourly is None:
        return f"unpriced ({price.note or 'no catalog price'})"
    return f"${total:,.2f} per job ({cluster.hours:,.1f} h at ${hourly:,.2f}/hour)"


def run(path: Path, stack: str, echo: Echo, dry_run: bool = False, as_json: bool = False) -> Submitted | None:
    """Submit the job of the stack file at `path` (or, with `dry_run`, print its request).

    Raises:
        StackFileError: the stack cannot be read or is refused.
        RunError: the platform cannot run what the job asks, or the stack has no job (one line
            naming the field: how to add one, or why none can run there, `no_job.no_job_line`).
    """
    from profiles.stack.file import read_cluster

    config, cluster = read_cluster(path)
    name = cluster_name(config, stack)
    platform = find(cluster.provider, cluster.platform)
    if cluster.job is None and (platform is None or platform.submit):  # else: submitter says why not
        from trainstack.run.no_job import no_job_line

        raise RunError(f"job: {no_job_line(cluster, stack, path.read_text(), path.parent.parent)}")
    send = submitter(cluster)
    stamp = now().strftime("%Y%m%d-%H%M%S")
    if dry_run:
        request = _request(cluster, name, stamp)
        echo(json.dumps(request, indent=2))
        return None
    done = send(cluster, name, stamp, config) if cluster.platform is None else send(cluster, name, stamp)
    notes = [kept] if (kept := keep(path, stack, cluster, done)) else []
    if platform is not None:
        from profiles.catalog.platform_rows import limit_note

        notes += [note] if (note := limit_note(platform, cluster.hours)) else []
    if as_json:  # what the lines below say, as numbers (keys in docs/cli.md)
        echo(json.dumps(submitted_json(cluster, done, notes), indent=2))
        return done
    echo(f"job: {done.job_id}")
    echo(f"logs: {done.logs}")
    echo(f"checkpoints: {done.checkpoints}")
    echo(f"expected cost: {expected_cost(cluster)}")
    for note in notes:
        echo(f"note: {note}")
    return done


def submitted_json(cluster: ClusterConfig, done: Submitted, notes: list[str]) -> dict:
    """`run --json`: the job, where it writes, its expected cost (USD, null when unpriced, with
    `price_note` saying why) and the notes the text prints."""
    from profiles.stack.price import price_from_catalog

    price = price_from_catalog(cluster)
    return {
        "job_id": done.job_id,
        "logs": done.logs,
        "checkpoints": done.checkpoints,
        "hours": cluster.hours,
        "usd_per_hour": price.total_usd_per_hour,
        "usd_per_job": None if price.usd_total is None else round(price.usd_total, 2),
        "price_note": price.note or "",
        "notes": notes,
    }


def keep(path: Path, stack: str, cluster: ClusterConfig, done: Submitted) -> str:
    """Keep the started job in the project (`trainstack.run.record`) for `trainstack status`; a
    project that cannot be written loses only that (the job is running): the note saying so,
    else ""."""
    from trainstack.run import record

    kept = record.RunRecord(
        job_id=done.job_id,
        platform=cluster.platform or "vm",
        provider=cluster.provider,
        region=cluster.region,
        started=now().isoformat(timespec="seconds"),
        logs=done.logs,
        checkpoints=done.checkpoints,
    )
    try:
        record.save(path.resolve().parent.parent, stack, kept)
    except OSError as exc:
        return f"the job runs, but `trainstack status` cannot follow it: {exc.strerror} ({exc.filename})"
    return ""


def _request(cluster: ClusterConfig, name: str, stamp: str) -> dict[str, Any]:
    """What the platform's submitter would send, built without credentials (account and
    subscription shown as placeholders)."""
    platform = find(cluster.provider, cluster.platform)
    if platform is None:
        return load(f"{vm_runner(cluster.provider)}:request_preview")(cluster, name, stamp)  # type: ignore[no-any-return]
    module = load(platform.submit.replace(":submit", ":request_preview"))
    return module(cluster, name, stamp)  # type: ignore[no-any-return]


__all__ = ["RunError", "cluster_name", "expected_cost", "run", "submitted_json", "submitter"]
