"""Calls to the Alibaba Cloud ECS API (version 2014-05-26) through the official SDK.

The SDK (`alibabacloud-ecs20140526` on `alibabacloud-tea-openapi`, the `[china]` extra)
picks the region's endpoint (`ecs.<region>.aliyuncs.com`, `ecs-cn-hangzhou.aliyuncs.com`),
signs each call (ACS3-HMAC-SHA256 `Authorization`, `x-acs-action` / `x-acs-version`
headers, the parameters in the query string) and decodes the documented JSON answer. It is
imported on the first call, so resolving never loads it. Answers come back as the API's own
JSON objects (`body.to_map()`), which `alicloud` parses.

Errors come back as HTTP 4xx/5xx with `{"RequestId", "HostId", "Code", "Message",
"Recommend"}`, raised by the SDK as `ClientException` / `ServerException` /
`ThrottlingException` carrying that body. `Throttling`, `Throttling.User` and
`Throttling.Api` mean "slow down" (DescribePrice / DescribeInstanceModificationPrice error
tables); `InvalidAccessKeyId.*`, `SignatureDoesNotMatch`, `IncompleteSignature` and
`Forbidden*` mean the key or its RAM policy is wrong. `InvalidInstanceType.ValueNotSupported`,
`InstanceType.Offline` and `PriceNotFound` mean "this type has no price here" and are raised
as `NotPriced`, which the fetcher skips. Anything else the SDK cannot decode (a body that is
not JSON, a connection that broke) reaches us wrapped in its `UnretryableException`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from profiles.catalog.fetchers import FetchError
from profiles.catalog.fetchers.http_json import (
    BROKEN_OFF,
    THROTTLED,
    TIMEOUT_SECONDS,
    error_fields,
    in_chain,
    network_error,
    throttled,
    unexplained,
)
from profiles.catalog.fetchers.key_pair import KeyPair
from profiles.catalog.fetchers.sdk import load

API = "Alibaba Cloud ECS API"
PACKAGE = "alibabacloud-ecs20140526"
KEY_ID_ENV, SECRET_ENV = "ALIBABA_CLOUD_ACCESS_KEY_ID", "ALIBABA_CLOUD_ACCESS_KEY_SECRET"
AUTH_CODES = (
    "InvalidAccessKeyId",
    "SignatureDoesNotMatch",
    "IncompleteSignature",
    "Forbidden",
    "InvalidSecurityToken",
    "NoPermission",
)
NOT_PRICED_CODES = frozenset({"InvalidInstanceType.ValueNotSupported", "InstanceType.Offline", "PriceNotFound"})
# operation -> (SDK request model, SDK client method)
OPERATIONS = {
    "DescribePrice": ("DescribePriceRequest", "describe_price_with_options"),
    "DescribeSpotPriceHistory": ("DescribeSpotPriceHistoryRequest", "describe_spot_price_history_with_options"),
}


class Credentials(KeyPair):
    """An Alibaba Cloud AccessKey pair: `key_id` the AccessKey ID, `secret` its secret (never printed)."""

    ENV = (KEY_ID_ENV, SECRET_ENV)
    NEED = "Alibaba Cloud prices need an AccessKey"
    WHO = "a RAM user allowed ecs:DescribePrice and ecs:DescribeSpotPriceHistory"


class NotPriced(Exception):
    """The API has no price for this instance type in this region (`Code` in the message)."""


# `(environ=os.environ) -> Credentials`; FetchError when either variable is missing or empty.
credentials_from_env = Credentials.read_env


def new_client(credentials: Credentials, region: str) -> Callable[[str, dict[str, Any], str], dict]:
    """`call(action, params, where)` on the SDK's ECS client for `region` (the SDK imported here).

    `params` are the SDK request model's fields (`region_id`, `instance_type`, ...); `call`
    returns the answer's JSON object, or raises `NotPriced` / `FetchError` (see `call`).

    Raises:
        FetchError: the SDK is not installed.
    """
    ecs = load("alibabacloud_ecs20140526.client", PACKAGE, API)
    models = load("alibabacloud_ecs20140526.models", PACKAGE, API)
    openapi = load("alibabacloud_tea_openapi.models", "alibabacloud-tea-openapi", API)
    runtime = load("darabonba.runtime", "alibabacloud-tea-openapi", API)
    client = ecs.Client(
        openapi.Config(access_key_id=credentials.key_id, access_key_secret=credentials.secret, region_id=region)
    )
    options = runtime.RuntimeOptions(connect_timeout=TIMEOUT_SECONDS * 1000, read_timeout=TIMEOUT_SECONDS * 1000)

    def call(action: str, params: dict[str, Any], where: str) -> dict:
        model, method = OPERATIONS[action]
        return _send(lambda: getattr(client, method)(getattr(models, model)(**params), options), where)

    return call


def _send(request: Callable[[], Any], where: str) -> dict:
    """The JSON object of one SDK call, after the error checks.

    Raises:
        NotPriced: the type has no price in this region.
        FetchError: throttling, denied access, a broken or malformed answer, another error.
    """
    from darabonba.exceptions import ResponseException, UnretryableException

    try:
        body = request().body
    except ResponseException as exc:
        raise _error(exc.status_code or 0, exc.data, where) from None
    except UnretryableException as exc:
        if in_chain(exc.inner_exception, ValueError) and not in_chain(exc.inner_exception, BROKEN_OFF):
            raise _malformed(where) from None
        raise network_error(where, exc.inner_exception) from None
    answer = body.to_map() if body is not None else None
    if not isinstance(answer, dict):
        raise _malformed(where)
    return answer


def _malformed(where: str) -> FetchError:
    return FetchError(f"{where}: the answer is not a JSON object (malformed); run the refresh again")


def _error(status: int, body: Any, where: str) -> Exception:
    """The exception for an HTTP error answer (`body` its decoded error object)."""
    code, message = error_fields(body, "Code", "Message")
    if code.startswith("Throttling") or (status in THROTTLED and not code):
        return throttled(where, code or f"HTTP {status}")
    if code in NOT_PRICED_CODES:
        return NotPriced(code)
    if code.startswith(AUTH_CODES):
        return FetchError(
            f"{where}: access denied ({code}: {message}); check {KEY_ID_ENV}/{SECRET_ENV} and "
            "that the RAM user may call ecs:DescribePrice and ecs:DescribeSpotPriceHistory"
        )
    return unexplained(where, status, code, message)
