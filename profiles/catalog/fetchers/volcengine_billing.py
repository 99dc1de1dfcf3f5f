"""Volcengine billing `QueryPriceForPayAsYouGo` (version 2022-01-01) through the official SDK:
credentials, one signed POST and its error checks (one-line `FetchError`s).

The SDK (`volcenginesdkbilling` on `volcenginesdkcore`, packages of `volcengine-python-sdk`,
the `[china]` extra; imported on the first call, so resolving never loads it) calls the
global billing host `billing.volcengineapi.com` (the API overview names it; left to itself,
the SDK would send a region outside its bootstrap list to `open.volcengineapi.com`), signs
with HMAC-SHA256 (`X-Date`, `X-Content-Sha256`; credential scope
`<date>/<region>/billing/request`) and POSTs JSON to
`/?Action=QueryPriceForPayAsYouGo&Version=2022-01-01`. Request `{"Product", "ConfigList":
[{"ChargeItemCode", "ConfigurationCode", "Count", "Quantity", "UseDuration"}]}`; answer
`{"ResponseMetadata": {..., "Error"?}, "Result": {"Currency", "TotalOriginalAmount",
"TotalDiscountAmount", "ConfigList": [{"ChargeItemCode", "ConfigurationCode", "OriginalAmount",
"DiscountAmount", "Price", "Quantity", "DiscountDetail"}]}}`, amounts as strings. Any
`ResponseMetadata.Error` is a failure, whatever the HTTP status (as the SDK treats it). The
answer is read as the API sent it (an HTTP error's body from the SDK's `ApiException`, a 200
answer from the client's `last_response`), so every error keeps its code and message.

The signing region of this global API is not documented here; `cn-beijing` is what a
third-party multi-cloud pricing tool uses (unverified).
"""

from __future__ import annotations

import http.client
import json
from typing import Any, NamedTuple

from profiles.catalog.fetchers import FetchError
from profiles.catalog.fetchers.http_json import PARTIAL_ANSWER, TIMEOUT_SECONDS, network_error, one_line, throttled
from profiles.catalog.fetchers.key_pair import env_values
from profiles.catalog.fetchers.sdk import load

API = "Volcengine billing QueryPriceForPayAsYouGo"
PACKAGE = "volcenginesdkbilling"
HOST = "billing.volcengineapi.com"
SIGNING_REGION = "cn-beijing"
ENV = ("VOLCENGINE_ACCESS_KEY", "VOLCENGINE_SECRET_KEY")
# Volcengine OpenAPI common error codes (as quoted by public clients of the API).
THROTTLE_CODES = frozenset({"FlowLimitExceeded", "ServiceUnavailableTemp"})
AUTH_CODES = frozenset(
    {
        "InvalidAccessKey",
        "SignatureDoesNotMatch",
        "InvalidAuthorization",
        "InvalidCredential",
        "InvalidSecretToken",
        "AccessDenied",
    }
)


class Credentials(NamedTuple):
    """Access key pair from the SDK's documented environment variables."""

    ak: str
    sk: str

    def __repr__(self) -> str:  # the secret key never reaches a log or traceback
        return f"Credentials(ak={self.ak!r}, sk=***)"


def credentials_from_env() -> Credentials:
    """`VOLCENGINE_ACCESS_KEY` and `VOLCENGINE_SECRET_KEY` (the SDK's env provider names).

    Raises:
        FetchError: one or both unset (the message names them).
    """
    return Credentials(*env_values(ENV, "Volcengine credentials"))


def new_api(creds: Credentials, endpoint: str | None = None) -> Any:
    """The SDK's `BILLINGApi`, signing with `creds` (the SDK imported here).

    Args:
        creds: the access key pair.
        endpoint: `scheme://host[:port]` to call instead of `https://billing.volcengineapi.com`.

    Raises:
        FetchError: the SDK is not installed.
    """
    core = load("volcenginesdkcore", "volcenginesdkcore", API)
    billing = load("volcenginesdkbilling", PACKAGE, API)
    config = core.Configuration()
    config.ak, config.sk, config.region = creds.ak, creds.sk, SIGNING_REGION
    config.connect_timeout = config.read_timeout = float(TIMEOUT_SECONDS)
    config.auto_retry = False  # a refresh is re-run by hand; throttling is reported, not waited out
    config.host = endpoint or HOST
    return billing.BILLINGApi(core.ApiClient(config))


def post_price_query(api: Any, request: dict[str, Any], where: str) -> dict[str, Any]:
    """One `QueryPriceForPayAsYouGo` through the SDK; the `Result` object after the error checks.

    Args:
        api: `new_api(...)`.
        request: `{"Product", "ConfigList": [{"ChargeItemCode", "ConfigurationCode", "Quantity",
            "UseDuration"}]}` (the API's names).
        where: the message prefix after the API name ("ecs.gni2.3xlarge in cn-beijing").

    Raises:
        FetchError: throttled, auth refused, an API error, a broken or malformed answer.
    """
    import urllib3
    from volcenginesdkcore.rest import ApiException

    billing = load("volcenginesdkbilling", PACKAGE, API)
    items = [
        billing.ConfigListForQueryPriceForPayAsYouGoInput(
            charge_item_code=i["ChargeItemCode"],
            configuration_code=i["ConfigurationCode"],
            quantity=i["Quantity"],
            use_duration=i["UseDuration"],
        )
        for i in request["ConfigList"]
    ]
    body = billing.QueryPriceForPayAsYouGoRequest(product=request["Product"], config_list=items)
    status, raw = 200, None
    try:
        api.query_price_for_pay_as_you_go(body)
    except ApiException as exc:
        if exc.body is not None:  # an HTTP error status, with its body
            status, raw = exc.status, exc.body
        elif exc.status != 200:  # no answer: the SDK's wrapper of a TLS or request-building error
            raise FetchError(
                f"{API}, {where}: request failed (HTTP client error); check the network and retry"
            ) from None
        # else a 200 answer the SDK refused (ResponseMetadata.Error, or none): read below
    except (ValueError, AttributeError, TypeError):
        pass  # a 200 answer the SDK could not decode (not a JSON object): read below
    except (urllib3.exceptions.HTTPError, http.client.HTTPException, OSError) as exc:
        raise network_error(f"{API}, {where}", exc, PARTIAL_ANSWER) from None
    if raw is None:  # a 200 answer: the body the SDK read, as the API sent it
        raw = api.api_client.last_response.data
    try:
        answer = json.loads(raw)
    except ValueError:
        answer = None
    answer = answer if isinstance(answer, dict) else {}
    check_error(status, answer, where)
    result = answer.get("Result")
    if not isinstance(result, dict):
        raise FetchError(f"{API}, {where}: no 'Result' object (malformed or cut short); run the refresh again")
    return result


def check_error(status: int, answer: dict[str, Any], where: str) -> None:
    """Raise the one-line error an HTTP status and `ResponseMetadata.Error` stand for."""
    meta = answer.get("ResponseMetadata")
    error = meta.get("Error") if isinstance(meta, dict) else None
    if status == 200 and error is None:
        return
    error = error if isinstance(error, dict) else {}
    code = str(error.get("Code") or "")
    detail = f"HTTP {status}" + (f", {code}" if code else "")
    message = one_line(error.get("Message", ""))
    if status in (429, 503) or code in THROTTLE_CODES:
        raise throttled(f"{API}, {where}", detail)
    if status in (401, 403) or code in AUTH_CODES:
        raise FetchError(
            f"{API}, {where}: authentication refused ({detail}); check VOLCENGINE_ACCESS_KEY/"
            "SECRET_KEY and the key's billing permissions"
        )
    raise FetchError(
        f"{API}, {where}: {detail}" + (f" ({message})" if message else "") + "; check the price codes or retry later"
    )
