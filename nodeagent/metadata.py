"""What every cloud's interruption-notice watcher shares (stdlib only): the `Notice` it reports,
one HTTP call to the instance metadata service, and the `Watcher` each cloud declares in
`nodeagent/clouds/<cloud>.py` (shipped to the nodes with the agent, found by `nodeagent.notices`).
"""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Notice:
    """A notice read from the metadata service.

    Attributes:
        cloud: the watcher's name (`Watcher.name`, the stack's provider).
        kind: `spot-interruption`, `rebalance`, `preempt` or `maintenance`.
        detail: the cloud's own words (AWS action, Azure EventId, GCP value).
        not_before: when the node goes, as the cloud wrote it; None when it gives no time.
        ack: call after the job has checkpointed to let the cloud proceed (Azure); or None.
        leaves: True for a real interruption (AWS `spot/instance-action`, Azure `Preempt` /
            `Terminate`, GCP `preempted`): the node stops its job and leaves it. False for
            advice (AWS's rebalance recommendation, GCP's host-maintenance event, after which
            the VM comes back): the job is asked for an early checkpoint and goes on.
    """

    cloud: str
    kind: str
    detail: str
    not_before: str | None = None
    ack: Callable[[], None] | None = None
    leaves: bool = True


@dataclass(frozen=True)
class Watcher:
    """One cloud's notice watcher, as its `nodeagent/clouds/<cloud>.py` declares it (`WATCHER`).

    Attributes:
        name: the name the job file's `cloud` gives (the stack's provider, `Cloud.notice_watcher`).
        default_url: the metadata service base URL the cloud documents.
        notice_seconds: seconds between the notice and the loss of the node (the module cites
            the source, or marks the figure unsourced).
        sources: metadata base URL -> the sources to poll (`poll() -> Notice | None`, `waits`:
            True when a poll itself waits for a change).
        published_job: metadata base URL -> the job channel the head node carries
            (`nodeagent.publisher`), or None when it carries none; None: the cloud has none.
        report_progress: (metadata base URL, text) -> None: the head publishes the job's
            progress (`nodeagent.progress.lines`) where the CLI reads it without reaching the
            node (GCP guest attributes); None: the cloud's CLI asks a node instead.
    """

    name: str
    default_url: str
    notice_seconds: int
    sources: Callable[[str], list]
    published_job: Callable[[str], str | None] | None = None
    report_progress: Callable[[str, str], None] | None = None


def http(
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
