"""Calls to the Tencent Cloud CVM API 3.0 (version 2017-03-12) through the official SDK.

The SDK (`tencentcloud-sdk-python-cvm` on `tencentcloud-sdk-python-common`, the `[china]`
extra) signs each call with TC3-HMAC-SHA256 and POSTs it as JSON to
`https://cvm.tencentcloudapi.com/` with the `X-TC-Action`, `X-TC-Region`, `X-TC-Timestamp`
and `X-TC-Version` headers. It is imported on the first call, so resolving never loads it.

Every answer is HTTP 200 with `{"Response": {..., "RequestId"}}`; a failure carries
`Response.Error` `{Code, Message}` (Tencent's common error codes), which the SDK raises as
`TencentCloudSDKException(code, message)`: `RequestLimitExceeded*` is throttling,
`AuthFailure*` a wrong or unauthorised key, `UnauthorizedOperation*` a CAM policy without
`cvm:DescribeZoneInstanceConfigInfos`. The SDK's own codes: `ClientNetworkError` (the
connection failed or broke mid-answer) and `ServerNetworkError` (an HTTP status other than 200;
its body, perhaps an HTML page, is not shown).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from profiles.catalog.fetchers import FetchError
from profiles.catalog.fetchers.http_json import PARTIAL_ERRORS, network_error, one_line, throttled
from profiles.catalog.fetchers.key_pair import KeyPair
from profiles.catalog.fetchers.sdk import load

API = "Tencent Cloud CVM API"
PACKAGE = "tencentcloud-sdk-python-cvm"
ID_ENV, KEY_ENV = "TENCENTCLOUD_SECRET_ID", "TENCENTCLOUD_SECRET_KEY"
AUTH_CODES = ("AuthFailure", "UnauthorizedOperation")


class Credentials(KeyPair):
    """A Tencent Cloud API key pair: `key_id` the SecretId, `secret` the SecretKey (never printed)."""

    ENV = (ID_ENV, KEY_ENV)
    NEED = "Tencent Cloud prices need an API key"
    WHO = "a CAM user allowed cvm:DescribeZoneInstanceConfigInfos"


# `(environ=os.environ) -> Credentials`; FetchError when either variable is missing or empty.
credentials_from_env = Credentials.read_env


def new_client(credentials: Credentials, region: str) -> Any:
    """The SDK's `CvmClient` for `region`, signing with `credentials` (the SDK imported here).

    Raises:
        FetchError: the SDK is not installed.
    """
    cvm = load("tencentcloud.cvm.v20170312.cvm_client", PACKAGE, API)
    credential = load("tencentcloud.common.credential", PACKAGE, API)
    return cvm.CvmClient(credential.Credential(credentials.key_id, credentials.secret), region)


def call(client: Any, action: str, params: Mapping[str, Any], where: str) -> dict:
    """One CVM API call through the SDK client; returns the `Response` object.

    Raises:
        FetchError: throttling, denied access, a broken or malformed answer, or another
            API error.
    """
    from tencentcloud.common.exception.tencent_cloud_sdk_exception import TencentCloudSDKException

    try:
        answer = client.call_json(action, dict(params))["Response"]
    except TencentCloudSDKException as exc:
        raise _error(exc, where) from None
    except PARTIAL_ERRORS as exc:  # the SDK reads the body after its own network guard
        raise network_error(where, exc) from None
    except (ValueError, KeyError, TypeError):
        answer = None  # a 200 answer that is not JSON, or has no Response object
    if not isinstance(answer, dict):
        raise FetchError(f"{where}: no Response object in the answer (malformed, HTTP 200); run the refresh again")
    return answer


def _error(exc: Any, where: str) -> FetchError:
    """The one-line error for a `TencentCloudSDKException` (API error or the SDK's own)."""
    code, message = str(exc.get_code() or ""), one_line(exc.get_message() or "")
    if code == "ClientNetworkError":
        return FetchError(f"{where}: request failed (ClientNetworkError); check the network and retry")
    if code == "ServerNetworkError":
        return FetchError(f"{where}: an HTTP error without a Response object (ServerNetworkError); retry later")
    if code.startswith("RequestLimitExceeded"):
        return throttled(where, code)
    if code.startswith(AUTH_CODES):
        return FetchError(
            f"{where}: access denied ({code}: {message}); check {ID_ENV}/{KEY_ENV} and that "
            "the CAM policy allows cvm:DescribeZoneInstanceConfigInfos"
        )
    return FetchError(f"{where}: {code or 'error'}: {message}; retry later")
