"""The job's progress from its files on the shared file system (`trainstack status`): the newest
checkpoint in the job's checkpoint folder and the last training step its newest log reports.

Every node mounts the file system, so one node answers for the job: shell lines
(`progress_commands`, coreutils `find`/`sort`/`grep` only) print `TRAINSTACK-PROGRESS` lines
that `read_progress` reads. torchrun, started with `--log-dir --redirects=3 --tee=3`
(`nodeagent.launcher`), writes each worker's output to `<log dir>/<run>/attempt_<n>/<rank>/
stdout.log`; the step is the last `step N` (`step=N`, `Step: N`, `step #N`) the script printed
there, so a script that logs no step shows none. On AWS the lines run on one node through
Systems Manager Run Command (`trainstack.bench.aws_ssm`); the other clouds have no run-command
path in trainstack yet and say so.
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


def aws_progress(ssm_client: Any, ec2_client: Any, stack: str, checkpoint_dir: str, log_dir: str, now: datetime) -> str:
    """The progress line read on one running node of the stack through Run Command."""
    from trainstack.bench import aws_ssm as ssm

    nodes = ssm.stack_instances(ec2_client, stack)
    if not nodes:
        return "progress: no running node to read the file system from"
    answer = ssm_client.send_command(
        DocumentName=ssm.DOCUMENT,
        InstanceIds=nodes[:1],
        Parameters={"commands": progress_commands(checkpoint_dir, log_dir), "executionTimeout": ["60"]},
        Comment=f"trainstack progress {stack}"[:100],
    )
    [run] = ssm.wait(ssm_client, answer["Command"]["CommandId"], nodes[:1], 120, pause=2.0)
    return progress_line(read_progress(run.output), now)


def progress(cluster: Any, stack: str) -> str:
    """The stack's progress line, read live where trainstack can run a command on a node; a
    failure (credentials, no node, a refused call) is the line's reason."""
    from clouds.clock import now
    from trainstack.bench import aws_ssm as ssm
    from trainstack.run.vm_job import places

    if cluster.provider != ssm.PROVIDER:
        return f"progress: not read on {cluster.provider} nodes yet (no run-command path in trainstack)"
    job = places(cluster, stack)
    try:
        import boto3

        ssm_client = boto3.client("ssm", region_name=cluster.region)
        ec2_client = boto3.client("ec2", region_name=cluster.region)
        return aws_progress(ssm_client, ec2_client, stack, job["checkpoint_dir"], job["log_dir"], now())
    except Exception as exc:  # credentials, permissions, network, a node that did not answer: one line
        return f"progress: not read: {' '.join(str(exc).split())[:200]}"
