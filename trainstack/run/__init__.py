"""`trainstack run -s NAME`: submit the stack's `job:` where its platform runs it.

A managed platform's job is a one-shot run, not a Pulumi resource (it would block `pulumi up`
for the whole run and be replaced by any change): each platform's submitter
(`clouds.platforms.Platform.submit`, `trainstack.run.<platform>`) turns the stack's cluster and
job into that service's request and sends it. What every submitter shares is here: the answer
(`Submitted`), the refusal (`RunError`, one line naming the field) and the reading of the job's
command.
"""

from __future__ import annotations

from dataclasses import dataclass

from clouds.contract import ClusterConfig, JobConfig
from clouds.platform_job import hyperparameter_problem, job_problem, script_and_args


class RunError(ValueError):
    """The job asks for what the platform cannot do, or the stack has no job: one line naming
    the field and the fix (exit 2)."""


@dataclass(frozen=True)
class Submitted:
    """A submitted job.

    Attributes:
        job_id: the platform's id of the job (an ARN, an ARM id).
        logs: where its logs are (a console address or a command).
        checkpoints: where its checkpoints are kept.
        request: what was sent, as the API's JSON body (for `--json` and the tests).
    """

    job_id: str
    logs: str
    checkpoints: str
    request: dict


def job_of(cluster: ClusterConfig) -> JobConfig:
    """The stack's job.

    Raises:
        RunError: the stack has none.
    """
    if cluster.job is None:
        raise RunError("job: the stack has no job to run; add job: {command: ...} to the workload and rerun resolve")
    return cluster.job


def checked(cluster: ClusterConfig, platform: str) -> tuple[JobConfig, str, list[str]]:
    """The stack's job, its script and its arguments, refused where `platform`'s launcher cannot
    run it (`clouds.platform_job.job_problem`: the script, the nodes, `job.launcher`).

    Raises:
        RunError: no job, or the job problem's line.
    """
    job = job_of(cluster)
    if problem := job_problem(platform, job, cluster.nodes):
        raise RunError(problem)
    script, args = script_and_args(job)
    return job, script, args


def as_hyperparameters(args: list[str], field: str = "job.command") -> dict[str, str]:
    """`--epochs 10 --lr=3e-4` as `{"epochs": "10", "lr": "3e-4"}` (SageMaker passes hyperparameters
    back to the script as `--key value`).

    Raises:
        RunError: an argument that is not `--key value` or `--key=value`.
    """
    if problem := hyperparameter_problem(args, field):
        raise RunError(problem)
    found: dict[str, str] = {}
    items = iter(args)
    for word in items:
        key, has_value, value = word[2:].partition("=")
        found[key] = value if has_value else next(items, "")
    return found
