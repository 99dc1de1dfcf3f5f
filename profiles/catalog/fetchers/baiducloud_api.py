"""Signed calls to the Baidu AI Cloud BCC API (`/v2/...`) over `requests`.

Authorization `bce-auth-v1`, as Baidu's authentication page and the official `bce-python-sdk`
(`baidubce.auth.bce_v1_signer.sign`) build it: `bce-auth-v1/<ak>/<UTC time>/<seconds>` is
the prefix; the signing key is HMAC-SHA256-hex(secret key, prefix); the signature is
HMAC-SHA256-hex(signing key, `METHOD\\n<path>\\n<sorted encoded query>\\n<sorted encoded
lowercase headers>`). `host` and `x-bce-date` are signed. The tests compare this module with
the SDK's signer (a project dependency) on the same request.

Endpoint `https://bcc.<region>.baidubce.com` (official BCC SDK guide, see
`components/baiducloud/api.py`). Errors are HTTP 4xx/5xx with `{"code", "message",
"requestId"}` (BCC "Error Return" page): `AccessDenied`, `InvalidAccessKeyId`,
`SignatureDoesNotMatch`, `InvalidHTTPAuthHeader` and `RequestExpired` concern the key. The
public common-error table read lists no throttling code, so HTTP 429 and 503 are treated as
throttling (unsourced for Baidu).
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import hmac
import json
import os
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from profiles.catalog.fetchers import FetchError
from profiles.catalog.fetchers.http_json import THROTTLED, error_fields, json_or_none, send, throttled, unexplained
from profiles.catalog.fetchers.key_pair import KeyPair

API = "Baidu AI Cloud BCC API"
AK_ENV, SK_ENV = "BCE_ACCESS_KEY_ID", "BCE_SECRET_ACCESS_KEY"
CONTENT_TYPE = "application/json; charset=utf-8"
EXPIRATION_SECONDS = 1800
AUTH_CODES = frozenset({"AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "InvalidHTTPAuthHeader",
                        "RequestExpired"})


class Credentials(KeyPair):
    """A Baidu AI Cloud AK/SK pair: `key_id` the access key ID (AK), `secret` the secret access key
    (SK, never printed)."""


def credentials_from_env(environ: Mapping[str, str] = os.environ) -> Credentials:
    """The AK/SK pair from `BCE_ACCESS_KEY_ID` / `BCE_SECRET_ACCESS_KEY`.

    Raises:
        FetchError: either variable is missing or empty.
    """
    return Credentials.from_env(AK_ENV, SK_ENV, environ=environ, need="Baidu AI Cloud prices need an access key",
                                who="an IAM user that may read BCC specs and prices")


def canonical_time(timestamp: int) -> str:
    """`2026-12-01T08:00:00Z` (UTC) for a UNIX timestamp."""
    return dt.datetime.fromtimestamp(timestamp, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _encode(value: str) -> str:
    return quote(value, safe="~")


def authorization(credentials: Credentials, method: str, path: str, params: Mapping[str, str],
                  headers: Mapping[str, str], timestamp: int) -> str:
    """The `Authorization` header signing `headers` (all of them) of one request."""
    prefix = f"bce-auth-v1/{credentials.key_id}/{canonical_time(timestamp)}/{EXPIRATION_SECONDS}"
    signing_key = hmac.new(credentials.secret.encode(), prefix.encode(), hashlib.sha256).hexdigest()
    query = "&".join(sorted(f"{_encode(k)}={_encode(str(v))}" for k, v in params.items()))
    lines = "\n".join(sorted(f"{_encode(k.lower())}:{_encode(str(v).strip())}" for k, v in headers.items()))
    canonical = "\n".join([method, quote(path, safe="/~"), query, lines])
    signature = hmac.new(signing_key.encode(), canonical.encode(), hashlib.sha256).hexdigest()
    return f"{prefix}/{';'.join(sorted(k.lower() for k in headers))}/{signature}"


def call(session: Any, method: str, region: str, path: str, credentials: Credentials, where: str,
         body: Mapping[str, Any] | None = None, timestamp: int | None = None) -> dict:
    """One BCC API call in `region`; returns the answer's JSON object.

    Raises:
        FetchError: throttling, denied access, a broken or malformed answer, another error.
    """
    host, stamp = f"bcc.{region}.baidubce.com", int(time.time()) if timestamp is None else timestamp
    signed = {"host": host, "x-bce-date": canonical_time(stamp)}
    headers = {**signed, "Content-Type": CONTENT_TYPE,
               "Authorization": authorization(credentials, method, path, {}, signed, stamp)}
    data = json.dumps(body).encode() if body is not None else None
    response = send(functools.partial(session.request, method), f"https://{host}{path}", where,
                    data=data, headers=headers)
    answer = json_or_none(response)
    if response.status_code == 200 and isinstance(answer, dict):
        return answer
    raise _error(response.status_code, answer, where)


def _error(status: int, answer: Any, where: str) -> FetchError:
    """The error for a failed call (an HTTP error or a 200 answer that is not an object)."""
    code, message = error_fields(answer, "code", "message")
    if status in THROTTLED:
        return throttled(where, f"HTTP {status}")
    if code in AUTH_CODES:
        return FetchError(f"{where}: access denied ({code}: {message}); check {AK_ENV}/{SK_ENV} and the "
                          "IAM policy (BCC read access)")
    return unexplained(where, status, code, message)
