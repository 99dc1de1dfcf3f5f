"""Interruption-notice watchers (stdlib HTTP only): each cloud's in `nodeagent/clouds/<cloud>.py`.

Each source answers `poll() -> Notice | None`; `watch` runs one thread per source and calls
`on_notice` once with the first interruption, `on_advice` with each advice (`Notice.leaves`). The request shapes, each after its cloud's
documentation, and the notice windows with their sources sit in the cloud's own module;
this one finds them by listing `nodeagent/clouds/` (the agent ships without the registry).
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
import threading
from collections.abc import Callable

from nodeagent import clouds
from nodeagent.metadata import Notice, Watcher

__all__ = ["DEFAULT_URLS", "NOTICE_SECONDS", "WATCHERS", "Notice", "sources_for", "watch"]

log = logging.getLogger("trainstack.nodeagent")

WATCHERS: dict[str, Watcher] = {
    w.name: w
    for w in (
        importlib.import_module(f"{clouds.__name__}.{m.name}").WATCHER
        for m in sorted(pkgutil.iter_modules(clouds.__path__), key=lambda m: m.name)
    )
}
DEFAULT_URLS = {name: w.default_url for name, w in WATCHERS.items()}
# Seconds between notice and loss of the node, per watcher (each module cites its figure).
NOTICE_SECONDS = {name: w.notice_seconds for name, w in WATCHERS.items()}


def sources_for(cloud: str, base: str | None = None) -> list:
    """The notice sources of a cloud (`none`: no watcher).

    Raises:
        ValueError: for a cloud with no watcher in `nodeagent/clouds/`.
    """
    if cloud == "none":
        return []
    if cloud not in WATCHERS:
        raise ValueError(f"cloud: {cloud!r} has no notice watcher; one of {', '.join(WATCHERS)} or none")
    return WATCHERS[cloud].sources(base or WATCHERS[cloud].default_url)


def watch(
    sources: list,
    on_notice: Callable[[Notice], None],
    stop: threading.Event,
    interval: float = 1.0,
    on_advice: Callable[[Notice], None] | None = None,
) -> list[threading.Thread]:
    """Start one daemon thread per source. The first interruption (`Notice.leaves`) calls
    `on_notice` once and sets `stop`; advice (a rebalance recommendation, a host-maintenance
    event) calls `on_advice` once per distinct notice and the watch goes on.

    Args:
        sources: from `sources_for`.
        on_notice: called once, from a watcher thread, with the first interruption.
        stop: set it to end the watchers.
        interval: seconds between polls of non-waiting sources (and after an error).
        on_advice: called with each new advice notice; None ignores advice.
    """
    fired = threading.Lock()
    advised: set[tuple[str, str, str]] = set()
    advised_lock = threading.Lock()

    def advise(notice: Notice) -> None:
        key = (notice.kind, notice.detail, notice.not_before or "")
        with advised_lock:
            if key in advised:
                return
            advised.add(key)
        log.warning("advice: %s %s %s; the node stays in the job", notice.cloud, notice.kind, notice.detail)
        if on_advice is not None:
            on_advice(notice)

    def loop(source) -> None:
        while not stop.is_set():
            try:
                notice = source.poll()
            except (OSError, ValueError, KeyError) as exc:
                log.debug("notice poll %s: %s", type(source).__name__, exc)
                notice = None
                stop.wait(interval)
            if notice is not None and not notice.leaves:
                advise(notice)
            elif notice is not None and fired.acquire(blocking=False):
                log.warning(
                    "interruption notice: %s %s %s (not before %s)",
                    notice.cloud,
                    notice.kind,
                    notice.detail,
                    notice.not_before,
                )
                stop.set()
                on_notice(notice)
                return
            if not source.waits:
                stop.wait(interval)

    threads = [
        threading.Thread(target=loop, args=(s,), daemon=True, name=f"notice-{type(s).__name__}") for s in sources
    ]
    for thread in threads:
        thread.start()
    return threads
