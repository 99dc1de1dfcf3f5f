"""Baidu AI Cloud API access for the dynamic providers: credentials, endpoints and errors.

Credentials come only from the environment of the process that runs the provider (the
Pulumi CLI passes its environment to the dynamic-provider host); they are never resource
inputs, so they never reach the stack state. Clients are built inside each provider call,
never stored on the provider object, so the pickled provider holds no secret.

Endpoint: `bcc.<region>.baidubce.com` serves the BCC API (official BCC SDK guide: "if the
service is located in Beijing, the endpoint will be bcc.bj.baidubce.com") and the VPC and
subnet APIs too (official VPC API "Create VPC", `Host: bcc.bj.baidubce.com`, updated
2025-10-16). The SDK's own default (`<service>.<region>.bcebos.com`) is a BOS domain, so the
endpoint is always set explicitly.

Errors: a failed call raises `BceHttpClientError` whose message holds every retry's
traceback; `call` turns it into a one-line `BaiduApiError` from the error body
`{"code", "message", "requestId"}` (official VPC API "Common Headers and Error Responses").
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

ACCESS_KEY_ENV = "BCE_ACCESS_KEY_ID"
SECRET_KEY_ENV = "BCE_SECRET_ACCESS_KEY"
ENDPOINT_ENV = "BCE_BCC_ENDPOINT"  # optional override, e.g. a private or financial-cloud region
NOT_FOUND_CODES = frozenset({"NoSuchObject"})


class MissingCredentialsError(RuntimeError):
    """The Baidu access key is not in the environment; the message is one line."""


class BaiduApiError(RuntimeError):
    """A Baidu API call failed; `str()` is one line with the HTTP status, code and message.

    Attributes:
        action: the API operation, e.g. `CreateInstanceBySpec`.
        status: HTTP status code, or None when no response arrived.
        code: Baidu error code, e.g. `NoSuchObject`, or None.
        request_id: the `requestId` to quote to Baidu support, or None.
    """

    def __init__(
        self,
        action: str,
        status: int | None,
        code: str | None,
        message: str,
        request_id: str | None,
    ) -> None:
        self.action, self.status, self.code, self.request_id = action, status, code, request_id
        where = f"HTTP {status} {code}" if status else (code or "no response")
        rid = f" (request id {request_id})" if request_id else ""
        super().__init__(f"Baidu {action} failed: {where}: {_one_line(message)}{rid}")

    @property
    def not_found(self) -> bool:
        """True when the resource no longer exists (HTTP 404 or code `NoSuchObject`)."""
        return self.status == 404 or self.code in NOT_FOUND_CODES


def endpoint(region: str) -> str:
    """The HTTPS endpoint of the BCC, VPC and subnet APIs in one region.

    Args:
        region: Baidu region id, e.g. `bj`.

    Returns:
        `$BCE_BCC_ENDPOINT` when set, else `https://bcc.<region>.baidubce.com`.
    """
    return os.environ.get(ENDPOINT_ENV) or f"https://bcc.{region}.baidubce.com"


def client_config(region: str) -> Any:
    """A `BceClientConfiguration` signed with the environment's access key.

    Raises:
        MissingCredentialsError: `BCE_ACCESS_KEY_ID` or `BCE_SECRET_ACCESS_KEY` is unset.
    """
    from baidubce import protocol
    from baidubce.auth.bce_credentials import BceCredentials
    from baidubce.bce_client_configuration import BceClientConfiguration

    access_key, secret_key = os.environ.get(ACCESS_KEY_ENV), os.environ.get(SECRET_KEY_ENV)
    if not access_key or not secret_key:
        raise MissingCredentialsError(
            f"Baidu credentials missing: set {ACCESS_KEY_ENV} and {SECRET_KEY_ENV} in the "
            "environment of `pulumi up` (console > Security Authentication > Access Key)"
        )
    return BceClientConfiguration(
        credentials=BceCredentials(access_key, secret_key),
        endpoint=endpoint(region),
        protocol=protocol.HTTPS,  # else the SDK signs `Host: ...:443` (its default is HTTP)
    )


def bcc(region: str) -> Any:
    """A `BccClient` for one region (instances, security groups, deploy sets, key pairs)."""
    from baidubce.services.bcc.bcc_client import BccClient

    return BccClient(client_config(region))


def vpc(region: str) -> Any:
    """A `VpcClient` for one region."""
    from baidubce.services.vpc.vpc_client import VpcClient

    return VpcClient(client_config(region))


def subnets(region: str) -> Any:
    """A `SubnetClient` for one region."""
    from baidubce.services.subnet.subnet_client import SubnetClient

    return SubnetClient(client_config(region))


def call(action: str, method: Callable[..., Any], *args: Any, **kwargs: Any) -> dict[str, Any]:
    """Call one SDK method and return the JSON response body as a dict.

    Args:
        action: the API operation name used in error messages.
        method: a bound SDK client method.

    Returns:
        The decoded JSON body (camelCase keys, as Baidu sent them); `{}` for an empty body.

    Raises:
        BaiduApiError: the call failed, with a one-line message.
    """
    from baidubce.exception import BceHttpClientError, BceServerError

    try:
        response = method(*args, **kwargs)
    except BceHttpClientError as exc:
        raise _api_error(action, exc.last_error) from None
    except BceServerError as exc:
        raise _api_error(action, exc) from None
    raw = getattr(response, "raw_data", None)
    return json.loads(raw) if raw else {}


def _api_error(action: str, error: BaseException) -> BaiduApiError:
    status = getattr(error, "status_code", None)
    code = getattr(error, "code", None)
    request_id = getattr(error, "request_id", None)
    message = _text(error) or type(error).__name__
    return BaiduApiError(action, status, _text(code), message, _text(request_id))


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, BaseException):
        value = value.args[0] if value.args else ""
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    return str(value)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())
