"""Signed calls to the Tencent Cloud CVM API 3.0 (version 2017-03-12) over `requests`.

Signature TC3-HMAC-SHA256, as Tencent's "Signature v3" page documents it: a canonical request
(`POST`, `/`, empty query, the `content-type` and `host` headers, SHA-256 of the body), a
string to sign (`TC3-HMAC-SHA256`, timestamp, `<UTC date>/cvm/tc3_request`, SHA-256 of the
canonical request), and a key derived with HMAC-SHA256 from `"TC3" + SecretKey` through the
date, the service and `tc3_request`. The page's worked example (DescribeInstances at
timestamp 1551113065) gives signature `72e494ea...525168`; the tests check this module
against it. Common parameters travel as `X-TC-Action`, `X-TC-Region`, `X-TC-Timestamp` and
`X-TC-Version` headers; the endpoint is `https://cvm.tencentcloudapi.com/`.

Every answer is HTTP 200 with `{"Response": {..., "RequestId"}}`; a failure carries
`Response.Error` `{Code, Message}` (Tencent's common error codes): `RequestLimitExceeded*`
is throttling, `AuthFailure*` a wrong or unauthorised key, `UnauthorizedOperation*` a CAM
policy without `cvm:DescribeZoneInstanceConfigInfos`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import requests

from profiles.catalog.fetchers import FetchError
from profiles.catalog.fetchers.http_json import PARTIAL_ERRORS, THROTTLED, TIMEOUT_SECONDS

API = "Tencent Cloud CVM API"
HOST = "cvm.tencentcloudapi.com"
URL = f"https://{HOST}/"
SERVICE, VERSION = "cvm", "2017-03-12"
CONTENT_TYPE = "application/json; charset=utf-8"
ID_ENV, KEY_ENV = "TENCENTCLOUD_SECRET_ID", "TENCENTCLOUD_SECRET_KEY"
AUTH_CODES = ("AuthFailure", "UnauthorizedOperation")


@dataclass(frozen=True)
class Credentials:
    """A Tencent Cloud API key pair (never printed)."""

    secret_id: str
    secret_key: str

    def __repr__(self) -> str:
        return f"Credentials(secret_id={self.secret_id!r}, secret_key=***)"


def credentials_from_env(environ: Mapping[str, str] = os.environ) -> Credentials:
    """The key pair from `TENCENTCLOUD_SECRET_ID` / `TENCENTCLOUD_SECRET_KEY`.

    Raises:
        FetchError: either variable is missing or empty.
    """
    secret_id, secret_key = environ.get(ID_ENV, "").strip(), environ.get(KEY_ENV, "").strip()
    if not secret_id or not secret_key:
        raise FetchError(f"Tencent Cloud prices need an API key: set {ID_ENV} and {KEY_ENV} "
                         "(a CAM user allowed cvm:DescribeZoneInstanceConfigInfos)")
    return Credentials(secret_id, secret_key)


def _hmac(key: bytes, message: str) -> bytes:
    return hmac.new(key, message.encode(), hashlib.sha256).digest()


def authorization(credentials: Credentials, payload: str, timestamp: int,
                  content_type: str = CONTENT_TYPE, host: str = HOST, service: str = SERVICE) -> str:
    """The `Authorization` header (TC3-HMAC-SHA256) of a POST with JSON body `payload`."""
    date = dt.datetime.fromtimestamp(timestamp, dt.timezone.utc).strftime("%Y-%m-%d")
    canonical = "\n".join(["POST", "/", "", f"content-type:{content_type}\nhost:{host}\n", "content-type;host",
                           hashlib.sha256(payload.encode()).hexdigest()])
    scope = f"{date}/{service}/tc3_request"
    to_sign = "\n".join(["TC3-HMAC-SHA256", str(timestamp), scope, hashlib.sha256(canonical.encode()).hexdigest()])
    key = _hmac(_hmac(_hmac(f"TC3{credentials.secret_key}".encode(), date), service), "tc3_request")
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    return (f"TC3-HMAC-SHA256 Credential={credentials.secret_id}/{scope}, "
            f"SignedHeaders=content-type;host, Signature={signature}")


def call(session: Any, action: str, region: str, body: Mapping[str, Any], credentials: Credentials,
         where: str, timestamp: int | None = None) -> dict:
    """One CVM API call; returns the `Response` object.

    Raises:
        FetchError: throttling, denied access, a broken or malformed answer, or another
            API error.
    """
    payload = json.dumps(body, separators=(",", ":"), sort_keys=True)
    stamp = int(time.time()) if timestamp is None else timestamp
    headers = {"Authorization": authorization(credentials, payload, stamp), "Content-Type": CONTENT_TYPE,
               "Host": HOST, "X-TC-Action": action, "X-TC-Region": region, "X-TC-Timestamp": str(stamp),
               "X-TC-Version": VERSION}
    try:
        response = session.post(URL, data=payload.encode(), headers=headers, timeout=TIMEOUT_SECONDS)
    except PARTIAL_ERRORS:
        raise FetchError(f"{where}: the answer broke off mid-page (partial page); run the refresh again") from None
    except requests.exceptions.RequestException as exc:
        raise FetchError(f"{where}: request failed ({type(exc).__name__}); check the network and retry") from None
    if response.status_code in THROTTLED:
        raise FetchError(f"{where}: throttled (HTTP {response.status_code}); wait a minute and run the refresh again")
    try:
        answer = response.json().get("Response")
    except (ValueError, AttributeError):
        answer = None
    if response.status_code != 200 or not isinstance(answer, dict):
        raise FetchError(f"{where}: no Response object in the answer (malformed, HTTP {response.status_code}); "
                         "run the refresh again")
    _raise_error(answer.get("Error"), where)
    return answer


def _raise_error(error: Any, where: str) -> None:
    """Raise the FetchError for a `Response.Error`, if there is one."""
    if error is None:
        return
    code = str(error.get("Code", "")) if isinstance(error, dict) else ""
    message = " ".join(str(error.get("Message", "")).split())[:160] if isinstance(error, dict) else str(error)
    if code.startswith("RequestLimitExceeded"):
        raise FetchError(f"{where}: throttled ({code}); wait a minute and run the refresh again")
    if code.startswith(AUTH_CODES):
        raise FetchError(f"{where}: access denied ({code}: {message}); check {ID_ENV}/{KEY_ENV} and that "
                         "the CAM policy allows cvm:DescribeZoneInstanceConfigInfos")
    raise FetchError(f"{where}: {code or 'error'}: {message}; retry later")
