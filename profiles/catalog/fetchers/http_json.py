"""GET one page of a price API as a JSON object; every failure becomes a one-line `FetchError`.

Shared by the Azure and GCP fetchers. Messages never include the request URL, because a
GCP URL carries the API key in its query string.
"""

from __future__ import annotations

from typing import Any

import requests

from profiles.catalog.fetchers import FetchError

# Status codes that mean "slow down": 429 Too Many Requests (Azure Retail Prices and Google
# APIs both answer it when throttling) and 503 Service Unavailable.
THROTTLED = frozenset({429, 503})
TIMEOUT_SECONDS = 60
PARTIAL_ERRORS = (requests.exceptions.ChunkedEncodingError, requests.exceptions.ContentDecodingError)


def get_json(
    session: Any,
    url: str,
    *,
    api: str,
    page: int,
    params: dict[str, str] | None = None,
    hints: dict[int, str] | None = None,
) -> dict[str, Any]:
    """One page of `api` as a decoded JSON object.

    Args:
        session: a `requests.Session` (or anything with the same `get`).
        url: page URL; a next-page link already carries its query string.
        api: the API's name for messages ("Azure Retail Prices API").
        page: 1-based page number, for messages.
        params: query parameters, or None.
        hints: HTTP status -> what the user should do (e.g. 400 -> "set a valid API key").

    Returns:
        The page's JSON object.

    Raises:
        FetchError: throttled (HTTP 429/503), another HTTP error, a connection that broke
            mid-page (partial page), a body that is not a JSON object (malformed).
    """
    where = f"{api}, page {page}"
    try:
        response = session.get(url, params=params, timeout=TIMEOUT_SECONDS)
    except PARTIAL_ERRORS:
        raise FetchError(f"{where}: the answer broke off mid-page (partial page); run the refresh again") from None
    except requests.exceptions.RequestException as exc:
        raise FetchError(f"{where}: request failed ({type(exc).__name__}); check the network and retry") from None
    status = response.status_code
    if status in THROTTLED:
        retry = response.headers.get("Retry-After")
        wait = f"wait {retry} s" if retry and retry.isdigit() else "wait a few minutes"
        raise FetchError(f"{where}: throttled (HTTP {status}); {wait} and run the refresh again")
    if status != 200:
        hint = (hints or {}).get(status, "retry later")
        raise FetchError(f"{where}: HTTP {status}{_error_detail(response)}; {hint}")
    try:
        body = response.json()
    except ValueError:
        message = f"{where}: the answer is not valid JSON (malformed or cut short); run the refresh again"
        raise FetchError(message) from None
    if not isinstance(body, dict):
        raise FetchError(f"{where}: the answer is not a JSON object (malformed); run the refresh again")
    return body


def _error_detail(response: requests.Response) -> str:
    """` (message)` from a Google-style `{"error": {"message": ...}}` body, else ``."""
    try:
        message = response.json()["error"]["message"]
    except (ValueError, KeyError, TypeError):
        return ""
    return f" ({' '.join(str(message).split())[:160]})"
