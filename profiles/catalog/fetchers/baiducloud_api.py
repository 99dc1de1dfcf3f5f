"""Calls to the Baidu AI Cloud BCC API (`/v2/...`) through the official `bce-python-sdk`.

The SDK (the `[china]` extra; imported on the first call, so resolving never loads it) signs
each request with `bce-auth-v1` (`baidubce.auth.bce_v1_signer.sign`: `host`, `x-bce-date` and
the content headers signed) and sends it over `http.client`
(`baidubce.http.bce_http_client.send_request`), exactly as `BccClient` does for its own
methods (`BccClient._send_request`), with the same configuration (`BccClient(...).config`).
Only the answer handler differs: `BccClient`'s decodes error bodies that are JSON and loses
the HTTP status of any other, so ours keeps the status and the body, as the API sent them,
for the checks below. Retries are off (`NoRetryPolicy`): a refresh is re-run by hand.

Endpoint `https://bcc.<region>.baidubce.com` (official BCC SDK guide, see
`components/baiducloud/api.py`). Errors are HTTP 4xx/5xx with `{"code", "message",
"requestId"}` (BCC "Error Return" page): `AccessDenied`, `InvalidAccessKeyId`,
`SignatureDoesNotMatch`, `InvalidHTTPAuthHeader` and `RequestExpired` concern the key. The
public common-error table read lists no throttling code, so HTTP 429 and 503 are treated as
throttling (unsourced for Baidu).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from profiles.catalog.fetchers import FetchError
from profiles.catalog.fetchers.http_json import (
    THROTTLED,
    TIMEOUT_SECONDS,
    error_fields,
    network_error,
    throttled,
    unexplained,
)
from profiles.catalog.fetchers.key_pair import KeyPair
from profiles.catalog.fetchers.sdk import load

API = "Baidu AI Cloud BCC API"
PACKAGE = "bce-python-sdk"
AK_ENV, SK_ENV = "BCE_ACCESS_KEY_ID", "BCE_SECRET_ACCESS_KEY"
AUTH_CODES = frozenset(
    {"AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "InvalidHTTPAuthHeader", "RequestExpired"}
)

Call = Callable[..., dict]  # call(method, path, where, body=None) -> the answer's JSON object


class Credentials(KeyPair):
    """A Baidu AI Cloud AK/SK pair: `key_id` the access key ID (AK), `secret` the secret access key
    (SK, never printed)."""

    ENV = (AK_ENV, SK_ENV)
    NEED = "Baidu AI Cloud prices need an access key"
    WHO = "an IAM user that may read BCC specs and prices"


# `(environ=os.environ) -> Credentials`; FetchError when either variable is missing or empty.
credentials_from_env = Credentials.read_env


def endpoint_for(region: str) -> str:
    """The BCC endpoint of a region (`bj` -> `bcc.bj.baidubce.com`)."""
    return f"bcc.{region}.baidubce.com"


def new_client(credentials: Credentials, endpoint: str) -> Call:
    """`call(method, path, where, body=None)` against `endpoint` through the SDK (imported here);
    `path` is the API's (`/v2/instance/price`).

    Args:
        credentials: the AK/SK pair.
        endpoint: `bcc.<region>.baidubce.com` (HTTPS), or `scheme://host:port`.

    Raises:
        FetchError: the SDK is not installed.
    """
    bcc = load("baidubce.services.bcc.bcc_client", PACKAGE, API)
    sdk = load("baidubce.bce_client_configuration", PACKAGE, API)
    auth = load("baidubce.auth.bce_credentials", PACKAGE, API)
    retry = load("baidubce.retry.retry_policy", PACKAGE, API)
    config = bcc.BccClient(
        sdk.BceClientConfiguration(
            credentials=auth.BceCredentials(credentials.key_id, credentials.secret),
            endpoint=endpoint,
            retry_policy=retry.NoRetryPolicy(),
            connection_timeout_in_mills=TIMEOUT_SECONDS * 1000,
        )
    ).config

    def call(method: str, path: str, where: str, body: Mapping[str, Any] | None = None) -> dict:
        return _send(config, method, path.encode(), body, where)

    return call


def _send(config: Any, method: str, path: bytes, body: Mapping[str, Any] | None, where: str) -> dict:
    """One signed call; returns the answer's JSON object.

    Raises:
        FetchError: throttling, denied access, a broken or malformed answer, another error.
    """
    from baidubce.auth import bce_v1_signer
    from baidubce.exception import BceHttpClientError
    from baidubce.http import bce_http_client

    def keep(http_response: Any, response: Any) -> bool:  # the status and body, as sent
        response.status, response.raw = http_response.status, http_response.read()
        http_response.close()
        return True

    data = json.dumps(body) if body is not None else None
    try:
        response = bce_http_client.send_request(
            config, bce_v1_signer.sign, [keep], method.encode(), path, data, None, None
        )
    except BceHttpClientError as exc:
        raise network_error(where, exc.last_error) from None
    try:
        answer = json.loads(response.raw)
    except ValueError:
        answer = None
    if response.status == 200 and isinstance(answer, dict):
        return answer
    raise _error(response.status, answer, where)


def _error(status: int, answer: Any, where: str) -> FetchError:
    """The error for a failed call (an HTTP error or a 200 answer that is not an object)."""
    code, message = error_fields(answer, "code", "message")
    if status in THROTTLED:
        return throttled(where, f"HTTP {status}")
    if code in AUTH_CODES:
        return FetchError(
            f"{where}: access denied ({code}: {message}); check {AK_ENV}/{SK_ENV} and the IAM policy (BCC read access)"
        )
    return unexplained(where, status, code, message)
