"""Shared ARM REST plumbing for the live Azure readers (`trainstack check`'s capacity signals,
`trainstack status`), through `requests` (imported lazily): no Azure SDK is needed.

Credentials, as `trainstack run` takes them for Azure ML: an ARM access token
(`AZURE_ACCESS_TOKEN`, else `az account get-access-token`) and the subscription
(`AZURE_SUBSCRIPTION_ID`, else `az account show`). Every failure becomes one line
(`PreflightError`) naming the call and the fix.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from profiles.preflight.cloud_cli import tool_output, unreachable
from profiles.preflight.finding import PreflightError
from profiles.short_text import one_line

ARM = "https://management.azure.com"
LOGIN_FIX = "log in with `az login`, or set AZURE_ACCESS_TOKEN and AZURE_SUBSCRIPTION_ID"
# Seconds a call may take (a choice: ARM reads answer in about a second).
TIMEOUT = 60
# Pages of a list read at most (ARM pages by `nextLink`); a choice that bounds the reading.
MAX_PAGES = 20


def _az(*args: str) -> str:
    return tool_output(["az", *args, "-o", "tsv"], "no Azure credentials", LOGIN_FIX, TIMEOUT)


def credentials(env: Mapping[str, str] | None = None) -> tuple[str, str]:
    """(ARM access token, subscription id) from the environment, else the Azure CLI.

    Raises:
        PreflightError: neither is there: one line saying why (`az` is not installed, or
            `az account get-access-token` failed with its first line of stderr) and how to log in.
    """
    env = os.environ if env is None else env
    token = env.get("AZURE_ACCESS_TOKEN") or _az("account", "get-access-token", "--query", "accessToken")
    subscription = env.get("AZURE_SUBSCRIPTION_ID") or _az("account", "show", "--query", "id")
    return token, subscription


def _send(method: str, path: str, token: str, api_version: str, body: dict | None, params: dict[str, str] | None):
    """The `requests` answer of one ARM call that succeeded.

    Raises:
        PreflightError: no answer, or ARM's error (its code and message on one line).
    """
    import requests

    url = path if path.startswith("https://") else f"{ARM}{path}?api-version={api_version}"
    headers = {"Authorization": f"Bearer {token}"}
    try:
        answer = requests.request(method, url, params=params, json=body, headers=headers, timeout=TIMEOUT)
    except requests.RequestException as exc:
        raise unreachable("Azure Resource Manager", exc, TIMEOUT) from None
    if answer.status_code in (401, 403):
        raise PreflightError(
            f"Azure refused {method} {path.split('?')[0]} ({answer.status_code}): {_error(answer)}; {LOGIN_FIX}"
        )
    if not answer.ok:
        raise PreflightError(f"Azure {method} {path.split('?')[0]} failed ({answer.status_code}): {_error(answer)}")
    return answer


def call(
    method: str,
    path: str,
    token: str,
    api_version: str,
    body: dict | None = None,
    params: dict[str, str] | None = None,
) -> dict[str, Any]:
    """One ARM call: `method` on `ARM + path` (no query) with `api_version` and `params`; the JSON
    answer (a `nextLink` URL is called as it is).

    Raises:
        PreflightError: no answer, or ARM's error (its code and message on one line).
    """
    answer = _send(method, path, token, api_version, body, params)
    return answer.json() if answer.content else {}


def started(method: str, path: str, token: str, api_version: str, body: dict | None = None) -> str:
    """Start a long-running ARM operation; the URL to poll (`Azure-AsyncOperation`, else
    `Location`: "Track asynchronous Azure operations", Azure Resource Manager docs).

    Raises:
        PreflightError: ARM refused the call, or answered with neither header.
    """
    answer = _send(method, path, token, api_version, body, None)
    url = answer.headers.get("Azure-AsyncOperation") or answer.headers.get("Location")
    if not url:
        raise PreflightError(f"Azure {method} {path.split('?')[0]}: no operation to follow ({answer.status_code})")
    return str(url)


def listed(path: str, token: str, api_version: str, params: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Every item of an ARM list (`value`, following `nextLink`, at most `MAX_PAGES` pages)."""
    items: list[dict[str, Any]] = []
    next_path: str | None = path
    for _ in range(MAX_PAGES):
        if next_path is None:
            break
        page = call("GET", next_path, token, api_version, params=None if next_path.startswith("https://") else params)
        items += page.get("value", [])
        next_path = page.get("nextLink")
    return items


def _error(answer: Any) -> str:
    try:
        error = answer.json().get("error") or {}
    except ValueError:
        return one_line(answer.text or "no message")
    return one_line(f"{error.get('code', '?')}: {error.get('message', '')}")
