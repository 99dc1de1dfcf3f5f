"""Read the job's secrets with the node's own identity, each time the job starts (stdlib only).

The job file names where each secret is (`clouds.job_secrets.node_secrets`), never its value.
The launcher reads them here just before it starts torchrun and hands them to the training
processes' environment only; nothing is written to disk or logged. A failure names the
environment variable and the store, never a value, and the launcher exits non-zero (systemd
starts it again after its restart delay).

- AWS: `aws secretsmanager get-secret-value --secret-id ID --region R --output json` through the
  AWS CLI the Deep Learning AMI ships, with the instance profile's credentials (its answer is
  the documented `GetSecretValue` response: `SecretString`).
- GCP: `GET https://secretmanager.googleapis.com/v1/{name}:access` with the VM service
  account's token from the metadata server (the answer's `payload.data` is base64); a name under
  `projects/-/` is the node's own project (metadata `project/project-id`).
- Azure: a Key Vault token from the instance metadata service's managed-identity endpoint
  (`resource=https://vault.azure.net`; the scale set has one user-assigned identity, so no
  client id is needed), then `GET {secret URL}?api-version=7.4` (the answer's `value`).
"""

from __future__ import annotations

import base64
import json
import subprocess
import urllib.parse
from collections.abc import Callable, Mapping

from nodeagent.metadata import http

GCP_METADATA = "http://metadata.google.internal"
GCP_SECRETS_API = "https://secretmanager.googleapis.com/v1"
AZURE_METADATA = "http://169.254.169.254"
KEY_VAULT_API_VERSION = "7.4"  # Key Vault data-plane REST API version
Http = Callable[..., tuple[int, dict, str]]


class SecretError(Exception):
    """A secret that could not be read (the message names the variable and store, no value)."""


def _aws_cli(argv: list[str]) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    if done.returncode != 0:
        raise SecretError(done.stderr.strip().splitlines()[-1][:300] if done.stderr.strip() else "aws failed")
    return done.stdout


def _json(status: int, text: str, what: str) -> dict:
    if status != 200:
        raise SecretError(f"{what} answered HTTP {status}")
    try:
        answer = json.loads(text)
    except ValueError:
        raise SecretError(f"{what} answered something that is not JSON") from None
    if not isinstance(answer, dict):
        raise SecretError(f"{what} answered something that is not a JSON object")
    return answer


def read_aws(where: Mapping[str, str], run: Callable[[list[str]], str] = _aws_cli) -> str:
    """One Secrets Manager secret's `SecretString`."""
    argv = ["aws", "secretsmanager", "get-secret-value", "--secret-id", where["id"]]
    answer = json.loads(run([*argv, "--region", where["region"], "--output", "json"]))
    if "SecretString" not in answer:
        raise SecretError("the secret holds binary data, not text (SecretString)")
    return str(answer["SecretString"])


def read_gcp(where: Mapping[str, str], call: Http = http, metadata: str = GCP_METADATA) -> str:
    """One Secret Manager version's payload, decoded as UTF-8."""
    flavor = {"Metadata-Flavor": "Google"}
    name = where["id"]
    if name.startswith("projects/-/"):
        status, _, project = call(f"{metadata}/computeMetadata/v1/project/project-id", headers=flavor)
        if status != 200:
            raise SecretError(f"the metadata server answered HTTP {status} for the project id")
        name = f"projects/{project.strip()}/{name.removeprefix('projects/-/')}"
    token_url = f"{metadata}/computeMetadata/v1/instance/service-accounts/default/token"
    token = _json(*call(token_url, headers=flavor)[::2], "the metadata server")["access_token"]
    answer = _json(
        *call(f"{GCP_SECRETS_API}/{name}:access", headers={"Authorization": f"Bearer {token}"}, timeout=30)[::2],
        "Secret Manager",
    )
    return base64.b64decode(answer.get("payload", {}).get("data", "")).decode()


def read_azure(where: Mapping[str, str], call: Http = http, metadata: str = AZURE_METADATA) -> str:
    """One Key Vault secret's current value."""
    query = urllib.parse.urlencode({"api-version": "2018-02-01", "resource": "https://vault.azure.net"})
    token_url = f"{metadata}/metadata/identity/oauth2/token?{query}"
    token = _json(*call(token_url, headers={"Metadata": "true"})[::2], "the managed-identity endpoint")["access_token"]
    url = f"{where['id']}?api-version={KEY_VAULT_API_VERSION}"
    answer = _json(*call(url, headers={"Authorization": f"Bearer {token}"}, timeout=30)[::2], "Key Vault")
    return str(answer["value"])


READERS: dict[str, Callable[..., str]] = {"aws": read_aws, "gcp": read_gcp, "azure": read_azure}


def read_secrets(secrets: Mapping[str, Mapping[str, str]], **readers_args: Callable) -> dict[str, str]:
    """Environment name -> value of every secret in the job file's `secrets`.

    Args:
        secrets: `NodeJob.secrets`.
        readers_args: `run=` (the AWS CLI) or `call=` (HTTP) for the tests; the real ones by default.

    Raises:
        SecretError: one line naming the variable and the store (never a value).
    """
    values = {}
    for name, where in secrets.items():
        reader = READERS.get(where.get("store", ""))
        if reader is None:
            raise SecretError(f"{name}: unknown secret store {where.get('store')!r}")
        wanted = {k: v for k, v in readers_args.items() if k in reader.__code__.co_varnames}
        try:
            values[name] = reader(where, **wanted)
        except (SecretError, KeyError, ValueError, OSError) as exc:
            raise SecretError(f"{name}: cannot read {where.get('id')} from the {where['store']} store: {exc}") from None
    return values
