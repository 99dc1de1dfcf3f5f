"""AWS interruption notices through IMDSv2.

`PUT /latest/api/token` with `X-aws-ec2-metadata-token-ttl-seconds`, then
`GET /latest/meta-data/spot/instance-action` (404 until a notice; then
`{"action": "terminate"|"stop"|"hibernate", "time": "...Z"}`) and
`GET /latest/meta-data/events/recommendations/rebalance` (`{"noticeTime": "...Z"}`), each
with `X-aws-ec2-metadata-token`. Notice: 2 minutes; AWS recommends polling every 5 s (A9).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from nodeagent.metadata import Notice, Watcher, http

NAME = "aws"
TOKEN_TTL_SECONDS = 21600


class AwsImds:
    """IMDSv2 session: a token from `PUT /latest/api/token`, renewed on 401 or expiry."""

    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")
        self._token: str | None = None
        self._expires = 0.0

    def _fresh_token(self) -> str:
        if self._token is None or time.monotonic() >= self._expires:
            status, _, text = http(
                f"{self.base}/latest/api/token",
                "PUT",
                {"X-aws-ec2-metadata-token-ttl-seconds": str(TOKEN_TTL_SECONDS)},
            )
            if status != 200:
                raise OSError(f"IMDSv2 token: HTTP {status}")
            self._token, self._expires = text.strip(), time.monotonic() + TOKEN_TTL_SECONDS - 60
        return self._token

    def get(self, path: str) -> tuple[int, str]:
        """GET a meta-data path with the token; (status, text); 404 means no such item."""
        for _ in range(2):
            status, _, text = http(
                f"{self.base}/latest/meta-data/{path}", headers={"X-aws-ec2-metadata-token": self._fresh_token()}
            )
            if status != 401:
                return status, text
            self._token = None
        return status, text


class AwsImdsNotice:
    """One IMDSv2 notice item: its JSON, when present (200), is a `Notice` of `kind`.

    Args:
        imds: the node's IMDSv2 session.
        path: the meta-data path (`spot/instance-action`).
        kind: the notice kind (`spot-interruption`).
        read: the item's JSON -> (detail, time).
        leaves: the notice takes the node out of the job (`Notice.leaves`).
    """

    waits = False

    def __init__(
        self, imds: AwsImds, path: str, kind: str, read: Callable[[dict], tuple[str, str | None]], leaves: bool = True
    ) -> None:
        self.imds, self.path, self.kind, self.read, self.leaves = imds, path, kind, read, leaves

    def poll(self) -> Notice | None:
        status, text = self.imds.get(self.path)
        if status != 200:
            return None
        return Notice(NAME, self.kind, *self.read(json.loads(text)), leaves=self.leaves)


def spot_action(imds: AwsImds) -> AwsImdsNotice:
    """AWS spot interruption: `spot/instance-action` (the action and its time)."""
    return AwsImdsNotice(imds, "spot/instance-action", "spot-interruption", lambda b: (b["action"], b.get("time")))


def rebalance(imds: AwsImds) -> AwsImdsNotice:
    """AWS rebalance recommendation: `events/recommendations/rebalance`, a signal of elevated
    interruption risk that may come long before an interruption or never turn into one
    ("EC2 instance rebalance recommendations"): advice, not an interruption (`leaves=False`)."""
    return AwsImdsNotice(
        imds,
        "events/recommendations/rebalance",
        "rebalance",
        lambda b: ("rebalance recommendation", b.get("noticeTime")),
        leaves=False,
    )


def sources(url: str) -> list:
    """The spot-action and rebalance sources, sharing one IMDSv2 session."""
    imds = AwsImds(url)
    return [spot_action(imds), rebalance(imds)]


# The head's job channel (`nodeagent.publisher`): tags `trainstack:job:00`, `:01`, ...
JOB_TAG_PREFIX = "trainstack:job:"


def published_job(url: str) -> str | None:
    """The channel from the head's own tags through IMDSv2, or None without it.

    Raises:
        OSError: IMDS cannot be reached or refuses a token.
    """
    imds = AwsImds(url)
    status, text = imds.get("tags/instance")
    if status != 200:
        return None
    parts = []
    for key in sorted(k for k in text.split() if k.startswith(JOB_TAG_PREFIX)):
        status, value = imds.get(f"tags/instance/{key}")
        if status != 200:
            return None  # a tag went away mid-read (an update in progress): read again later
        parts.append(value)
    return "".join(parts) or None


WATCHER = Watcher(NAME, "http://169.254.169.254", 120, sources, published_job)  # 2 min notice (A9)
