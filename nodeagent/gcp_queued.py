"""`python -m nodeagent queued [CONFIG]`: keep a cluster's TPU slices requested as queued
resources (runs on the cluster's on-demand controller VM; `clouds.gcp.queued` says why).

Each pass asks the TPU v2 API (`GET {api}/{parent}/queuedResources/{id}`) for every slice's
queued resource and acts on its state (`action`):
- absent (404): create it (`POST {api}/{parent}/queuedResources?queuedResourceId={id}` with
  its full body), at once the first time, after the back-off once it was lost;
- CREATING, ACCEPTED, WAITING_FOR_RESOURCES, PROVISIONING, SUSPENDING, DELETING: wait;
- ACTIVE: nothing (and the slice's back-off starts again from its first step);
- SUSPENDED or FAILED (a spot preemption suspends it; a failed request fails it): delete it
  (`DELETE .../{id}`, without `force`: the API deletes a SUSPENDED or FAILED queued resource
  that way, and never a running node), then create it again on a later pass.
An unknown state is waited on. Errors of one call (5xx, 429, a dropped connection) are logged
and retried on the next pass.

Credentials: the VM's service-account token from the metadata server
(`/computeMetadata/v1/instance/service-accounts/default/token`, header `Metadata-Flavor:
Google`, answer `{"access_token", "expires_in", "token_type"}`), fetched again shortly before
it expires. Standard library only: the module ships to the VM (`nodeagent.ship`).
"""

from __future__ import annotations

import json
import logging
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("nodeagent.queued")

CONFIG_FILE = "/etc/trainstack/queued.json"
METADATA = "http://metadata.google.internal"
TOKEN_PATH = "/computeMetadata/v1/instance/service-accounts/default/token"
WAIT_STATES = frozenset(
    {"CREATING", "ACCEPTED", "WAITING_FOR_RESOURCES", "PROVISIONING", "SUSPENDING", "DELETING", "STATE_UNSPECIFIED"}
)
LOST_STATES = frozenset({"SUSPENDED", "FAILED"})


class ApiError(Exception):
    """A TPU API or metadata call that failed (status, message)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"HTTP {status}: {message}")
        self.status = status


def action(state: str | None) -> str:
    """What to do with a queued resource in `state` (None: it does not exist).

    Returns:
        `create`, `delete`, `wait` or `keep` (ACTIVE).
    """
    if state is None:
        return "create"
    if state in LOST_STATES:
        return "delete"
    if state == "ACTIVE":
        return "keep"
    return "wait"


def backoff_delay(losses: int, first: float, cap: float) -> float:
    """Seconds to wait before re-creating a slice lost `losses` times in a row: 0 before the
    first loss, then `first`, doubling, at most `cap`."""
    if losses <= 0:
        return 0.0
    return min(cap, first * 2 ** (losses - 1))


def _call(url: str, method: str = "GET", headers: dict | None = None, body: dict | None = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers=dict(headers or {}))
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read().decode()
    except urllib.error.HTTPError as exc:
        raise ApiError(exc.code, exc.read().decode(errors="replace")[:300]) from None
    except (urllib.error.URLError, OSError) as exc:
        raise ApiError(0, str(exc)) from None
    return json.loads(text) if text else {}


class MetadataToken:
    """The VM's access token from the metadata server, refreshed a minute before it expires."""

    def __init__(self, base: str = METADATA, clock: Callable[[], float] = time.monotonic) -> None:
        self.base, self.clock = base.rstrip("/"), clock
        self._token, self._until = "", 0.0

    def __call__(self) -> str:
        if not self._token or self.clock() >= self._until:
            answer = _call(self.base + TOKEN_PATH, headers={"Metadata-Flavor": "Google"})
            self._token = answer["access_token"]
            self._until = self.clock() + max(0.0, float(answer.get("expires_in", 0)) - 60)
        return self._token


class TpuApi:
    """The three queued-resource calls of the TPU v2 REST API under one parent."""

    def __init__(self, api: str, parent: str, token: Callable[[], str]) -> None:
        self.base = f"{api.rstrip('/')}/{parent}/queuedResources"
        self.token = token

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token()}"}

    def get(self, resource_id: str) -> dict | None:
        """The queued resource, or None when it does not exist (404)."""
        try:
            return _call(f"{self.base}/{urllib.parse.quote(resource_id)}", headers=self._headers())
        except ApiError as exc:
            if exc.status == 404:
                return None
            raise

    def create(self, resource_id: str, body: dict) -> dict:
        """Create it; the answer is a long-running `Operation`."""
        query = urllib.parse.urlencode({"queuedResourceId": resource_id})
        return _call(f"{self.base}?{query}", "POST", self._headers(), body)

    def delete(self, resource_id: str) -> dict:
        """Delete it (no `force`: refused by the API while its node runs)."""
        return _call(f"{self.base}/{urllib.parse.quote(resource_id)}", "DELETE", self._headers())


@dataclass
class Slice:
    """One slice the controller keeps: its body, losses in a row, and when it may be re-created."""

    body: dict
    losses: int = 0
    not_before: float = 0.0


@dataclass
class Controller:
    """Keeps every slice's queued resource requested (see the module docstring).

    Attributes:
        api: the TPU API client.
        slices: queued resource id -> `Slice`.
        backoff: (first, cap) seconds between a loss and the re-creation.
        clock: monotonic seconds (injectable for tests).
    """

    api: TpuApi
    slices: dict[str, Slice]
    backoff: tuple[float, float] = (30.0, 600.0)
    clock: Callable[[], float] = time.monotonic
    events: list[tuple[str, str, str]] = field(default_factory=list)

    def step(self) -> list[tuple[str, str, str]]:
        """One pass over the slices; returns the (id, state, what was done) of this pass."""
        done = []
        for resource_id, item in self.slices.items():
            try:
                found = self.api.get(resource_id)
                state = None if found is None else str((found.get("state") or {}).get("state", "STATE_UNSPECIFIED"))
                done.append((resource_id, state or "ABSENT", self._act(resource_id, item, state)))
            except ApiError as exc:
                log.warning("queued resource %s: %s; retrying next pass", resource_id, exc)
                done.append((resource_id, "ERROR", f"error {exc.status}"))
        self.events += done
        return done

    def _act(self, resource_id: str, item: Slice, state: str | None) -> str:
        what = action(state)
        if what == "keep":
            item.losses = 0
        elif what == "delete":
            item.losses += 1
            item.not_before = self.clock() + backoff_delay(item.losses, *self.backoff)
            self.api.delete(resource_id)
            log.info("queued resource %s is %s: deleted, re-requested after back-off", resource_id, state)
        elif what == "create":
            if self.clock() < item.not_before:
                return "backoff"
            self.api.create(resource_id, item.body)
            log.info("queued resource %s requested", resource_id)
        return what

    def run(self, poll_seconds: float, sleep: Callable[[float], None] = time.sleep, passes: int | None = None) -> None:
        """Pass after pass, `poll_seconds` apart; forever unless `passes` is given."""
        count = 0
        while passes is None or count < passes:
            self.step()
            count += 1
            sleep(poll_seconds)


def from_config(config: dict, token: Callable[[], str] | None = None, clock: Callable[[], float] = time.monotonic):
    """A `Controller` and its poll interval from a `clouds.gcp.queued.controller_config` dict.

    Raises:
        KeyError, TypeError, ValueError: a malformed config.
    """
    api = TpuApi(config["api"], config["parent"], token or MetadataToken(config.get("metadata", METADATA)))
    slices = {key: Slice(dict(body)) for key, body in config["resources"].items()}
    first, cap = (float(x) for x in config.get("backoff_seconds", (30.0, 600.0)))
    return Controller(api, slices, (first, cap), clock), float(config.get("poll_seconds", 30))


def serve(path: str = CONFIG_FILE) -> int:
    """Load the config file and run the controller forever; 2 on a bad config."""
    try:
        with open(path, encoding="utf-8") as handle:
            controller, poll = from_config(json.load(handle))
    except (OSError, KeyError, TypeError, ValueError) as exc:
        log.error("queued resource config %s: %s", path, exc)
        return 2
    controller.run(poll)
    return 0
