"""GCP interruption notices from the metadata server.

`GET /computeMetadata/v1/instance/preempted` (`TRUE`/`FALSE`) and
`.../instance/maintenance-event` (`NONE`, `MIGRATE_ON_HOST_MAINTENANCE`,
`TERMINATE_ON_HOST_MAINTENANCE`) with `Metadata-Flavor: Google`, `wait_for_change=true` and
the last `ETag`. Preemption notice: unsourced [30 seconds], pricing-models.md.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable

from nodeagent.metadata import Notice, Watcher, http

NAME = "gcp"
WAIT_SECONDS = 60


class GcpMetadataValue:
    """A GCP metadata value watched with `wait_for_change` and the last ETag."""

    waits = True

    def __init__(self, base: str, path: str, kind: str, is_notice: Callable[[str], bool], leaves: bool = True) -> None:
        self.url = f"{base.rstrip('/')}/computeMetadata/v1/instance/{path}"
        self.kind, self.is_notice, self.leaves = kind, is_notice, leaves
        self._etag: str | None = None

    def poll(self) -> Notice | None:
        url = self.url
        if self._etag is not None:
            query = {"wait_for_change": "true", "timeout_sec": WAIT_SECONDS, "last_etag": self._etag}
            url = f"{url}?{urllib.parse.urlencode(query)}"
        status, headers, text = http(url, headers={"Metadata-Flavor": "Google"}, timeout=WAIT_SECONDS + 5)
        if status != 200:
            return None
        self._etag = headers.get("ETag") or headers.get("etag") or self._etag or ""
        value = text.strip()
        return Notice(NAME, self.kind, value, leaves=self.leaves) if self.is_notice(value) else None


def sources(url: str) -> list:
    """The preemption value (the node leaves) and the host-maintenance value (advice: the VM
    is stopped for the maintenance and restarted, its unit rejoining at boot, so the job only
    checkpoints early)."""
    return [
        GcpMetadataValue(url, "preempted", "preempt", lambda v: v.upper() == "TRUE"),
        GcpMetadataValue(url, "maintenance-event", "maintenance", lambda v: v.startswith("TERMINATE"), leaves=False),
    ]


# The head's job channel (`nodeagent.publisher`): this custom metadata attribute.
JOB_ATTRIBUTE = "trainstack-job"


def published_job(url: str) -> str | None:
    """The channel from the head's metadata attribute, or None without it.

    Raises:
        OSError: the metadata server cannot be reached.
    """
    status, _, text = http(
        f"{url.rstrip('/')}/computeMetadata/v1/instance/attributes/{JOB_ATTRIBUTE}",
        headers={"Metadata-Flavor": "Google"},
    )
    return text if status == 200 and text.strip() else None


# Where the head publishes the job's progress: a guest attribute (namespace/key). Any process on
# the VM may write its own guest attributes, no role needed; `enable-guest-attributes: TRUE` in
# the head's metadata turns them on, and `instances.getGuestAttributes` reads them from outside
# (Compute Engine, "Setting and querying guest attributes").
PROGRESS_ATTRIBUTE = "trainstack/progress"


def report_progress(url: str, text: str) -> None:
    """Write `text` to the head's guest attribute `PROGRESS_ATTRIBUTE`.

    Raises:
        OSError: the metadata server cannot be reached or refuses (guest attributes off).
    """
    where = f"{url.rstrip('/')}/computeMetadata/v1/instance/guest-attributes/{PROGRESS_ATTRIBUTE}"
    status, _, answer = http(where, "PUT", {"Metadata-Flavor": "Google"}, text.encode())
    if status >= 400:
        raise OSError(f"guest attribute {PROGRESS_ATTRIBUTE}: HTTP {status} {answer.strip()[:100]}")


WATCHER = Watcher(
    NAME, "http://metadata.google.internal", 30, sources, published_job, report_progress
)  # unsourced 30 s (pricing-models.md)
