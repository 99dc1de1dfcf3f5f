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
from typing import Any

from profiles.catalog.fetchers import FetchError
from profiles.catalog.fetchers.http_json import THROTTLED, error_fields, json_or_none, send, throttled
from profiles.catalog.fetchers.key_pair import KeyPair

API = "Tencent Cloud CVM API"
HOST = "cvm.tencentcloudapi.com"
URL = f"https://{HOST}/"
SERVICE, VERSION = "cvm", "2017-03-12"
CONTENT_TYPE = "application/json; charset=utf-8"
ID_ENV, KEY_ENV = "TENCENTCLOUD_SECRET_ID", "TENCENTCLOUD_SECRET_KEY"
AUTH_CODES = ("AuthFailure", "UnauthorizedOperation")


class Credentials(KeyPair):
    """A Tencent Cloud API key pair: `key_id` the SecretId, `secret` the SecretKey (never printed)."""


def credentials_from_env(environ: Mapping[str, str] = os.environ) -> Credentials:
    """The key pair from `TENCENTCLOUD_SECRET_ID` / `TENCENTCLOUD_SECRET_KEY`.

    Raises:
        FetchError: either variable is missing or empty.
    """
    return Credentials.from_env(ID_ENV, KEY_ENV, environ=environ, need="Tencent Cloud prices need an API key",
                                who="a CAM user allowed cvm:DescribeZoneInstanceConfigInfos")


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
    key = _hmac(_hmac(_hmac(f"TC3{credentials.secret}".encode(), date), service), "tc3_request")
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    return (f"TC3-HMAC-SHA256 Credential={credentials.key_id}/{scope}, "
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
    response = send(session.post, URL, where, data=payload.encode(), headers=headers)
    if response.status_code in THROTTLED:
        raise throttled(where, f"HTTP {response.status_code}")
    body = json_or_none(response)
    answer = body.get("Response") if isinstance(body, dict) else None
    if response.status_code != 200 or not isinstance(answer, dict):
        raise FetchError(f"{where}: no Response object in the answer (malformed, HTTP {response.status_code}); "
                         "run the refresh again")
    _raise_error(answer.get("Error"), where)
    return answer


def _raise_error(error: Any, where: str) -> None:
    """Raise the FetchError for a `Response.Error`, if there is one."""
    if error is None:
        return
    code, message = error_fields(error, "Code", "Message") if isinstance(error, dict) else ("", str(error))
    if code.startswith("RequestLimitExceeded"):
        raise throttled(where, code)
    if code.startswith(AUTH_CODES):
        raise FetchError(f"{where}: access denied ({code}: {message}); check {ID_ENV}/{KEY_ENV} and that "
                         "the CAM policy allows cvm:DescribeZoneInstanceConfigInfos")
    raise FetchError(f"{where}: {code or 'error'}: {message}; retry later")
