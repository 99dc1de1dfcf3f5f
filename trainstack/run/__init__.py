"""`trainstack run -s NAME`: submit the stack's `job:` where its platform runs it.

A managed platform's job is a one-shot run, not a Pulumi resource (it would block `pulumi up`
for the whole run and be replaced by any change): each platform's submitter
(`clouds.platforms.Platform.submit`, `trainstack.run.<platform>`) turns the stack's cluster and
job into that service's request and sends it. What every submitter shares is here: the answer
(`Submitted`), the refusal (`RunError`, one line naming the field) and the reading of the job's
command.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from clouds.contract import ClusterConfig, JobConfig
from clouds.platform_job import hyperparameter_problem, job_problem, script_and_args


class RunError(ValueError):
    """The job asks for what the platform cannot do, or the stack has no job: one line naming
    the field and the fix (exit 2)."""


class MissingCredentials(RuntimeError):
    """The platform's credentials are not there: one line naming them and how to provide them
    (`run` exits 1, as `check`, `status` and `bench` do: the stack and its job are fine)."""


class PlatformFailed(RuntimeError):
    """The cloud refused a call or did not answer (one line, its own words): the stack and its job
    are fine, the work failed (`run` exits 1)."""


DOCS = "docs/platforms.md, Credentials"


def env_credentials(env: Mapping[str, str], names: tuple[str, ...], cloud: str) -> list[str]:
    """The values of the variables `names`, in that order.

    Raises:
        MissingCredentials: one is unset or empty, naming every variable of the set.
    """
    values = [env.get(name) or "" for name in names]
    if not all(values):
        unset = ", ".join(name for name, value in zip(names, values, strict=True) if not value)
        partly = f" ({unset} not set)" if len(unset.split(", ")) < len(names) else ""
        raise MissingCredentials(f"no {cloud} credentials: set {' and '.join(names)}{partly} ({DOCS})")
    return values


@contextlib.contextmanager
def aws_credentials() -> Iterator[None]:
    """Inside the block, the AWS SDK finding no credentials (botocore's `NoCredentialsError`,
    `PartialCredentialsError`) raises `MissingCredentials` with the fix `check` gives."""
    from botocore.exceptions import NoCredentialsError, PartialCredentialsError

    from profiles.preflight.aws_api import CREDENTIALS_FIX

    try:
        yield
    except (NoCredentialsError, PartialCredentialsError) as exc:
        raise MissingCredentials(f"no AWS credentials ({exc}); {CREDENTIALS_FIX} ({DOCS})") from None


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
