"""Huawei Cloud BSS `ListOnDemandResourceRatings` over HTTP: credentials, AK/SK signing,
one signed POST, and the checks that turn every bad answer into a one-line `FetchError`.

API (official, support.huaweicloud.com/api-oce/bcloud_01001.html):
`POST https://bss.myhuaweicloud.com/v2/bills/ratings/on-demand-resources` with
`{"project_id", "inquiry_precision", "product_infos": [<= 100 DemandProductInfo]}`; the
answer is `{"amount", "discount_amount", "official_website_amount", "measure_id",
"currency", "product_rating_results": [{"id", "product_id", "amount", "discount_amount",
"official_website_amount", "measure_id", "discount_rating_results"}]}` (field set from the
official SDK model `huaweicloudsdkbss` v2 `ListOnDemandResourceRatingsResponse`). `currency`
empty means CNY; `measure_id` 1 means yuan. `official_website_amount` is the public list
price; `amount` includes the account's own discounts and is not used. The endpoint is the
China site's (CNY); the project ID may be any valid project of the account, whatever region
is priced (BSS FAQ "project_id 项目ID与您询价的产品region无关").

The call goes through the official SDK (`huaweicloudsdkbss` v2 `BssClient` on
`huaweicloudsdkcore`, the `[china]` extra; imported on the first call, so resolving never
loads it). It signs with the APIG "SDK-HMAC-SHA256" AK/SK scheme and, BSS being a global
service, signs with `GlobalCredentials`, which send `X-Domain-Id` (the APIG signing guide:
"AK/SK 认证方式下，全局服务的接口调用，需在请求消息头中配置X-Domain-Id"). The answer is read
from the SDK response's raw body, in the API's documented JSON; an HTTP error arrives as the
SDK's `ClientRequestException` / `ServerResponseException` with the status and the APIG/BSS
`error_code` and `error_msg`.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from profiles.catalog.fetchers import FetchError
from profiles.catalog.fetchers.http_json import (
    PARTIAL_ANSWER,
    PARTIAL_ERRORS,
    TIMEOUT_SECONDS,
    network_error,
    one_line,
    throttled,
)
from profiles.catalog.fetchers.key_pair import env_values
from profiles.catalog.fetchers.sdk import load

API = "Huawei BSS ListOnDemandResourceRatings"
PACKAGE = "huaweicloudsdkbss"
SDK_REGION = "cn-north-1"  # the SDK's BssRegion for the China site, https://bss.myhuaweicloud.com
ENV = ("HUAWEICLOUD_SDK_AK", "HUAWEICLOUD_SDK_SK", "HUAWEICLOUD_SDK_DOMAIN_ID", "HUAWEICLOUD_SDK_PROJECT_ID")
# APIG answers 429 with APIG.0308 when a flow quota is reached (BSS: 20 calls/s for this API).
THROTTLE_CODES = frozenset({"APIG.0308", "APIGW.0308"})
AUTH_CODES = frozenset({"APIG.0301", "APIGW.0301", "APIG.1002"})
# APIG refuses a signature whose X-Sdk-Date is too far from its clock (APIG signing guide FAQ).
CLOCK_CODES = frozenset({"APIG.0303", "APIGW.0303"})
# BSS finds no product for a flavor (not sold in the region): CBC.6006, which also arrives
# nested in the generic wrapper CBC.99006006 (third-party observation, see the fixtures README).
NOT_SOLD, WRAPPER = "CBC.6006", "CBC.99006006"


class Credentials(NamedTuple):
    """AK/SK, account (domain) ID and a project ID, from the SDK's documented variables."""

    ak: str
    sk: str
    domain_id: str
    project_id: str

    def __repr__(self) -> str:  # the secret key never reaches a log or traceback
        return f"Credentials(ak={self.ak!r}, sk=***)"


class NotSold(FetchError):
    """BSS found no product for one of the flavors asked (not sold in that region)."""


def credentials_from_env() -> Credentials:
    """The four `HUAWEICLOUD_SDK_*` variables (names of the official SDK's env provider).

    Raises:
        FetchError: one or more is unset (the message names them).
    """
    return Credentials(*env_values(ENV, "Huawei Cloud credentials", "AK/SK, account ID, any project ID of the account"))


def new_client(creds: Credentials) -> Any:
    """The SDK's `BssClient` for the China site, signing with `creds` (the SDK imported here).

    Raises:
        FetchError: the SDK is not installed.
    """
    bss = load("huaweicloudsdkbss.v2", PACKAGE, API)
    core = load("huaweicloudsdkcore.auth.credentials", "huaweicloudsdkcore", API)
    config = load("huaweicloudsdkcore.http.http_config", "huaweicloudsdkcore", API).HttpConfig.get_default_config()
    config.timeout = TIMEOUT_SECONDS
    region = load("huaweicloudsdkbss.v2.region.bss_region", PACKAGE, API).BssRegion.value_of(SDK_REGION)
    return (
        bss.BssClient.new_builder()
        .with_http_config(config)
        .with_region(region)
        .with_credentials(core.GlobalCredentials(creds.ak, creds.sk, creds.domain_id))
        .build()
    )


def post_ratings(client: Any, creds: Credentials, products: list[dict], where: str) -> dict[str, Any]:
    """One rating request through the SDK client; the decoded answer after the error checks.

    Raises:
        NotSold: BSS found no product for a flavor asked.
        FetchError: throttled, auth refused, another HTTP error, a broken or malformed answer.
    """
    from huaweicloudsdkcore.exceptions.exceptions import SdkException, ServiceResponseException

    bss = load("huaweicloudsdkbss.v2", PACKAGE, API)
    body = bss.RateOnDemandReq(
        project_id=creds.project_id,
        inquiry_precision=1,
        product_infos=[bss.DemandProductInfo(**product) for product in products],
    )
    try:
        response = client.list_on_demand_resource_ratings(bss.ListOnDemandResourceRatingsRequest(body=body))
    except ServiceResponseException as exc:
        # Without an APIG/BSS code in the body the SDK puts the status in error_code and the raw
        # body (perhaps an HTML page) in error_msg: neither is shown.
        code = exc.error_code if exc.error_code != str(exc.status_code) else ""
        check_status(exc.status_code, {"error_code": code, "error_msg": exc.error_msg if code else ""}, where)
        raise  # check_status raises for every status >= 400
    except (SdkException, *PARTIAL_ERRORS) as exc:
        raise network_error(f"{API}, {where}", exc, PARTIAL_ANSWER) from None
    try:
        answer = json.loads(response.raw_content or b"")
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        raise FetchError(f"{API}, {where}: the answer is not a JSON object (malformed or cut short); retry")
    check_status(200, answer, where)  # a 200 answer may still carry a BSS error_code
    return answer


def check_status(status: int, answer: dict[str, Any], where: str) -> None:
    """Raise the one-line error an HTTP status and BSS/APIG `error_code` stand for."""
    code = str(answer.get("error_code") or "")
    if status == 200 and code in ("", "CBC.0000"):
        return
    detail = f"HTTP {status}" + (f", {code}" if code else "")
    message = one_line(answer.get("error_msg", ""))
    if status == 429 or code in THROTTLE_CODES or status == 503:
        raise throttled(f"{API}, {where}", detail)
    if code in CLOCK_CODES:
        raise FetchError(f"{API}, {where}: signature time refused ({detail}); set this machine's clock and retry")
    if status == 401 or code in AUTH_CODES:
        raise FetchError(
            f"{API}, {where}: authentication refused ({detail}); check HUAWEICLOUD_SDK_AK/SK "
            "and HUAWEICLOUD_SDK_DOMAIN_ID"
        )
    if status == 403:
        raise FetchError(f"{API}, {where}: access denied ({detail}: {message}); grant the IAM user BSS read access")
    if code == NOT_SOLD or (code == WRAPPER and NOT_SOLD in str(answer.get("error_msg"))):
        raise NotSold(f"{API}, {where}: {message or 'product not found'} ({detail})")
    raise FetchError(f"{API}, {where}: {detail}" + (f" ({message})" if message else "") + "; retry later")
