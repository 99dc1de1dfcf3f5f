"""Azure interruption notices through Scheduled Events.

`GET /metadata/scheduledevents?api-version=2020-07-01` with `Metadata: true`; an event
`{"EventId", "EventType": "Preempt", "Resources": [vm names], "EventStatus": "Scheduled",
"NotBefore"}` is acknowledged, once the job has checkpointed, with `POST`
`{"StartRequests": [{"EventId": ...}]}`. Spot eviction notice: 30 s (Z4).
"""

from __future__ import annotations

import base64
import functools
import json
from typing import ClassVar

from nodeagent.metadata import Notice, Watcher, http

NAME = "azure"
API_VERSION = "2020-07-01"


class AzureScheduledEvents:
    """Azure Scheduled Events `Preempt` (spot eviction) and `Terminate` for this VM."""

    waits = False
    KINDS: ClassVar[dict[str, str]] = {"Preempt": "preempt", "Terminate": "preempt"}

    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")
        self.url = f"{self.base}/metadata/scheduledevents?api-version={API_VERSION}"
        self._vm_name: str | None = None

    def _my_name(self) -> str | None:
        if self._vm_name is None:
            status, _, text = http(
                f"{self.base}/metadata/instance/compute/name?api-version=2021-02-01&format=text",
                headers={"Metadata": "true"},
            )
            self._vm_name = text.strip() if status == 200 else ""
        return self._vm_name or None

    def poll(self) -> Notice | None:
        status, _, text = http(self.url, headers={"Metadata": "true"})
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
                NAME,
                self.KINDS[event["EventType"]],
                event_id,
                event.get("NotBefore") or None,
                ack=functools.partial(self.acknowledge, event_id),
            )
        return None

    def acknowledge(self, event_id: str) -> None:
        """Approve the event so Azure proceeds now (POST StartRequests)."""
        body = json.dumps({"StartRequests": [{"EventId": event_id}]}).encode()
        http(self.url, "POST", {"Metadata": "true", "Content-Type": "application/json"}, body)


def published_job(url: str) -> str | None:
    """The channel from the head VM's user data (base64 in IMDS), or None without it.

    Raises:
        OSError: IMDS cannot be reached.
    """
    status, _, text = http(
        f"{url.rstrip('/')}/metadata/instance/compute/userData?api-version=2021-01-01&format=text",
        headers={"Metadata": "true"},
    )
    if status != 200 or not text.strip():
        return None
    try:
        return base64.b64decode(text.strip(), validate=True).decode()
    except ValueError:
        return None


WATCHER = Watcher(
    NAME, "http://169.254.169.254", 30, lambda url: [AzureScheduledEvents(url)], published_job
)  # 30 s (Z4)
