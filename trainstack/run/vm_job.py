"""`trainstack run` on a VM stack: start or restart the job the node agents run, on every node.

Each worker node runs the stack's `job:` as the systemd unit `trainstack-job` (the node agent,
`nodeagent.launcher`), from the job file the bootstrap wrote; its rendezvous id is the job's
digest (`clouds.job_bootstrap.rendezvous_id`). A finished torchrun job closes its c10d
rendezvous, so starting it again under the same id would be refused; a job stopped halfway
leaves a rendezvous mid-round. So a run gets an id of its own, `<job id>-<stamp>`: every node
records it on the shared file system (`nodeagent.job.start_run`, read before every launch, so a
node replaced later joins this run) and restarts its unit. The job's script resumes from its
newest checkpoint (`TRAINSTACK_CHECKPOINT_DIR`).

A node whose job file is not the stack's job (the stack was edited after `pulumi up`) refuses,
and `run` says to deploy first: the run never mixes two versions of a job.

On AWS the command goes through Systems Manager Run Command (`trainstack.bench.aws_ssm`), as
`bench run --send` does; GCP and Azure take the run through the head's job channel
(`trainstack.run.head_channel`); other clouds refuse in one line (`command.vm_runner`).
"""

from __future__ import annotations

import shlex
from typing import Any

from clouds.contract import ClusterConfig
from clouds.job_bootstrap import node_job
from clouds.registry import CLOUDS
from trainstack.run import RunError, Submitted, aws_credentials, job_of

AGENT_DIR = "/opt/trainstack"  # nodeagent.ship.AGENT_DIR
JOB_FILE = "/etc/trainstack/job.json"  # nodeagent.job.JOB_FILE
JOB_UNIT = "trainstack-job"
NO_JOB_UNIT = "no job unit here"  # what a node without the job (the head) prints
DEADLINE_SECONDS = 300  # a choice: the unit's stop waits for the notice window (at most ~130 s on AWS)


def places(cluster: ClusterConfig, name: str) -> dict[str, Any]:
    """The job as its nodes hold it (`clouds.job_bootstrap.node_job`): its id (`job_id`), log and
    checkpoint folders on the shared file system."""
    job_of(cluster)
    mount = CLOUDS[cluster.provider].shared_mount
    return node_job(name, cluster, "HEAD", mount, "")


def run_id(cluster: ClusterConfig, name: str, stamp: str) -> str:
    """This run's rendezvous id: the job's id and the run's UTC stamp (`c-1a2b3c4d-20261207-043900`)."""
    return f"{places(cluster, name)['job_id']}-{stamp}"


def node_commands(new_id: str) -> list[str]:
    """The shell lines every node of the stack runs (Run Command, as root): a node without the job
    unit (the head, a controller) does nothing; a worker records the run and restarts its unit."""
    return [
        "set -uo pipefail",
        f"if [ ! -f /etc/systemd/system/{JOB_UNIT}.service ]; then",
        f'  echo "$(hostname): {NO_JOB_UNIT} (the head node): nothing to start"; exit 0',
        "fi",
        f"PYTHONPATH={AGENT_DIR} /usr/bin/python3 -m nodeagent start-run {shlex.quote(new_id)} {JOB_FILE} || exit 3",
        f"systemctl reset-failed {JOB_UNIT} 2>/dev/null || true",
        f"systemctl restart --no-block {JOB_UNIT}",
        f'echo "$(hostname): {JOB_UNIT} restarted as {new_id}"',
    ]


def submitted(cluster: ClusterConfig, name: str, stamp: str, request: dict[str, Any]) -> Submitted:
    """What `run` prints for a VM stack's run (`stamp` as in `run_id`)."""
    job = places(cluster, name)
    return Submitted(
        job_id=f"{job['job_id']}-{stamp}",
        logs=f"{job['log_dir']}/ on the shared file system (launcher-<node>.log, one folder per worker)",
        checkpoints=job["checkpoint_dir"],
        request=request,
    )


def request_preview(cluster: ClusterConfig, name: str, stamp: str) -> dict[str, Any]:
    """What `submit` sends (`run --dry-run`): the Run Command's target and shell lines."""
    return {
        "DocumentName": "AWS-RunShellScript",
        "Targets": [{"Key": "tag:trainstack:cluster", "Values": [name]}],
        "Parameters": {"commands": node_commands(run_id(cluster, name, stamp))},
    }


def started_nodes(outputs: list[str]) -> int:
    """How many nodes restarted the job, from each node's output (every run succeeded: a node
    that refused failed the command); a node without the job unit says `NO_JOB_UNIT`.

    Raises:
        RunError: no node runs the job (only a head answered).
    """
    started = sum(1 for text in outputs if NO_JOB_UNIT not in text)
    if not started:
        raise RunError(f"job: no node of the stack runs the job unit {JOB_UNIT}; is the stack up with this job: block?")
    return started


def submit(cluster: ClusterConfig, name: str, stamp: str, settings: Any = None) -> Submitted:
    """Send the run to every node tagged `trainstack:cluster=<name>` and wait until each has
    recorded it and restarted its unit (at most `DEADLINE_SECONDS`).

    Args:
        settings: the stack file's `config:` (unused: the AWS SDK's own credentials and the
            stack's region).

    Raises:
        RunError: a cloud other than AWS, no job node, or a node whose job is not the stack's
            (one line naming it).
        MissingCredentials: the AWS SDK finds no credentials.
    """
    from trainstack.bench import aws_ssm as ssm

    if cluster.provider != ssm.PROVIDER:
        raise RunError(f"platform: Systems Manager Run Command reaches AWS VMs only, not {cluster.provider}")
    import boto3

    new_id = run_id(cluster, name, stamp)
    client = boto3.client("ssm", region_name=cluster.region)
    ec2 = boto3.client("ec2", region_name=cluster.region)
    commands = node_commands(new_id)
    with aws_credentials():
        command_id = ssm.send(client, name, commands, f"trainstack run {new_id}", DEADLINE_SECONDS)
    try:
        runs = ssm.wait(client, command_id, ssm.stack_instances(ec2, name), DEADLINE_SECONDS, pause=3.0)
    except ssm.RemoteError as exc:
        raise RunError(f"job: {' '.join(str(exc).split())[:300]}") from None
    nodes = started_nodes([r.output for r in runs])
    return submitted(
        cluster, name, stamp, {"CommandId": command_id, "Nodes": nodes, "Parameters": {"commands": commands}}
    )
