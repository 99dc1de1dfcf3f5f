"""The rendezvous store the head node keeps for the whole job (torch's TCPStore, c10d backend).

Workers run torchrun with `--rdzv-backend=c10d --rdzv-conf is_host=false`, so none of them
hosts the store: it lives on the head node, which is never spot, and the rendezvous survives
the loss of any worker node.
"""

from __future__ import annotations

import socket
import sys
import threading
from datetime import timedelta
from pathlib import Path

from nodeagent.job import RDZV_PORT, announce

# The instance metadata address of AWS, Azure and GCP: the route to it leaves by the node's
# primary interface, whose address the head node announces (no packet is sent).
PRIMARY_PROBE = "169.254.169.254"


def primary_address(probe: str = PRIMARY_PROBE) -> str:
    """This node's IPv4 address on the interface that routes to `probe`."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.connect((probe, 80))
        return sock.getsockname()[0]


def announce_self(path: str | Path, probe: str = PRIMARY_PROBE) -> str:
    """Announce this node's primary address in `path` (`nodeagent.job.announce`); returns it."""
    host = primary_address(probe)
    announce(path, host)
    return host


def serve(
    port: int = RDZV_PORT,
    host: str = "0.0.0.0",
    ready: threading.Event | None = None,
    stop: threading.Event | None = None,
) -> None:
    """Host a multi-tenant TCPStore on `host:port` until `stop` is set (forever by default).

    Raises:
        RuntimeError: the port is taken.
    """
    from torch.distributed import TCPStore  # torch only where the store runs

    store = TCPStore(
        host, port, is_master=True, wait_for_workers=False, multi_tenant=True, timeout=timedelta(seconds=60)
    )
    if ready is not None:
        ready.set()
    (stop or threading.Event()).wait()
    del store


def head(unit: str, rest: list[str]) -> None:
    """The head node's unit, `store` or `paddle-master` (a `launcher: paddle` job's master):
    announce this node's address in the rendezvous file (a replaced head moves), relay the job
    channel and a run to the shared file system (`nodeagent.publisher.start`), then serve.

    Args:
        unit: `store` or `paddle-master`.
        rest: `[PORT [ANNOUNCE_FILE [JOB_DOC CLOUD [METADATA_URL]]]]`.
    """
    if len(rest) > 1:
        try:
            announce_self(rest[1])
        except (OSError, ValueError) as exc:  # the store still serves at the configured address
            print(f"nodeagent: rendezvous announce {rest[1]}: {exc}", file=sys.stderr)
    if len(rest) > 3:
        from nodeagent.publisher import start

        start(rest[2], rest[3], rest[4] if len(rest) > 4 else None, announce_file=rest[1])
    port = int(rest[0]) if rest else RDZV_PORT
    if unit == "store":
        serve(port)
    else:  # shipped with a paddle job only
        from nodeagent.paddle_master import serve as serve_paddle

        serve_paddle(port)
