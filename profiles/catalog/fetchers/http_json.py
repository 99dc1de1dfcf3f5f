"""HTTP calls to price APIs, where every failure becomes a one-line `FetchError`.

`get_json` GETs one page as a JSON object over `requests` (the Azure and GCP fetchers, and
`cfets`). The China clouds' fetchers call their official SDKs and share the pieces below
for the answers those return: `in_chain` (a `requests`, `urllib3` or `json` error inside an
SDK's own), `error_fields`, `throttled`, `unexplained` and the partial-answer wordings.
Messages never include the request URL, because a GCP URL carries the API key in its query
string, nor an error page's body.
"""

from __future__ import annotations

import http.client
from collections.abc import Callable
from typing import Any

import requests
import urllib3

from profiles.catalog.fetchers import FetchError
from profiles.short_text import one_line as short_line

# Status codes that mean "slow down": 429 Too Many Requests (Azure Retail Prices and Google
# APIs both answer it when throttling) and 503 Service Unavailable.
THROTTLED = frozenset({429, 503})
TIMEOUT_SECONDS = 60
PARTIAL_ERRORS = (requests.exceptions.ChunkedEncodingError, requests.exceptions.ContentDecodingError)
# The same, as `urllib3` and `http.client` raise it (the SDKs that do not use `requests`).
BROKEN_OFF = (*PARTIAL_ERRORS, urllib3.exceptions.ProtocolError, http.client.IncompleteRead)
# How a connection that broke mid-answer is worded: a page of a list, or a single answer.
PARTIAL_PAGE = "the answer broke off mid-page (partial page)"
PARTIAL_ANSWER = "the answer broke off (partial answer)"
MESSAGE_CHARS = 160  # an API's error message is cut to this many characters


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
    response = send(session.get, url, where, params=params)
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
    return f" ({one_line(message)})"


def send(method: Callable[..., requests.Response], url: str, where: str, **kwargs: Any) -> requests.Response:
    """`method(url, timeout=TIMEOUT_SECONDS, **kwargs)`, whatever its HTTP status.

    Args:
        method: a bound request method, e.g. `session.get`.
        url: the URL (never put in a message).
        where: prefix for messages, e.g. `Azure Retail Prices API, page 2`.
        **kwargs: the rest of the request (`params`, `headers`).

    Returns:
        The response (any status).

    Raises:
        FetchError: the connection broke mid-answer (partial page), or the request failed.
    """
    try:
        return method(url, timeout=TIMEOUT_SECONDS, **kwargs)
    except PARTIAL_ERRORS:
        raise FetchError(f"{where}: {PARTIAL_PAGE}; run the refresh again") from None
    except requests.exceptions.RequestException as exc:
        raise FetchError(f"{where}: request failed ({type(exc).__name__}); check the network and retry") from None


def in_chain(exc: BaseException | None, kinds: type[BaseException] | tuple[type[BaseException], ...]) -> bool:
    """Whether `exc`, or an exception it was raised from or while handling, is one of `kinds`.

    The SDKs re-raise `requests`', `urllib3`'s and `json`'s errors as their own: `in_chain(exc,
    ValueError)` finds a body that is not JSON.
    """
    return any(isinstance(link, kinds) for link in _chain(exc))


def network_error(where: str, exc: BaseException, partial: str = PARTIAL_PAGE) -> FetchError:
    """The error for an SDK call that got no whole answer: `partial` when the connection broke
    mid-answer, else `request failed (<the innermost error's name>)`."""
    if in_chain(exc, BROKEN_OFF):
        return FetchError(f"{where}: {partial}; run the refresh again")
    name = type(_chain(exc)[-1]).__name__
    return FetchError(f"{where}: request failed ({name}); check the network and retry")


def _chain(exc: BaseException | None) -> list[BaseException]:
    """`exc` and the exceptions it was raised from or while handling, outermost first."""
    links: list[BaseException] = []
    while exc is not None and len(links) < 10:  # a chain is short; a cycle must not loop forever
        links.append(exc)
        exc = exc.__cause__ or exc.__context__
    return links


def one_line(text: Any) -> str:
    """`text` on one line with single spaces, at most `MESSAGE_CHARS` characters; an HTML
    error page becomes its title (`profiles.short_text.one_line`)."""
    return short_line(text, MESSAGE_CHARS)


def error_fields(body: Any, code_key: str, message_key: str) -> tuple[str, str]:
    """(code, one-line message) of an API error object; ("", "") when `body` is not an object."""
    if not isinstance(body, dict):
        return "", ""
    return str(body.get(code_key, "")), one_line(body.get(message_key, ""))


def throttled(where: str, detail: str) -> FetchError:
    """The error for an API that asked to slow down; `detail` is the code or `HTTP <status>`."""
    return FetchError(f"{where}: throttled ({detail}); wait a minute and run the refresh again")


def unexplained(where: str, status: int, code: str, message: str) -> FetchError:
    """The error for a failed answer no more specific check explained.

    A 200 answer, or one without an error code, is malformed; otherwise the message gives the
    HTTP status, the code and the API's message.
    """
    if status == 200 or not code:
        return FetchError(f"{where}: the answer is not a JSON object (malformed, HTTP {status}); run the refresh again")
    return FetchError(f"{where}: HTTP {status} {code}: {message}; retry later")
