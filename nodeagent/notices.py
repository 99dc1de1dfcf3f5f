"""Interruption-notice watchers for AWS, Azure and GCP instance metadata (stdlib HTTP only).

Each source answers `poll() -> Notice | None`; `watch` runs one thread per source and calls
`on_notice` once with the first notice. The request shapes follow each cloud's documentation:

- AWS (IMDSv2): `PUT /latest/api/token` with `X-aws-ec2-metadata-token-ttl-seconds`, then
  `GET /latest/meta-data/spot/instance-action` (404 until a notice; then
  `{"action": "terminate"|"stop"|"hibernate", "time": "...Z"}`) and
  `GET /latest/meta-data/events/recommendations/rebalance` (`{"noticeTime": "...Z"}`), each
  with `X-aws-ec2-metadata-token`. Notice: 2 minutes; AWS recommends polling every 5 s (A9).
- Azure Scheduled Events: `GET /metadata/scheduledevents?api-version=2020-07-01` with
  `Metadata: true`; an event `{"EventId", "EventType": "Preempt", "Resources": [vm names],
  "EventStatus": "Scheduled", "NotBefore"}` is acknowledged, once the job has checkpointed,
  with `POST` `{"StartRequests": [{"EventId": ...}]}`. Spot eviction notice: 30 s (Z4).
- GCP: `GET /computeMetadata/v1/instance/preempted` (`TRUE`/`FALSE`) and
  `.../instance/maintenance-event` (`NONE`, `MIGRATE_ON_HOST_MAINTENANCE`,
  `TERMINATE_ON_HOST_MAINTENANCE`) with `Metadata-Flavor: Google`, `wait_for_change=true` and
  the last `ETag`. Preemption notice: unsourced [30 seconds], pricing-models.md.
"""

from __future__ import annotations

import functools
import json
import logging
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

log = logging.getLogger("trainstack.nodeagent")

DEFAULT_URLS = {
    "aws": "http://169.254.169.254",
    "azure": "http://169.254.169.254",
    "gcp": "http://metadata.google.internal",
}
# Seconds between notice and loss of the node: AWS 2 min (A9), Azure 30 s (Z4), GCP unsourced 30 s.
NOTICE_SECONDS = {"aws": 120, "azure": 30, "gcp": 30}
AZURE_API_VERSION = "2020-07-01"
AWS_TOKEN_TTL_SECONDS = 21600
GCP_WAIT_SECONDS = 60


@dataclass(frozen=True)
class Notice:
    """An interruption notice read from the metadata service.

    Attributes:
        cloud: `aws`, `azure` or `gcp`.
        kind: `spot-interruption`, `rebalance`, `preempt` or `maintenance`.
        detail: the cloud's own words (AWS action, Azure EventId, GCP value).
        not_before: when the node goes, as the cloud wrote it; None when it gives no time.
        ack: call after the job has checkpointed to let the cloud proceed (Azure); or None.
    """

    cloud: str
    kind: str
    detail: str
    not_before: str | None = None
    ack: Callable[[], None] | None = None


def _http(
    url: str, method: str = "GET", headers: dict | None = None, body: bytes | None = None, timeout: float = 2.0
) -> tuple[int, dict[str, str], str]:
    """(status, headers, text) of one request; an HTTP error status is returned, not raised.

    Raises:
        OSError: the service cannot be reached.
    """
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers or {}), exc.read().decode(errors="replace")


class AwsImds:
    """IMDSv2 session: a token from `PUT /latest/api/token`, renewed on 401 or expiry."""

    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")
        self._token: str | None = None
        self._expires = 0.0

    def _fresh_token(self) -> str:
        if self._token is None or time.monotonic() >= self._expires:
            status, _, text = _http(
                f"{self.base}/latest/api/token",
                "PUT",
                {"X-aws-ec2-metadata-token-ttl-seconds": str(AWS_TOKEN_TTL_SECONDS)},
            )
            if status != 200:
                raise OSError(f"IMDSv2 token: HTTP {status}")
            self._token, self._expires = text.strip(), time.monotonic() + AWS_TOKEN_TTL_SECONDS - 60
        return self._token

    def get(self, path: str) -> tuple[int, str]:
        """GET a meta-data path with the token; (status, text); 404 means no such item."""
        for _ in range(2):
            status, _, text = _http(
                f"{self.base}/latest/meta-data/{path}", headers={"X-aws-ec2-metadata-token": self._fresh_token()}
            )
            if status != 401:
                return status, text
            self._token = None
        return status, text


class AwsSpotAction:
    """AWS spot interruption: `spot/instance-action`."""

    waits = False

    def __init__(self, imds: AwsImds) -> None:
        self.imds = imds

    def poll(self) -> Notice | None:
        status, text = self.imds.get("spot/instance-action")
        if status != 200:
            return None
        body = json.loads(text)
        return Notice("aws", "spot-interruption", body["action"], body.get("time"))


class AwsRebalance:
    """AWS rebalance recommendation: `events/recommendations/rebalance` (before the notice)."""

    waits = False

    def __init__(self, imds: AwsImds) -> None:
        self.imds = imds

    def poll(self) -> Notice | None:
        status, text = self.imds.get("events/recommendations/rebalance")
        if status != 200:
            return None
        return Notice("aws", "rebalance", "rebalance recommendation", json.loads(text).get("noticeTime"))


class AzureScheduledEvents:
    """Azure Scheduled Events `Preempt` (spot eviction) and `Terminate` for this VM."""

    waits = False
    KINDS: ClassVar[dict[str, str]] = {"Preempt": "preempt", "Terminate": "preempt"}

    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")
        self.url = f"{self.base}/metadata/scheduledevents?api-version={AZURE_API_VERSION}"
        self._vm_name: str | None = None

    def _my_name(self) -> str | None:
        if self._vm_name is None:
            status, _, text = _http(
                f"{self.base}/metadata/instance/compute/name?api-version=2021-02-01&format=text",
                headers={"Metadata": "true"},
            )
            self._vm_name = text.strip() if status == 200 else ""
        return self._vm_name or None

    def poll(self) -> Notice | None:
        status, _, text = _http(self.url, headers={"Metadata": "true"})
        if status != 200:
            return None
        for event in json.loads(text).get("Events", []):
            if event.get("EventType") not in self.KINDS or event.get("EventStatus") != "Scheduled":
                continue
            resources, name = event.get("Resources") or [], self._my_name()
            if resources and name and name not in resources:
                continue
            event_id = event["EventId"]
            return Notice(
                "azure",
                self.KINDS[event["EventType"]],
                event_id,
                event.get("NotBefore") or None,
                ack=functools.partial(self.acknowledge, event_id),
            )
        return None

    def acknowledge(self, event_id: str) -> None:
        """Approve the event so Azure proceeds now (POST StartRequests)."""
        body = json.dumps({"StartRequests": [{"EventId": event_id}]}).encode()
        _http(self.url, "POST", {"Metadata": "true", "Content-Type": "application/json"}, body)


class GcpMetadataValue:
    """A GCP metadata value watched with `wait_for_change` and the last ETag."""

    waits = True

    def __init__(self, base: str, path: str, kind: str, is_notice: Callable[[str], bool]) -> None:
        self.url = f"{base.rstrip('/')}/computeMetadata/v1/instance/{path}"
        self.kind, self.is_notice = kind, is_notice
        self._etag: str | None = None

    def poll(self) -> Notice | None:
        url = self.url
        if self._etag is not None:
            query = {"wait_for_change": "true", "timeout_sec": GCP_WAIT_SECONDS, "last_etag": self._etag}
            url = f"{url}?{urllib.parse.urlencode(query)}"
        status, headers, text = _http(url, headers={"Metadata-Flavor": "Google"}, timeout=GCP_WAIT_SECONDS + 5)
        if status != 200:
            return None
        self._etag = headers.get("ETag") or headers.get("etag") or self._etag or ""
        value = text.strip()
        return Notice("gcp", self.kind, value) if self.is_notice(value) else None


def sources_for(cloud: str, base: str | None = None) -> list:
    """The notice sources of a cloud (`none`: no watcher).

    Raises:
        ValueError: for an unknown cloud.
    """
    if cloud == "none":
        return []
    if cloud not in DEFAULT_URLS:
        raise ValueError(f"cloud: {cloud!r} has no notice watcher; one of {', '.join(DEFAULT_URLS)} or none")
    url = base or DEFAULT_URLS[cloud]
    if cloud == "aws":
        imds = AwsImds(url)
        return [AwsSpotAction(imds), AwsRebalance(imds)]
    if cloud == "azure":
        return [AzureScheduledEvents(url)]
    return [
        GcpMetadataValue(url, "preempted", "preempt", lambda v: v.upper() == "TRUE"),
        GcpMetadataValue(url, "maintenance-event", "maintenance", lambda v: v.startswith("TERMINATE")),
    ]


def watch(
    sources: list, on_notice: Callable[[Notice], None], stop: threading.Event, interval: float = 1.0
) -> list[threading.Thread]:
    """Start one daemon thread per source; the first notice calls `on_notice` and sets `stop`.

    Args:
        sources: from `sources_for`.
        on_notice: called once, from a watcher thread.
        stop: set it to end the watchers.
        interval: seconds between polls of non-waiting sources (and after an error).
    """
    fired = threading.Lock()

    def loop(source) -> None:
        while not stop.is_set():
            try:
                notice = source.poll()
            except (OSError, ValueError, KeyError) as exc:
                log.debug("notice poll %s: %s", type(source).__name__, exc)
                notice = None
                stop.wait(interval)
            if notice is not None and fired.acquire(blocking=False):
                log.warning(
                    "interruption notice: %s %s %s (not before %s)",
                    notice.cloud,
                    notice.kind,
                    notice.detail,
                    notice.not_before,
                )
                stop.set()
                on_notice(notice)
                return
            if not source.waits:
                stop.wait(interval)

    threads = [
        threading.Thread(target=loop, args=(s,), daemon=True, name=f"notice-{type(s).__name__}") for s in sources
    ]
    for thread in threads:
        thread.start()
    return threads
