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

Signing is the documented APIG "SDK-HMAC-SHA256" AK/SK scheme, the same canonical request
as `huaweicloudsdkcore.signer.Signer` (checked against it with known answers in the tests).
BSS is a global service, so AK/SK calls carry `X-Domain-Id` (the APIG signing guide: "AK/SK
认证方式下，全局服务的接口调用，需在请求消息头中配置X-Domain-Id").
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
from typing import Any, NamedTuple
from urllib.parse import quote, urlsplit

from profiles.catalog.fetchers import FetchError
from profiles.catalog.fetchers.http_json import PARTIAL_ANSWER, json_or_none, one_line, send, throttled
from profiles.catalog.fetchers.key_pair import env_values

API = "Huawei BSS ListOnDemandResourceRatings"
URL = "https://bss.myhuaweicloud.com/v2/bills/ratings/on-demand-resources"
ENV = ("HUAWEICLOUD_SDK_AK", "HUAWEICLOUD_SDK_SK", "HUAWEICLOUD_SDK_DOMAIN_ID", "HUAWEICLOUD_SDK_PROJECT_ID")
ALGORITHM = "SDK-HMAC-SHA256"
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


def signed_headers(creds: Credentials, body: bytes, when: dt.datetime, url: str = URL) -> dict[str, str]:
    """Headers of a signed JSON POST to `url` (no query string) at UTC time `when`."""
    parts = urlsplit(url)
    headers = {"Content-Type": "application/json;charset=UTF-8", "Host": parts.netloc,
               "X-Domain-Id": creds.domain_id, "X-Sdk-Date": when.strftime("%Y%m%dT%H%M%SZ")}
    names = sorted(name.lower() for name in headers)
    lowered = {name.lower(): value.strip() for name, value in headers.items()}
    path = "/".join(quote(part, safe="~") for part in parts.path.split("/"))
    canonical = "\n".join(["POST", path if path.endswith("/") else path + "/", "",
                           "".join(f"{name}:{lowered[name]}\n" for name in names), ";".join(names),
                           hashlib.sha256(body).hexdigest()])
    to_sign = f"{ALGORITHM}\n{headers['X-Sdk-Date']}\n{hashlib.sha256(canonical.encode()).hexdigest()}"
    signature = hmac.new(creds.sk.encode(), to_sign.encode(), hashlib.sha256).hexdigest()
    headers["Authorization"] = f"{ALGORITHM} Access={creds.ak}, SignedHeaders={';'.join(names)}, Signature={signature}"
    return headers


def post_ratings(session: Any, creds: Credentials, products: list[dict], where: str,
                 when: dt.datetime | None = None) -> dict[str, Any]:
    """One signed rating request; the decoded answer after the error checks.

    Raises:
        NotSold: BSS found no product for a flavor asked.
        FetchError: throttled, auth refused, another HTTP error, a broken or malformed answer.
    """
    body = json.dumps({"project_id": creds.project_id, "inquiry_precision": 1, "product_infos": products},
                      separators=(",", ":")).encode()
    headers = signed_headers(creds, body, when or dt.datetime.now(dt.timezone.utc))
    response = send(session.post, URL, f"{API}, {where}", partial=PARTIAL_ANSWER, data=body, headers=headers)
    answer = json_or_none(response)
    check_status(response.status_code, answer if isinstance(answer, dict) else {}, where)
    if not isinstance(answer, dict):
        raise FetchError(f"{API}, {where}: the answer is not a JSON object (malformed or cut short); retry")
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
        raise FetchError(f"{API}, {where}: authentication refused ({detail}); check HUAWEICLOUD_SDK_AK/SK "
                         "and HUAWEICLOUD_SDK_DOMAIN_ID")
    if status == 403:
        raise FetchError(f"{API}, {where}: access denied ({detail}: {message}); grant the IAM user BSS read access")
    if code == NOT_SOLD or (code == WRAPPER and NOT_SOLD in str(answer.get("error_msg"))):
        raise NotSold(f"{API}, {where}: {message or 'product not found'} ({detail})")
    raise FetchError(f"{API}, {where}: {detail}" + (f" ({message})" if message else "") + "; retry later")
