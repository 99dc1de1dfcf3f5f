"""The rendezvous store the head node keeps for the whole job (torch's TCPStore, c10d backend).

Workers run torchrun with `--rdzv-backend=c10d --rdzv-conf is_host=false`, so none of them
hosts the store: it lives on the head node, which is never spot, and the rendezvous survives
the loss of any worker node.
"""

from __future__ import annotations

import socket
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
