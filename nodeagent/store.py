"""The rendezvous store the head node keeps for the whole job (torch's TCPStore, c10d backend).

Workers run torchrun with `--rdzv-backend=c10d --rdzv-conf is_host=false`, so none of them
hosts the store: it lives on the head node, which is never spot, and the rendezvous survives
the loss of any worker node.
"""

from __future__ import annotations

import threading
from datetime import timedelta

from nodeagent.job import RDZV_PORT


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
