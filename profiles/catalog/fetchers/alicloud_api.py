"""Signed calls to the Alibaba Cloud ECS RPC API (version 2014-05-26) over `requests`.

Signature version 1.0 (HMAC-SHA1), as the Alibaba "RPC signature" page documents it: sort
the parameters, percent-encode names and values (RFC 3986: space -> %20, `*` -> %2A, `~`
kept), sign `GET&%2F&<encoded canonical query>` with `<AccessKeySecret>&`, base64. The page's
worked example (DescribeRegions, key `testid`/`testsecret`) gives `OLeaidS1JvxuMvnyHOwuJ+uX5qY=`;
the tests check this module against it. One endpoint, `https://ecs.aliyuncs.com/`, serves
every region through the `RegionId` parameter (DescribePrice doc request example).

Errors come back as HTTP 4xx/5xx with `{"RequestId", "HostId", "Code", "Message",
"Recommend"}`. `Throttling`, `Throttling.User` and `Throttling.Api` mean "slow down"
(DescribePrice / DescribeInstanceModificationPrice error tables); `InvalidAccessKeyId.*`,
`SignatureDoesNotMatch`, `IncompleteSignature` and `Forbidden*` mean the key or its RAM
policy is wrong. `InvalidInstanceType.ValueNotSupported`, `InstanceType.Offline` and
`PriceNotFound` mean "this type has no price here" and are raised as `NotPriced`, which the
fetcher skips.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import os
import uuid
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from profiles.catalog.fetchers import FetchError
from profiles.catalog.fetchers.http_json import THROTTLED, error_fields, json_or_none, send, throttled, unexplained
from profiles.catalog.fetchers.key_pair import KeyPair

API = "Alibaba Cloud ECS API"
ENDPOINT = "https://ecs.aliyuncs.com/"
VERSION = "2014-05-26"
KEY_ID_ENV, SECRET_ENV = "ALIBABA_CLOUD_ACCESS_KEY_ID", "ALIBABA_CLOUD_ACCESS_KEY_SECRET"
AUTH_CODES = ("InvalidAccessKeyId", "SignatureDoesNotMatch", "IncompleteSignature", "Forbidden",
              "InvalidSecurityToken", "NoPermission")
NOT_PRICED_CODES = frozenset({"InvalidInstanceType.ValueNotSupported", "InstanceType.Offline", "PriceNotFound"})


class Credentials(KeyPair):
    """An Alibaba Cloud AccessKey pair: `key_id` the AccessKey ID, `secret` its secret (never printed)."""


class NotPriced(Exception):
    """The API has no price for this instance type in this region (`Code` in the message)."""


def credentials_from_env(environ: Mapping[str, str] = os.environ) -> Credentials:
    """The AccessKey pair from `ALIBABA_CLOUD_ACCESS_KEY_ID` / `_SECRET`.

    Raises:
        FetchError: either variable is missing or empty.
    """
    return Credentials.from_env(KEY_ID_ENV, SECRET_ENV, environ=environ, need="Alibaba Cloud prices need an AccessKey",
                                who="a RAM user allowed ecs:DescribePrice and ecs:DescribeSpotPriceHistory")


def percent_encode(value: str) -> str:
    """RFC 3986 percent-encoding as Alibaba signs it (`a b*c~` -> `a%20b%2Ac~`)."""
    return quote(value, safe="~")


def string_to_sign(params: Mapping[str, str], method: str = "GET") -> str:
    """`GET&%2F&` + the percent-encoded, sorted canonical query."""
    canonical = "&".join(f"{percent_encode(k)}={percent_encode(v)}" for k, v in sorted(params.items()))
    return f"{method}&{percent_encode('/')}&{percent_encode(canonical)}"


def sign(params: Mapping[str, str], secret: str, method: str = "GET") -> str:
    """Base64 HMAC-SHA1 of `string_to_sign`, keyed with `<secret>&`."""
    digest = hmac.new(f"{secret}&".encode(), string_to_sign(params, method).encode(), hashlib.sha1).digest()
    return base64.b64encode(digest).decode()


def signed_query(action: str, params: Mapping[str, Any], credentials: Credentials,
                 now: dt.datetime | None = None, nonce: str | None = None) -> dict[str, str]:
    """The full query string of one call: common parameters, `params`, then `Signature`."""
    stamp = (now or dt.datetime.now(dt.timezone.utc)).strftime("%Y-%m-%dT%H:%M:%SZ")
    query = {"Action": action, "Format": "JSON", "Version": VERSION, "AccessKeyId": credentials.key_id,
             "SignatureMethod": "HMAC-SHA1", "SignatureVersion": "1.0",
             "SignatureNonce": nonce or uuid.uuid4().hex, "Timestamp": stamp,
             **{key: str(value) for key, value in params.items()}}
    return {**query, "Signature": sign(query, credentials.secret)}


def call(session: Any, action: str, params: Mapping[str, Any], credentials: Credentials, where: str) -> dict:
    """One ECS API call, decoded.

    Args:
        session: a `requests.Session`.
        action: API operation, e.g. `DescribePrice`.
        params: its parameters (`RegionId`, ...).
        credentials: the AccessKey pair.
        where: prefix for messages, e.g. `Alibaba Cloud ECS API, DescribePrice ecs.gn7i-c8g1.2xlarge in cn-beijing`.

    Returns:
        The answer's JSON object.

    Raises:
        NotPriced: the type has no price in this region.
        FetchError: throttling, denied access, a broken or malformed answer, another error.
    """
    response = send(session.get, ENDPOINT, where, params=signed_query(action, params, credentials))
    body = json_or_none(response)
    if response.status_code == 200 and isinstance(body, dict) and "Code" not in body:
        return body
    raise _error(response.status_code, body, where)


def _error(status: int, body: Any, where: str) -> Exception:
    """The exception for a failed call (an HTTP error or a 200 answer that is not an object)."""
    code, message = error_fields(body, "Code", "Message")
    if code.startswith("Throttling") or (status in THROTTLED and not code):
        return throttled(where, code or f"HTTP {status}")
    if code in NOT_PRICED_CODES:
        return NotPriced(code)
    if code.startswith(AUTH_CODES):
        return FetchError(f"{where}: access denied ({code}: {message}); check {KEY_ID_ENV}/{SECRET_ENV} and "
                          "that the RAM user may call ecs:DescribePrice and ecs:DescribeSpotPriceHistory")
    return unexplained(where, status, code, message)
