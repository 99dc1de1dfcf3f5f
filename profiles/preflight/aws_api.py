"""Shared boto3 plumbing for the AWS fetcher and the preflight check.

boto3 is imported only inside these functions, so importing this module (and
`trainstack resolve`) never loads the AWS SDK. Every AWS failure the user can cause or fix
(no credentials, throttling, denied permissions, unreachable endpoint, inconsistent pages)
becomes one line naming the call, the region and the fix.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from profiles.short_text import one_line

# Standard retry mode backs off on throttling before giving up (botocore "standard" mode).
RETRIES = {"mode": "standard", "max_attempts": 6}
THROTTLING_CODES = frozenset(
    {
        "Throttling",
        "ThrottlingException",
        "RequestLimitExceeded",
        "TooManyRequestsException",
        "RequestThrottled",
        "SlowDown",
    }
)
DENIED_CODES = frozenset(
    {
        "AccessDenied",
        "AccessDeniedException",
        "UnauthorizedOperation",
        "AuthFailure",
        "UnrecognizedClientException",
        "InvalidClientTokenId",
        "ExpiredToken",
        "ExpiredTokenException",
    }
)
CREDENTIALS_FIX = "run `aws configure` or `aws sso login`, or set AWS_PROFILE"


def new_session(session: Any = None) -> Any:
    """`session`, or a default boto3 Session (credentials from the usual chain)."""
    if session is not None:
        return session
    import boto3

    return boto3.Session()


def client(session: Any, service: str, region: str) -> Any:
    """A boto3 client for `service` in `region` with standard retries."""
    from botocore.config import Config

    return session.client(service, region_name=region, config=Config(retries=RETRIES))


@contextlib.contextmanager
def aws_errors(call: str, region: str, error: type[Exception], retry_hint: str) -> Iterator[None]:
    """Turn botocore exceptions raised inside the block into `error(one line)`.

    Args:
        call: the API call, e.g. `ec2:DescribeInstanceTypes`.
        region: the region the call went to.
        error: the exception class to raise (FetchError, PreflightError).
        retry_hint: the command to rerun, quoted in throttling messages.
    """
    from botocore.exceptions import (
        BotoCoreError,
        ClientError,
        EndpointConnectionError,
        NoCredentialsError,
        PaginationError,
        PartialCredentialsError,
    )

    try:
        yield
    except (NoCredentialsError, PartialCredentialsError):
        raise error(f"AWS credentials not found for {call}; {CREDENTIALS_FIX}") from None
    except ClientError as exc:
        raise error(_client_error_line(exc, call, region, retry_hint)) from None
    except PaginationError as exc:
        raise error(f"AWS {call} in {region} returned inconsistent pages ({exc}); {retry_hint}") from None
    except EndpointConnectionError:
        raise error(
            f"cannot reach the AWS {call} endpoint in {region}; check the network and the region name"
        ) from None
    except BotoCoreError as exc:
        raise error(f"AWS {call} in {region} failed ({one_line(exc)}); {retry_hint}") from None


def _client_error_line(exc: Any, call: str, region: str, retry_hint: str) -> str:
    info = exc.response.get("Error", {})
    code, message = info.get("Code", "Unknown"), info.get("Message", "").strip()
    if code in THROTTLING_CODES:
        return f"AWS throttled {call} in {region} ({code}) after retries; wait a minute, then {retry_hint}"
    if code in DENIED_CODES:
        return f"AWS denied {call} in {region} ({code}); allow {call} for your identity or {CREDENTIALS_FIX}"
    return f"AWS {call} in {region} failed: {one_line(code)}: {one_line(message) if message else 'no message'}"
