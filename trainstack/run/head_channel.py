"""`trainstack run` on a VM stack whose cloud has no remote command trainstack uses (GCP, Azure):
the run goes through the head node's job channel (`nodeagent.relay`), the property of the head
that `pulumi up` writes the job to and the cloud updates in place (GCP: the instance metadata
attribute `trainstack-job`; Azure: the VM's user data).

`run` reads the channel the head carries, checks that it holds the stack's job (a stack edited
since `pulumi up` is refused: deploy first, the run never mixes two versions of a job), adds
the run's id (`<job id>-<stamp>`, `nodeagent.publisher.RUN_KEY`) and writes it back. The head
reads its channel every `nodeagent.publisher.PUBLISH_SECONDS` and keeps the run in the job's run
file on the shared file system; every worker follows it (`NodeJob.follow_runs`): a running
torchrun stops (SIGTERM: the script checkpoints) and starts under the run's id, and a worker
whose job had ended starts it. The script resumes from its newest checkpoint.

Pulumi keeps the channel it wrote: a later `pulumi up` leaves the run's channel alone unless the
job changes (a new job id starts afresh), and one that writes the channel back without the run
(`--refresh`) leaves the run file, and so the run, as it is.

Each cloud's module (`trainstack.run.gcp_channel`, `trainstack.run.azure_channel`) reads and
writes the property; what they share is here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from clouds.contract import ClusterConfig
from clouds.job_bootstrap import channel_text
from nodeagent import publisher
from nodeagent.publisher import RUN_KEY
from trainstack.run import RunError, Submitted, job_of

# How long `run` waits for the cloud to apply the channel (a choice: a metadata or user-data
# update takes seconds), and between its reads.
DEADLINE_SECONDS = 120.0
PAUSE_SECONDS = 2.0


def stack_job_id(cluster: ClusterConfig, name: str) -> str:
    """The job id the stack's job has (the channel `pulumi up` writes for it).

    Raises:
        RunError: the stack has no job.
    """
    job_of(cluster)
    return str(publisher.decode(channel_text(name, cluster))["job_id"])


def run_id(cluster: ClusterConfig, name: str, stamp: str) -> str:
    """This run's rendezvous id: the job's id and the run's UTC stamp (`c-1a2b3c4d-20261207-043900`)."""
    return f"{stack_job_id(cluster, name)}-{stamp}"


def with_run(current: str | None, job_id: str, new_run: str, stack: str) -> str:
    """The head's channel `current` with the run `new_run` of job `job_id` in it.

    Args:
        current: the channel's text on the head (None: the head carries none).
        job_id: the stack's job id (`stack_job_id`).
        new_run: the run's id (`run_id`).
        stack: the stack name, for the fix.

    Raises:
        RunError: no channel, not a job document, or another job than the stack's.
    """
    if not current:
        raise RunError(f"job: the head node carries no job channel; deploy the job first: pulumi up -s {stack}")
    try:
        doc = publisher.decode(current)
    except ValueError as exc:
        raise RunError(f"job: the head node's {exc}; deploy the job again: pulumi up -s {stack}") from None
    if doc["job_id"] != job_id:
        raise RunError(
            f"job: the nodes run job {doc['job_id']}, the stack file's job is {job_id} "
            f"(edited since it was deployed); deploy it first: pulumi up -s {stack}"
        )
    return publisher.encode({**doc, RUN_KEY: new_run})


def submitted(cluster: ClusterConfig, name: str, new_run: str, request: dict) -> Submitted:
    """What `run` prints for a run through the channel."""
    from trainstack.run.vm_job import places

    job = places(cluster, name)
    return Submitted(
        job_id=new_run,
        logs=f"{job['log_dir']}/ on the shared file system (launcher-<node>.log, one folder per worker)",
        checkpoints=job["checkpoint_dir"],
        request=request,
    )


def the_head(
    nodes: Iterable[dict[str, Any]], is_head: Callable[[dict[str, Any], str], bool], name: str, where: str
) -> dict[str, Any]:
    """The head node of cluster `name` among a cloud's listed `nodes` (`is_head` tells it), in
    `where` (its region or zone).

    Raises:
        RunError: none: the stack is not up (`run` refuses a stack without a job before this), as
            a managed platform's submitter says of a pool that is not there.
    """
    for node in nodes:
        if is_head(node, name):
            return node
    raise RunError(f"stack: no head node {name}-head in {where}; deploy the stack first: pulumi up -s {name}")
