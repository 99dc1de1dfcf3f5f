"""Volcengine billing `QueryPriceForPayAsYouGo` (version 2022-01-01) over HTTP: credentials,
HMAC-SHA256 request signing, one signed POST and its error checks (one-line `FetchError`s).

Shapes (official `volcengine-python-sdk`, package `volcenginesdkbilling`): the SDK posts
JSON to `/?Action=QueryPriceForPayAsYouGo&Version=2022-01-01` on the global billing host
`billing.volcengineapi.com` (its endpoint table marks billing global; the API overview names
that address). Request `{"Product", "ConfigList": [{"ChargeItemCode", "ConfigurationCode",
"Count", "Quantity", "UseDuration"}]}`; answer `{"ResponseMetadata": {..., "Error"?},
"Result": {"Currency", "TotalOriginalAmount", "TotalDiscountAmount", "ConfigList":
[{"ChargeItemCode", "ConfigurationCode", "OriginalAmount", "DiscountAmount", "Price",
"Quantity", "DiscountDetail"}]}}`, amounts as strings. Any `ResponseMetadata.Error` is a
failure, whatever the HTTP status (as the SDK treats it).

Signing follows `volcenginesdkcore.signv4.SignerV4` (checked against it with known answers
in the tests): headers Content-Type, Host, X-Date, X-Content-Sha256 signed; credential scope
`<date>/<region>/billing/request`. The signing region of this global API is not documented
here; `cn-beijing` is what a third-party multi-cloud pricing tool uses (unverified).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
from typing import Any, NamedTuple
from urllib.parse import quote

from profiles.catalog.fetchers import FetchError
from profiles.catalog.fetchers.http_json import PARTIAL_ANSWER, json_or_none, one_line, send, throttled
from profiles.catalog.fetchers.key_pair import env_values

API = "Volcengine billing QueryPriceForPayAsYouGo"
HOST = "billing.volcengineapi.com"
QUERY = {"Action": "QueryPriceForPayAsYouGo", "Version": "2022-01-01"}
SIGNING_REGION, SERVICE = "cn-beijing", "billing"
ENV = ("VOLCENGINE_ACCESS_KEY", "VOLCENGINE_SECRET_KEY")
# Volcengine OpenAPI common error codes (as quoted by public clients of the API).
THROTTLE_CODES = frozenset({"FlowLimitExceeded", "ServiceUnavailableTemp"})
AUTH_CODES = frozenset({"InvalidAccessKey", "SignatureDoesNotMatch", "InvalidAuthorization",
                        "InvalidCredential", "InvalidSecretToken", "AccessDenied"})


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


def _hmac(key: bytes, text: str) -> bytes:
    return hmac.new(key, text.encode(), hashlib.sha256).digest()


def signed_headers(creds: Credentials, body: bytes, when: dt.datetime, query: dict[str, str] = QUERY,
                   region: str = SIGNING_REGION) -> dict[str, str]:
    """Headers of a signed JSON POST to `https://HOST/` with `query`, at UTC time `when`."""
    date = when.strftime("%Y%m%dT%H%M%SZ")
    digest = hashlib.sha256(body).hexdigest()
    headers = {"Content-Type": "application/json", "Host": HOST, "X-Content-Sha256": digest, "X-Date": date}
    names = sorted(name.lower() for name in headers)
    lowered = {name.lower(): value for name, value in headers.items()}
    canonical_query = "&".join(f"{quote(k, safe='-_.~')}={quote(v, safe='-_.~')}" for k, v in sorted(query.items()))
    canonical = "\n".join(["POST", "/", canonical_query, "".join(f"{n}:{lowered[n]}\n" for n in names),
                           ";".join(names), digest])
    scope = f"{date[:8]}/{region}/{SERVICE}/request"
    to_sign = "\n".join(["HMAC-SHA256", date, scope, hashlib.sha256(canonical.encode()).hexdigest()])
    key = creds.sk.encode()
    for part in (date[:8], region, SERVICE, "request"):
        key = _hmac(key, part)
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    headers["Authorization"] = (f"HMAC-SHA256 Credential={creds.ak}/{scope}, "
                                f"SignedHeaders={';'.join(names)}, Signature={signature}")
    return headers


def post_price_query(session: Any, creds: Credentials, request: dict[str, Any], where: str,
                     when: dt.datetime | None = None) -> dict[str, Any]:
    """One signed `QueryPriceForPayAsYouGo`; the `Result` object after the error checks.

    Raises:
        FetchError: throttled, auth refused, an API error, a broken or malformed answer.
    """
    body = json.dumps(request, separators=(",", ":")).encode()
    headers = signed_headers(creds, body, when or dt.datetime.now(dt.timezone.utc))
    response = send(session.post, f"https://{HOST}/", f"{API}, {where}", partial=PARTIAL_ANSWER,
                    params=QUERY, data=body, headers=headers)
    answer = json_or_none(response)
    answer = answer if isinstance(answer, dict) else {}
    check_error(response.status_code, answer, where)
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
        raise FetchError(f"{API}, {where}: authentication refused ({detail}); check VOLCENGINE_ACCESS_KEY/"
                         "SECRET_KEY and the key's billing permissions")
    raise FetchError(f"{API}, {where}: {detail}" + (f" ({message})" if message else "")
                     + "; check the price codes or retry later")
