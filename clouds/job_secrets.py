"""Secrets in a job's environment (`job.env: {WANDB_API_KEY: {secret: wandbKey}}`), pure.

A stack file, a node's user data and `trainstack plan` hold only a secret's reference, never
its value. Two references:

- `{secret: KEY}`: the value is the Pulumi secret config `trainstack:secrets.KEY` (set with
  `pulumi config set --secret --path 'trainstack:secrets.KEY' VALUE -s STACK`: encrypted in the
  stack file, a secret Output in the program and in the state). The cluster copies it into the
  cloud's secret store (`SecretStore.own_name`) and lets only the nodes' identity read that one
  secret.
- `{store: ID}`: an existing secret in the cloud's store, which the nodes' identity is allowed
  to read (that one secret), in the form the cloud's `SecretStore.store_id` gives.

The node agent reads each value with the node's own identity every time it starts the job
(`nodeagent.secrets`) and hands it to the training processes' environment only: no file on
the node holds it. Each cloud with a path declares its store (`Cloud.secret_store`,
`clouds/<cloud>/secrets.py`); the others refuse a reference in one line naming the field
(`secret_problem`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

SECRETS_KEY = "secrets"  # the Pulumi config object `trainstack:secrets`
_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(frozen=True)
class SecretStore:
    """One cloud's secret store, as its `clouds/<cloud>/secrets.py` declares it (`STORE`, named
    by the cloud's `secret_store`).

    Attributes:
        service: the store's name (`AWS Secrets Manager`).
        store_id: an existing secret's full id, the form its IAM can grant on exactly (one
            secret, no wildcard); `example` shows one.
        own_name: (cluster, env name) -> the name the cluster gives the store's copy of a
            `{secret: KEY}` value.
        locator: (cluster, region, env name, `{store: ID}` or None) -> where a node reads the
            secret (`nodeagent.secrets`: `{"store": <cloud>, "id": ..., ...}`).
    """

    service: str
    store_id: re.Pattern[str]
    example: str
    own_name: Callable[[str, str], str]
    locator: Callable[[str, str, str, str | None], dict[str, str]]


def secret_store(provider: str) -> SecretStore | None:
    """The cloud's `SecretStore`, or None when its nodes read no secret store yet."""
    from clouds.base import load
    from clouds.registry import CLOUDS

    cloud = CLOUDS.get(provider)
    return load(cloud.secret_store) if cloud is not None and cloud.secret_store else None


class SecretRef(BaseModel):
    """Where one `job.env` value comes from: exactly one of `secret` or `store`.

    Attributes:
        secret: a key of the Pulumi secret config `trainstack:secrets`.
        store: an existing secret in the cloud's secret store (its ARN, name or resource id).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    secret: str | None = Field(default=None, description="Key of the trainstack:secrets config.")
    store: str | None = Field(default=None, description="Existing secret in the cloud's store.")

    def model_post_init(self, __context: object) -> None:
        if (self.secret is None) == (self.store is None):
            raise ValueError(
                "give exactly one of secret (a key of trainstack:secrets) or store (an existing secret in the "
                "cloud's secret store), e.g. {secret: wandbKey}"
            )
        if self.secret is not None and not _KEY.fullmatch(self.secret):
            raise ValueError(
                f"secret: {self.secret!r} is not a config key; use 1-64 letters, digits, '_' or '-', e.g. wandbKey"
            )


def secret_refs(job: Any) -> dict[str, SecretRef]:
    """The job's environment names whose value is a secret reference (None job: none)."""
    if job is None:
        return {}
    if _LAST_JOB[0] is not job:
        _LAST_JOB[:] = [job, {name: value for name, value in job.env.items() if isinstance(value, SecretRef)}]
    return dict(_LAST_JOB[1])


# [job, its references] of the last job asked: `resolve` asks once per catalog row (`secret_problem`),
# always with the workload's one job, and scanning a job with a long `env` every time was most of a
# `resolve` of it. A job is frozen (`JobConfig`), so the same object always has the same references.
_LAST_JOB: list = [None, {}]


def plain_env(job: Any) -> dict[str, str]:
    """The job's environment values written as they are (no secret reference)."""
    return {name: value for name, value in job.env.items() if isinstance(value, str)}


def secret_problem(provider: str, platform: str | None, job: Any) -> str | None:
    """Why the job's secret references cannot reach its nodes (one line naming the field and
    the fix), or None: a cloud or platform with no path yet, or a `store` id that is not one
    exact secret of the cloud's store."""
    for name, ref in secret_refs(job).items():
        if platform is not None:
            return (
                f"job.env.{name}: secrets reach VM stacks' nodes only; a {platform} job gets no secret from trainstack "
                "yet; give it through the platform's own secret support, or run on the cloud's VMs"
            )
        store = secret_store(provider)
        if store is None:
            return (
                f"job.env.{name}: {provider} has no secret store trainstack's nodes read yet; put the value in a file "
                f"on the shared file system (chmod 600) and give its path as {name}_FILE"
            )
        if ref.store is not None and not store.store_id.fullmatch(ref.store):
            return (
                f"job.env.{name}.store: {ref.store!r} is not one {store.service} secret; give its full id, "
                f"e.g. {store.example}"
            )
    return None


def missing_secret(job: Any, keys: Any, stack: str = "STACK") -> str | None:
    """Why a `{secret: KEY}` has no value (one line with the fix), or None.

    Args:
        job: the cluster's job, or None.
        keys: the keys `trainstack:secrets` holds (a mapping or any iterable of keys), or None.
        stack: the stack's name, for the fix's `-s` (the placeholder `STACK` when unknown).
    """
    have = set(keys or ())
    for name, ref in secret_refs(job).items():
        if ref.secret is not None and ref.secret not in have:
            return (
                f"job.env.{name}: trainstack:secrets.{ref.secret} is not set; run pulumi config set --secret "
                f"--path 'trainstack:secrets.{ref.secret}' VALUE -s {stack}"
            )
    return None


def node_secrets(provider: str, cluster: str, region: str, job: Any) -> dict[str, dict[str, str]]:
    """Each secret environment name -> where the node agent reads it (`SecretStore.locator`;
    references only, never a value); {} without secrets or a store."""
    store = secret_store(provider)
    refs = secret_refs(job)
    if store is None or not refs:
        return {}
    return {name: store.locator(cluster, region, name, ref.store) for name, ref in refs.items()}


def secret_values(config: Mapping[str, Any] | None, job: Any) -> dict[str, Any]:
    """Each `{secret: KEY}` environment name -> its value in `trainstack:secrets` (`config`)."""
    values = config or {}
    return {name: values[ref.secret] for name, ref in secret_refs(job).items() if ref.secret is not None}


def stored_secrets_problem(value: Any, stack: str = "STACK") -> str | None:
    """Why a stack file's `trainstack:secrets` is not all encrypted (one line, never the value),
    or None. Pulumi writes a value set with `--secret` as `{secure: v1:...}`, encrypted with
    the stack's secrets provider; anything else is plain text in the file. `stack` names the
    stack in the fix's `-s` (the placeholder `STACK` when unknown)."""
    if value is None:
        return None
    fix = f"pulumi config set --secret --path 'trainstack:secrets.{{key}}' VALUE -s {stack}"
    if not isinstance(value, dict):
        return f"trainstack:secrets: not a map of secret values; set each one with {fix.format(key='KEY')}"
    for key, item in value.items():
        if not (isinstance(item, dict) and set(item) == {"secure"}):
            return (
                f"trainstack:secrets.{key}: stored in plain text in the stack file; delete it there and set it "
                f"encrypted with {fix.format(key=key)}"
            )
    return None
