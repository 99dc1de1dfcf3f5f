"""A loopback HTTP server that replays recorded price-API pages to SDKs that do not use
`requests` (bce-python-sdk speaks `http.client`, volcenginesdkcore `urllib3`), so the
`responses` library cannot intercept them. The SDK is pointed at `Replayer.url` and sends its
real, signed requests; each is recorded and answered by the first expected page it matches.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit


@dataclass(frozen=True)
class Request:
    """One request as the server received it (header names lower-cased)."""

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Reply:
    """A recorded answer: `cut_after` sends only that many body bytes under the full
    `Content-Length`, then closes (a connection that broke mid-answer)."""

    body: bytes = b""
    status: int = 200
    content_type: str = "application/json"
    cut_after: int | None = None


@dataclass
class _Expected:
    method: str
    path: str
    reply: Reply
    match: Callable[[Request], bool]
    fired: bool = False


@dataclass
class Replayer:
    """Expected requests (in order of registration) and the requests received."""

    expected: list[_Expected] = field(default_factory=list)
    calls: list[Request] = field(default_factory=list)
    unmatched: list[Request] = field(default_factory=list)
    url: str = ""

    def add(self, method: str, path: str, reply: Reply, match: Callable[[Request], bool] = lambda _: True) -> None:
        """Answer the next `method` request for `path` that `match` accepts with `reply`, once."""
        self.expected.append(_Expected(method, path, reply, match))

    def answer(self, request: Request) -> Reply | None:
        self.calls.append(request)
        for entry in self.expected:
            where = (entry.method, entry.path) == (request.method, request.path)
            if not entry.fired and where and entry.match(request):
                entry.fired = True
                return entry.reply
        self.unmatched.append(request)
        return None

    def check_done(self) -> None:
        """Fail when a request matched nothing or an expected request never came."""
        assert not self.unmatched, f"unexpected requests: {self.unmatched}"
        missing = [(e.method, e.path) for e in self.expected if not e.fired]
        assert not missing, f"expected requests never sent: {missing}"


def _handler(server: Server) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _serve(self) -> None:
            replayer = server.replayer  # the test's, as the request arrives
            parts = urlsplit(self.path)
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            request = Request(
                self.command,
                parts.path,
                dict(parse_qsl(parts.query, keep_blank_values=True)),
                {k.lower(): v for k, v in self.headers.items()},
                body,
            )
            reply = replayer.answer(request) or Reply(b'{"unmatched": true}', status=501)
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(reply.body)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(reply.body if reply.cut_after is None else reply.body[: reply.cut_after])
            self.close_connection = True

        do_GET = do_POST = do_PUT = _serve

        def log_message(self, *_args: Any) -> None:  # keep the test output clean
            pass

    return Handler


class Server:
    """Context manager: a server on 127.0.0.1 at a free port, answering from its current
    `Replayer` (`replay()` starts a new one). One serves a whole test module: stopping it
    waits for its loop's next poll (up to `poll_interval`, 50 ms), which each test had waited."""

    def __init__(self) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self.replayer = Replayer(url=self.url)
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def replay(self) -> Replayer:
        """A new `Replayer` with nothing expected and nothing received, answering from now on."""
        self.replayer = Replayer(url=self.url)
        return self.replayer

    def __enter__(self) -> Server:
        self._thread.start()
        return self

    def __exit__(self, *_exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def closed_port_url() -> str:
    """`http://127.0.0.1:<port>` where nothing listens (a port just freed): connections are refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"
