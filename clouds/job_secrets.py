"""Secrets in a job's environment (`job.env: {WANDB_API_KEY: {secret: wandbKey}}`), pure.

A stack file, a node's user data and `trainstack plan` hold only a secret's reference, never
its value. Two references:

- `{secret: KEY}`: the value is the Pulumi secret config `trainstack:secrets.KEY` (set with
  `pulumi config set --secret --path 'trainstack:secrets.KEY' VALUE -s STACK`: encrypted in the
  stack file, a secret Output in the program and in the state). The cluster copies it into the
  cloud's secret store (`store_secret_name`) and lets only the nodes' identity read that one
  secret.
- `{store: ID}`: an existing secret in the cloud's store, which the nodes' identity is allowed
  to read (that one secret): an AWS Secrets Manager ARN, a GCP Secret Manager
  `projects/P/secrets/S[/versions/V]`, or an Azure Key Vault secret's resource id.

The node agent reads each value with the node's own identity every time it starts the job
(`nodeagent.secrets`) and hands it to the training processes' environment only: no file on
the node holds it. Clouds without a path yet (no secret store the node agent reads) refuse a
reference in one line naming the field (`secret_problem`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

SECRETS_KEY = "secrets"  # the Pulumi config object `trainstack:secrets`
STORES = {"aws": "AWS Secrets Manager", "gcp": "GCP Secret Manager", "azure": "Azure Key Vault"}
_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")
# The existing-secret forms each store's IAM can grant on exactly (one secret, no wildcard).
_STORE_IDS = {
    # AWS: the full ARN as Secrets Manager shows it (its 6-character suffix included), so the
    # node's policy names exactly that secret.
    "aws": (
        re.compile(
            r"arn:aws(?:-cn|-us-gov)?:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]+-[A-Za-z0-9]{6}"
        ),
        "arn:aws:secretsmanager:us-east-1:123456789012:secret:team/wandb-AbCdEf",
    ),
    "gcp": (
        re.compile(r"projects/[a-z0-9-]{4,63}/secrets/[A-Za-z0-9_-]{1,255}(?:/versions/(?:latest|[0-9]+))?"),
        "projects/my-project/secrets/wandb-key",
    ),
    "azure": (
        re.compile(
            r"/subscriptions/[0-9a-fA-F-]{36}/resourceGroups/[-\w.()]{1,90}/providers/Microsoft\.KeyVault/"
            r"vaults/[A-Za-z0-9-]{3,24}/secrets/[A-Za-z0-9-]{1,127}",
            re.IGNORECASE,
        ),
        "/subscriptions/<id>/resourceGroups/team/providers/Microsoft.KeyVault/vaults/team-kv/secrets/wandb-key",
    ),
}


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
    return {name: value for name, value in job.env.items() if isinstance(value, SecretRef)}


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
        if provider not in STORES:
            return (
                f"job.env.{name}: {provider} has no secret store trainstack's nodes read yet (only "
                f"{', '.join(sorted(STORES))}); put the value in a file on the shared file system (chmod 600) and give "
                f"its path as {name}_FILE"
            )
        if ref.store is not None:
            pattern, example = _STORE_IDS[provider]
            if not pattern.fullmatch(ref.store):
                return (
                    f"job.env.{name}.store: {ref.store!r} is not one {STORES[provider]} secret; give its full id, "
                    f"e.g. {example}"
                )
    return None


def missing_secret(job: Any, keys: Any) -> str | None:
    """Why a `{secret: KEY}` has no value (one line with the fix), or None.

    Args:
        job: the cluster's job, or None.
        keys: the keys `trainstack:secrets` holds (a mapping or any iterable of keys), or None.
    """
    have = set(keys or ())
    for name, ref in secret_refs(job).items():
        if ref.secret is not None and ref.secret not in have:
            return (
                f"job.env.{name}: trainstack:secrets.{ref.secret} is not set; run pulumi config set --secret "
                f"--path 'trainstack:secrets.{ref.secret}' VALUE -s STACK"
            )
    return None


def store_secret_name(provider: str, cluster: str, env_name: str) -> str:
    """The name the cluster gives the store's copy of a `{secret: KEY}` value: AWS
    `trainstack/<cluster>/<ENV>`, GCP `<cluster>-<ENV>` (Secret Manager ids: letters, digits,
    `_`, `-`), Azure `<cluster>-<ENV>` with `_` as `-` (Key Vault names: letters, digits, `-`)."""
    if provider == "aws":
        return f"trainstack/{cluster}/{env_name}"
    if provider == "azure":
        return f"{cluster}-{env_name}".replace("_", "-")
    return f"{cluster}-{env_name}"


def vault_name(cluster: str) -> str:
    """The Key Vault an Azure cluster creates for its `{secret: KEY}` values: `ks` + up to 13
    letters/digits of the name + `-` + 8 hex of its hash (24 characters at most, Key Vault's
    limit; the name is global, as the AML workspace's vault: `clouds.azure.aml`)."""
    alnum = re.sub(r"[^a-z0-9]", "", cluster.lower())
    return f"ks{alnum[:13]}-{hashlib.sha256(cluster.encode()).hexdigest()[:8]}"


def node_secrets(provider: str, cluster: str, region: str, job: Any) -> dict[str, dict[str, str]]:
    """Each secret environment name -> where the node agent reads it (`nodeagent.secrets`):
    `{"store": "aws", "id": NAME_OR_ARN, "region": R}`, `{"store": "gcp", "id":
    "projects/P/secrets/S/versions/V"}` (P `-`: the node's own project, from its metadata server),
    `{"store": "azure", "id": "https://VAULT.vault.azure.net/secrets/NAME"}`. References only."""
    found: dict[str, dict[str, str]] = {}
    for name, ref in secret_refs(job).items():
        own = store_secret_name(provider, cluster, name)
        if provider == "aws":
            arn_region = ref.store.split(":")[3] if ref.store else region
            found[name] = {"store": "aws", "id": ref.store or own, "region": arn_region}
        elif provider == "gcp":
            wanted = ref.store or f"projects/-/secrets/{own}"
            found[name] = {"store": "gcp", "id": wanted if "/versions/" in wanted else f"{wanted}/versions/latest"}
        elif provider == "azure":
            vault, secret = _azure_parts(ref.store) if ref.store else (vault_name(cluster), own)
            found[name] = {"store": "azure", "id": f"https://{vault}.vault.azure.net/secrets/{secret}"}
    return found


def _azure_parts(resource_id: str) -> tuple[str, str]:
    """(vault, secret) of a Key Vault secret's resource id."""
    parts = resource_id.split("/")
    return parts[-3], parts[-1]


def secret_values(config: Mapping[str, Any] | None, job: Any) -> dict[str, Any]:
    """Each `{secret: KEY}` environment name -> its value in `trainstack:secrets` (`config`)."""
    values = config or {}
    return {name: values[ref.secret] for name, ref in secret_refs(job).items() if ref.secret is not None}


def stored_secrets_problem(value: Any) -> str | None:
    """Why a stack file's `trainstack:secrets` is not all encrypted (one line, never the value),
    or None. Pulumi writes a value set with `--secret` as `{secure: v1:...}`, encrypted with
    the stack's secrets provider; anything else is plain text in the file."""
    if value is None:
        return None
    fix = "pulumi config set --secret --path 'trainstack:secrets.{key}' VALUE -s STACK"
    if not isinstance(value, dict):
        return f"trainstack:secrets: not a map of secret values; set each one with {fix.format(key='KEY')}"
    for key, item in value.items():
        if not (isinstance(item, dict) and set(item) == {"secure"}):
            return (
                f"trainstack:secrets.{key}: stored in plain text in the stack file; delete it there and set it "
                f"encrypted with {fix.format(key=key)}"
            )
    return None
