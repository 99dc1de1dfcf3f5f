"""The job's progress from its files on the shared file system (`trainstack status`): the newest
checkpoint in the job's checkpoint folder and the last training step its newest log reports.

Every node mounts the file system, so one node answers for the job: shell lines
(`progress_commands`, coreutils `find`/`sort`/`grep` only) print `TRAINSTACK-PROGRESS` lines
that `read_progress` reads. torchrun, started with `--log-dir --redirects=3 --tee=3`
(`nodeagent.launcher`), writes each worker's output to `<log dir>/<run>/attempt_<n>/<rank>/
stdout.log`; the step is the last `step N` (`step=N`, `Step: N`, `step #N`) the script printed
there, so a script that logs no step shows none. The lines run on one node through the cloud's
own way of running a command (`trainstack.bench.node_run`: AWS Systems Manager Run Command,
Azure Run Command, GCP SSH through IAP); a cloud without one says so.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

MARK = "TRAINSTACK-PROGRESS "
STEP_PATTERN = "[Ss]tep[ =:#]*[0-9][0-9,]*"  # grep -E


def progress_commands(checkpoint_dir: str, log_dir: str) -> list[str]:
    """Shell lines printing the newest checkpoint (`checkpoint <mtime> <name>`) and the newest
    worker log's last step (`step <mtime> <text>`); nothing for what is not there yet."""
    checkpoints, logs = shlex.quote(checkpoint_dir), shlex.quote(log_dir)
    return [
        f"c=$(find {checkpoints} -mindepth 1 -maxdepth 1 -not -name '.*' -printf '%T@ %f\\n' 2>/dev/null"
        " | sort -n | tail -n 1)",
        f'if [ -n "$c" ]; then echo "{MARK}checkpoint $c"; fi',
        f"l=$(find {logs} -name stdout.log -printf '%T@ %p\\n' 2>/dev/null | sort -n | tail -n 1)",
        f'if [ -n "$l" ]; then s=$(grep -Eo \'{STEP_PATTERN}\' "${{l#* }}" | tail -n 1);'
        f' echo "{MARK}step ${{l%% *}} $s"; fi',
        "true",
    ]


@dataclass(frozen=True)
class Progress:
    """What the files say: the newest checkpoint's name and time, the last step and its log's time."""

    checkpoint: str | None = None
    checkpoint_at: datetime | None = None
    step: str | None = None
    log_at: datetime | None = None


def read_progress(output: str) -> Progress:
    """The `TRAINSTACK-PROGRESS` lines of a node's output."""
    found: dict[str, Any] = {}
    for line in output.splitlines():
        if not line.startswith(MARK):
            continue
        kind, _, rest = line.removeprefix(MARK).partition(" ")
        stamp, _, text = rest.partition(" ")
        try:
            when = datetime.fromtimestamp(float(stamp), timezone.utc)
        except ValueError:
            continue
        if kind == "checkpoint":
            found.update(checkpoint=text.strip(), checkpoint_at=when)
        elif kind == "step":
            digits = "".join(ch for ch in text if ch.isdigit())
            found.update(step=digits or None, log_at=when)
    return Progress(**found)


def _ago(when: datetime, now: datetime) -> str:
    minutes = max((now - when).total_seconds(), 0) / 60
    return f"{minutes:.0f} min ago" if minutes < 120 else f"{minutes / 60:.1f} h ago"


def progress_line(progress: Progress, now: datetime) -> str:
    """`progress: last step 12400 (log written 3 min ago); last checkpoint step-12000 (20 min ago)`."""
    if progress.log_at is None:
        step = "no worker log yet"
    elif progress.step is None:
        step = f"no step in the newest worker log (written {_ago(progress.log_at, now)})"
    else:
        step = f"last step {int(progress.step):,} (log written {_ago(progress.log_at, now)})"
    if progress.checkpoint is None or progress.checkpoint_at is None:
        checkpoint = "no checkpoint yet"
    else:
        checkpoint = (
            f"last checkpoint {progress.checkpoint} ({progress.checkpoint_at:%Y-%m-%d %H:%M} UTC, "
            f"{_ago(progress.checkpoint_at, now)})"
        )
    return f"progress: {step}; {checkpoint}"


def node_progress(runner: Any, stack: str, checkpoint_dir: str, log_dir: str, now: datetime) -> str:
    """The progress line read on the first running node of the stack (`node_run.run_on_one`).

    Args:
        runner: the stack's cloud's `trainstack.bench.node_run.NodeRunner`.
    """
    from trainstack.bench.node_run import run_on_one

    published = getattr(runner, "published_progress", None)
    text = published() if published is not None else None
    if text is not None:  # the cloud keeps what the head last published: no node is asked
        return progress_line(read_progress(text), now)
    answer = run_on_one(runner, progress_commands(checkpoint_dir, log_dir), f"trainstack progress {stack}", 60)
    if answer is None:
        return "progress: no running node to read the file system from"
    return progress_line(read_progress(answer.output), now)


def aws_progress(ssm_client: Any, ec2_client: Any, stack: str, checkpoint_dir: str, log_dir: str, now: datetime) -> str:
    """`node_progress` through Run Command with these boto3 clients."""
    from trainstack.bench.aws_run import AwsRunner

    return node_progress(AwsRunner(None, stack, {}, (ssm_client, ec2_client)), stack, checkpoint_dir, log_dir, now)


def progress(cluster: Any, stack: str, settings: dict | None = None) -> str:
    """The stack's progress line, read live on a node where trainstack can run a command there
    (`trainstack.bench.node_run`); a failure (credentials, no node, a refused call) is
    the line's reason."""
    from clouds.clock import now
    from trainstack.bench.node_run import has_runner, runner_for
    from trainstack.run.vm_job import places

    if not has_runner(cluster.provider):
        return f"progress: not read on {cluster.provider} nodes (no run-command path in trainstack)"
    job = places(cluster, stack)
    try:
        runner = runner_for(cluster, stack, settings)
        return node_progress(runner, stack, job["checkpoint_dir"], job["log_dir"], now())
    except Exception as exc:  # credentials, permissions, network, a node that did not answer: one line
        return f"progress: not read: {' '.join(str(exc).split())[:200]}"
