"""A loopback Cloud TPU v2 API (queued resources) and GCP metadata token endpoint.

Written from Google's documentation, not from the controller:
- "Cloud TPU API v2" REST reference, `projects.locations.queuedResources`: `create`
  (`POST v2/{parent}/queuedResources?queuedResourceId=ID`, body `QueuedResource`, answer a
  long-running `Operation` `{name, metadata, done}`), `get` (`GET v2/{name}`, answer
  `QueuedResource` with `state: {state, stateInitiator, <state>Data}`), `delete` (`DELETE
  v2/{name}`, `force` optional: without it only a queued resource whose nodes are gone or that
  is ACCEPTED, FAILED or SUSPENDED is deleted); errors as `{"error": {code, message, status}}`
  (Google's API error model: 404 NOT_FOUND, 409 ALREADY_EXISTS, 400 FAILED_PRECONDITION,
  401 UNAUTHENTICATED, 503 UNAVAILABLE).
- States (`QueuedResourceState.State`): CREATING -> ACCEPTED -> PROVISIONING -> ACTIVE; a
  spot preemption SUSPENDING -> SUSPENDED (initiator SERVICE); FAILED with `failedData.error`;
  DELETING, then gone. A real queued resource moves over time; here it moves one state per
  `get` of it, so a test steps it deterministically.
- Metadata server: `GET /computeMetadata/v1/instance/service-accounts/default/token` with
  `Metadata-Flavor: Google` answers `{"access_token", "expires_in", "token_type": "Bearer"}`.
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

TOKEN = "ya29.c.fake-token-for-tests"
TOKEN_PATH = "/computeMetadata/v1/instance/service-accounts/default/token"
_RESOURCE = re.compile(r"^/v2/(projects/[^/]+/locations/[^/]+)/queuedResources(?:/([^/]+))?$")
# what each state becomes on the next read of the resource
_NEXT = {"CREATING": "ACCEPTED", "ACCEPTED": "PROVISIONING", "PROVISIONING": "ACTIVE", "SUSPENDING": "SUSPENDED"}
_DATA = {
    "CREATING": "creatingData",
    "ACCEPTED": "acceptedData",
    "PROVISIONING": "provisioningData",
    "ACTIVE": "activeData",
    "SUSPENDING": "suspendingData",
    "SUSPENDED": "suspendedData",
    "FAILED": "failedData",
    "DELETING": "deletingData",
}
_DELETABLE = ("ACCEPTED", "FAILED", "SUSPENDED")


class TpuState:
    """The fake service's queued resources and what it was asked."""

    def __init__(self, expires_in: int = 3599) -> None:
        self.resources: dict[str, dict] = {}  # full name -> {"body", "state", "initiator", "error"}
        self.requests: list[tuple[str, str]] = []  # (method, path with query)
        self.created: list[tuple[str, dict]] = []  # (queuedResourceId, body) of each create
        self.tokens_issued = 0
        self.expires_in = expires_in
        self.outages = 0  # the next N API calls answer 503
        self.lock = threading.Lock()

    def preempt(self, name: str) -> None:
        """A spot preemption: the queued resource goes SUSPENDING (then SUSPENDED)."""
        with self.lock:
            self.resources[name].update(state="SUSPENDING", initiator="SERVICE")

    def fail(self, name: str) -> None:
        """The request fails (e.g. no capacity within its constraints)."""
        with self.lock:
            self.resources[name].update(state="FAILED", error={"code": 8, "message": "capacity unavailable"})

    def state_of(self, name: str) -> str | None:
        with self.lock:
            found = self.resources.get(name)
            return found["state"] if found else None


def _error(code: int, status: str, message: str) -> dict:
    return {"error": {"code": code, "message": message, "status": status}}


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, *args: object) -> None:
        pass

    def _send(self, code: int, body: dict) -> None:
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json; charset=UTF-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _route(self, method: str) -> None:
        state = self.server.state
        url = urlparse(self.path)
        with state.lock:
            state.requests.append((method, self.path))
        if url.path == TOKEN_PATH:
            if self.headers.get("Metadata-Flavor") != "Google":
                return self._send(403, _error(403, "PERMISSION_DENIED", "Missing Metadata-Flavor:Google header."))
            with state.lock:
                state.tokens_issued += 1
            return self._send(200, {"access_token": TOKEN, "expires_in": state.expires_in, "token_type": "Bearer"})
        match = _RESOURCE.match(url.path)
        if not match:
            return self._send(404, _error(404, "NOT_FOUND", f"{url.path} not found"))
        if self.headers.get("Authorization") != f"Bearer {TOKEN}":
            return self._send(401, _error(401, "UNAUTHENTICATED", "Request had invalid authentication credentials."))
        with state.lock:
            if state.outages:
                state.outages -= 1
                return self._send(503, _error(503, "UNAVAILABLE", "The service is currently unavailable."))
        parent, resource_id = match.groups()
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        if method == "POST" and resource_id is None:
            length = int(self.headers.get("Content-Length") or 0)
            return self._create(parent, query.get("queuedResourceId", ""), json.loads(self.rfile.read(length)))
        if resource_id is None:
            return self._send(404, _error(404, "NOT_FOUND", "list is not served here"))
        name = f"{parent}/queuedResources/{resource_id}"
        if method == "GET":
            return self._get(name)
        if method == "DELETE":
            return self._delete(name, query.get("force") == "true")
        return self._send(404, _error(404, "NOT_FOUND", method))

    def _operation(self, parent: str, target: str, verb: str) -> dict:
        return {
            "name": f"{parent}/operations/operation-{len(self.server.state.requests)}",
            "metadata": {
                "@type": "type.googleapis.com/google.cloud.tpu.v2.OperationMetadata",
                "createTime": "2026-12-02T01:00:00Z",
                "target": target,
                "verb": verb,
                "apiVersion": "v2",
            },
            "done": False,
        }

    def _create(self, parent: str, resource_id: str, body: dict) -> None:
        state = self.server.state
        specs = (body.get("tpu") or {}).get("nodeSpec") or []
        if not re.match(r"^[A-Za-z0-9_.~+%-]+$", resource_id) or not specs:
            return self._send(400, _error(400, "INVALID_ARGUMENT", "queuedResourceId and tpu.nodeSpec are required"))
        node = specs[0].get("node") or {}
        if specs[0].get("parent") != parent or not node.get("runtimeVersion") or not node.get("acceleratorType"):
            return self._send(400, _error(400, "INVALID_ARGUMENT", "nodeSpec.parent, runtimeVersion, acceleratorType"))
        name = f"{parent}/queuedResources/{resource_id}"
        with state.lock:
            if name in state.resources:
                return self._send(409, _error(409, "ALREADY_EXISTS", f"Resource '{name}' already exists"))
            state.resources[name] = {"body": body, "state": "CREATING", "initiator": None, "error": None}
            state.created.append((resource_id, body))
        self._send(200, self._operation(parent, name, "create"))

    def _get(self, name: str) -> None:
        state = self.server.state
        with state.lock:
            found = state.resources.get(name)
            if found is None:
                return self._send(404, _error(404, "NOT_FOUND", f"Resource '{name}' was not found"))
            current = found["state"]
            if current == "DELETING":  # the deletion finishes: gone from the next read on
                del state.resources[name]
            elif current in _NEXT:
                found["state"] = _NEXT[current]
        data: dict = {"error": found["error"]} if current == "FAILED" else {}
        body = {
            "name": name,
            "createTime": "2026-12-02T01:00:00Z",
            **found["body"],
            "state": {"state": current, _DATA[current]: data},
        }
        if found["initiator"] and current in ("SUSPENDING", "SUSPENDED"):
            body["state"]["stateInitiator"] = found["initiator"]
        self._send(200, body)

    def _delete(self, name: str, force: bool) -> None:
        state = self.server.state
        with state.lock:
            found = state.resources.get(name)
            if found is None:
                return self._send(404, _error(404, "NOT_FOUND", f"Resource '{name}' was not found"))
            if not force and found["state"] not in _DELETABLE:
                return self._send(
                    400, _error(400, "FAILED_PRECONDITION", f"queued resource in state {found['state']}; use force")
                )
            found["state"] = "DELETING"
        self._send(200, self._operation(name.rsplit("/queuedResources/", 1)[0], name, "delete"))

    def do_GET(self) -> None:
        self._route("GET")

    def do_POST(self) -> None:
        self._route("POST")

    def do_DELETE(self) -> None:
        self._route("DELETE")


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, state: TpuState) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.state = state


def serve(state: TpuState) -> tuple[_Server, str]:
    """Start the fake API on a free loopback port; returns (server, base URL)."""
    server = _Server(state)
    # polled every 5 ms, so a test's `server.shutdown()` returns at once (it waits for the loop's
    # next poll: the default 0.5 s made every test using the fake API wait half a second in
    # teardown, 50 ms still ~25 ms a test; 200 wake-ups a second cost nothing over a test's few ms)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.005}, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"
