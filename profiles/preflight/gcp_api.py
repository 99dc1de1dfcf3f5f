"""Shared Compute Engine REST plumbing for the live GCP readers (`trainstack check`'s capacity
signals, `trainstack status`) and `trainstack run`'s job channel writer, through `requests` (imported lazily): no Google SDK is needed.

Credentials as the Pulumi GCP provider takes them: an OAuth access token
(`GOOGLE_OAUTH_ACCESS_TOKEN`, else `gcloud auth print-access-token`) and the project (the
stack's `gcp:project`, else `GOOGLE_PROJECT` / `GOOGLE_CLOUD_PROJECT` / `CLOUDSDK_CORE_PROJECT`,
else `gcloud config get-value project`). Every failure becomes one line (`PreflightError`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from profiles.preflight.cloud_cli import tool_output, unreachable
from profiles.preflight.finding import PreflightError
from profiles.short_text import one_line

COMPUTE = "https://compute.googleapis.com/compute/v1"
TPU = "https://tpu.googleapis.com/v2"  # Cloud TPU API v2 (queued resources)
LOGIN_FIX = "log in with `gcloud auth login` (and set a project), or set GOOGLE_OAUTH_ACCESS_TOKEN and GOOGLE_PROJECT"
PROJECT_VARIABLES = ("GOOGLE_PROJECT", "GOOGLE_CLOUD_PROJECT", "CLOUDSDK_CORE_PROJECT")
TIMEOUT = 60  # seconds a call may take (a choice)
MAX_PAGES = 20  # pages of a list read at most (`nextPageToken`); a choice that bounds the reading


def _gcloud(*args: str) -> str:
    return tool_output(["gcloud", *args], "no GCP credentials", LOGIN_FIX, TIMEOUT)


def credentials(settings: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None) -> tuple[str, str]:
    """(access token, project id).

    Args:
        settings: the stack file's `config:` (its `gcp:project`, when set).
        env: the environment (default `os.environ`).

    Raises:
        PreflightError: no token or no project: one line saying why (`gcloud` is not installed,
            or `gcloud auth print-access-token` failed with its first line of stderr) and the fix.
    """
    env = os.environ if env is None else env
    token = env.get("GOOGLE_OAUTH_ACCESS_TOKEN") or _gcloud("auth", "print-access-token")
    project = str((settings or {}).get("gcp:project") or "")
    project = project or next((env[v] for v in PROJECT_VARIABLES if env.get(v)), "")
    project = project or _gcloud("config", "get-value", "project")
    if not project:
        raise PreflightError(f"no GCP project: set gcp:project in the stack file or GOOGLE_PROJECT; {LOGIN_FIX}")
    return token, project


def get(path: str, token: str, params: Mapping[str, str] | None = None, base: str = COMPUTE) -> dict[str, Any]:
    """GET `base/path` (the Compute Engine API unless another, e.g. `TPU`); the JSON answer.

    Raises:
        PreflightError: no answer, or the API's error (code and message on one line).
    """
    return call("GET", path, token, params=params, base=base)


def call(
    method: str,
    path: str,
    token: str,
    body: dict | None = None,
    params: Mapping[str, str] | None = None,
    base: str = COMPUTE,
) -> dict[str, Any]:
    """`method` on `base/path` with the JSON `body` (a POST such as `instances.setMetadata`); the
    JSON answer (an Operation for a change).

    Raises:
        PreflightError: no answer, or the API's error (code and message on one line).
    """
    import requests

    headers = {"Authorization": f"Bearer {token}"}
    try:
        answer = requests.request(method, f"{base}/{path}", params=params, json=body, headers=headers, timeout=TIMEOUT)
    except requests.RequestException as exc:
        raise unreachable(f"the Google Cloud API ({base})", exc, TIMEOUT) from None
    if not answer.ok:
        fix = f"; {LOGIN_FIX}" if answer.status_code in (401, 403) else ""
        raise PreflightError(f"GCP {method} {path} failed ({answer.status_code}): {_error(answer)}{fix}")
    return answer.json() if answer.content else {}


def listed(path: str, token: str, params: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Every item of a Compute Engine list (`items`, following `nextPageToken`, at most `MAX_PAGES`)."""
    items: list[dict[str, Any]] = []
    page_token = ""
    for _ in range(MAX_PAGES):
        page = get(path, token, {**(params or {}), **({"pageToken": page_token} if page_token else {})})
        items += page.get("items", [])
        page_token = page.get("nextPageToken", "")
        if not page_token:
            break
    return items


def _error(answer: Any) -> str:
    try:
        error = answer.json().get("error") or {}
    except ValueError:
        return one_line(answer.text or "no message")
    reason = next((e.get("reason") for e in error.get("errors", []) if e.get("reason")), error.get("status", "?"))
    return one_line(f"{reason}: {error.get('message', '')}")
