"""Replay recorded Baidu API responses at the socket under `http.client`.

bce-python-sdk sends every request through `http.client.HTTPSConnection` (see
`baidubce.http.bce_http_client`). `Replay` patches only the connection's `connect()`: instead
of a TCP/TLS socket it hands the connection a `ReplaySocket` that

  * records the exact bytes the real `http.client` writes (request line, headers, body), and
  * serves the next recorded response (`tests/fixtures/baidu/<name>.json`) as raw HTTP/1.1
    bytes, which the real `http.client.HTTPResponse` parses and the SDK's real handlers
    (`parse_error`, `parse_json`) turn into results or `BceServerError`s.

A fixture file holds `request` (the method and path the SDK must send), `response`
(`status`, `reason`, `headers`, `body` as JSON or null) and `_source` (where its shape comes
from). Every exchange checks the request; a test then asserts on `replay.requests`.
"""

from __future__ import annotations

import http.client
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "baidu"


@dataclass
class Request:
    """One request as it went over the wire."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any
    host: str

    @classmethod
    def parse(cls, raw: bytes, host: str) -> Request:
        """Parse the bytes `http.client` wrote: request line, headers, blank line, body."""
        head, _, payload = raw.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        method, target, _ = lines[0].split(" ", 2)
        headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
        parts = urlsplit(target)
        body = json.loads(payload) if payload.strip() else None
        query = parse_qs(parts.query, keep_blank_values=True)
        return cls(method, parts.path, query, headers, body, host)


class ReplaySocket:
    """A socket that keeps what is sent and reads back one recorded response."""

    def __init__(self, response: bytes) -> None:
        self.sent = bytearray()
        self._response = response

    def sendall(self, data: bytes) -> None:
        self.sent += data

    def makefile(self, *_args: Any, **_kwargs: Any) -> io.BytesIO:
        return io.BytesIO(self._response)

    def settimeout(self, _timeout: Any) -> None:
        pass

    def close(self) -> None:
        pass


@dataclass
class Replay:
    """The queue of recorded exchanges one test expects, in order."""

    queue: list[dict[str, Any]] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    sockets: list[tuple[ReplaySocket, str]] = field(default_factory=list)

    def expect(self, *names: str) -> Replay:
        """Queue recorded exchanges by fixture name (`create_instance_spot`, ...)."""
        for name in names:
            self.queue.append(json.loads((FIXTURES / f"{name}.json").read_text()))
            self.names.append(name)
        return self

    def connect(self, connection: http.client.HTTPConnection) -> None:
        """Stand-in for `HTTPConnection.connect`: serve the next recorded exchange."""
        if len(self.sockets) >= len(self.queue):
            raise AssertionError(f"extra request to {connection.host} (queue: {self.names})")
        sock = ReplaySocket(_response_bytes(self.queue[len(self.sockets)]["response"]))
        self.sockets.append((sock, connection.host))
        connection.sock = sock

    @property
    def requests(self) -> list[Request]:
        """Every request sent so far, parsed."""
        return [Request.parse(bytes(sock.sent), host) for sock, host in self.sockets]

    def verify(self) -> None:
        """Assert every queued exchange ran, each with the recorded method and path."""
        assert len(self.sockets) == len(self.queue), f"ran {len(self.sockets)} of {self.names}"
        for name, exchange, request in zip(self.names, self.queue, self.requests, strict=False):
            expected = exchange["request"]
            assert (request.method, request.path) == (expected["method"], expected["path"]), name


def _response_bytes(response: dict[str, Any]) -> bytes:
    body = b"" if response.get("body") is None else json.dumps(response["body"]).encode()
    lines = [f"HTTP/1.1 {response['status']} {response.get('reason', 'OK')}"]
    lines += [f"{key}: {value}" for key, value in response.get("headers", {}).items()]
    lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
