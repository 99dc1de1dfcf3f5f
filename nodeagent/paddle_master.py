"""The head node's master for a `launcher: paddle` job: the key-value store PaddlePaddle's
`paddle.distributed.launch` meets at (`--master=HOST:PORT`, its HTTP master).

Paddle's launcher on a node whose address is not the master's is a participant: it waits until
`GET /healthy` answers, then each node `PUT`s its entry under the job's prefix and `GET`s the
prefix until every node's entry is there (a JSON object of key -> value text; 404 while none
is). That protocol is served here with the standard library (Paddle's own server needs Paddle,
which the head does not run), from the head node, on-demand and never spot, so workers that
are replaced meet at the same address, as torchrun's do at the head's c10d store.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HEALTHY = "/healthy"


class _Handler(BaseHTTPRequestHandler):
    server: PaddleMaster

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        found = self.server.under(self.path)
        self._answer(200, json.dumps(found).encode()) if found else self._answer(404)

    def do_PUT(self) -> None:  # noqa: N802
        size = int(self.headers.get("Content-Length") or 0)
        self.server.put(self.path, self.rfile.read(size))
        self._answer(200)

    do_POST = do_PUT

    def do_DELETE(self) -> None:  # noqa: N802
        self._answer(200 if self.server.delete(self.path) else 404)

    def _answer(self, code: int, body: bytes = b"") -> None:
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Type", "application/json; charset=utf8")
        self.end_headers()
        if body:
            self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # quiet: the journal keeps the unit's own lines
        return


class PaddleMaster(ThreadingHTTPServer):
    """Paddle's key-value master on `port` (all addresses)."""

    daemon_threads = True

    def __init__(self, port: int, host: str = "") -> None:
        super().__init__((host, port), _Handler)
        self._lock = threading.Lock()
        self._kv: dict[str, bytes] = {HEALTHY: b"ok"}

    def under(self, prefix: str) -> dict[str, str]:
        """Every key starting with `prefix`, with its value as text."""
        with self._lock:
            return {k: v.decode("utf-8", "replace") for k, v in self._kv.items() if k.startswith(prefix)}

    def put(self, key: str, value: bytes) -> None:
        """Set `key`."""
        with self._lock:
            self._kv[key] = value

    def delete(self, key: str) -> bool:
        """Remove `key`; False when it was not there."""
        with self._lock:
            return self._kv.pop(key, None) is not None


def serve(port: int) -> None:
    """Serve until the process is stopped."""
    PaddleMaster(port).serve_forever()
