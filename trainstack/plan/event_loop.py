"""The event loop a plan runs on: one of the plan's own, retired when a plan fails.

A plan that fails inside an `apply` (an existing subnet in another zone, a subnet too small for
the nodes) fails every Output downstream of it too, and leaves tasks waiting on Outputs that
will never resolve. On a loop that lives on, those tasks keep about 400 failed futures per plan
alive, whose exception nobody reads; whenever they are freed, asyncio reports each one with its
whole traceback ("Future exception was never retrieved"), at whatever the process is doing
then. That costs about 0.2 s of CPU per failed plan wherever logging formats the records, and
on Python 3.11 formatting a traceback parses source with `ast`: a garbage collection that
interrupts another `ast.parse` makes that one fail with "SystemError: AST constructor
recursion depth mismatch" (the converter's depth counter is shared; see CPython gh-106905).
The failure itself is already reported, as `PlanError`.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import warnings
from collections.abc import Iterator
from typing import Any

_OWN = threading.local()  # .loop: this thread's plan loop while it is good to reuse


@contextlib.contextmanager
def plan_event_loop() -> Iterator[asyncio.AbstractEventLoop]:
    """Make this thread's plan loop the current event loop while the block runs.

    The loop is reused by the thread's next plan after a plan that succeeds. After a plan that
    raises, the loop is retired: its thread pool is shut down (waiting for mock calls still in
    flight), it is closed, and it no longer reports futures whose exception nobody read, since
    they all follow from the error the plan raised; such reports made while the plan ran are
    held, then dropped with it or, when it succeeds, made as asyncio would. The thread's
    current event loop is put back afterwards. Inside a running event loop (a caller that is
    itself asynchronous) the block runs on that loop, unchanged.

    Raises:
        whatever the block raises.
    """
    try:
        running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is not None:
        yield running
        return
    previous = _current_loop()
    loop = getattr(_OWN, "loop", None) or asyncio.new_event_loop()
    _OWN.loop = loop
    held: list[dict[str, Any]] = []

    def hold(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if _about_a_future(context):
            held.append(context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(hold)
    asyncio.set_event_loop(loop)
    try:
        yield loop
    except BaseException:
        _OWN.loop = None
        loop.set_exception_handler(_unread_consequences_dropped)
        loop.run_until_complete(loop.shutdown_default_executor())
        loop.close()
        raise
    else:
        loop.set_exception_handler(None)
        for context in held:
            loop.call_exception_handler(context)
    finally:
        asyncio.set_event_loop(previous)


def _current_loop() -> asyncio.AbstractEventLoop | None:
    """The thread's current event loop as `asyncio.get_event_loop` finds it, or None."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # 3.12+: "there is no current event loop"
        try:
            return asyncio.get_event_loop_policy().get_event_loop()
        except RuntimeError:
            return None


def _unread_consequences_dropped(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """A retired loop's exception handler: a report about one of its futures or tasks (an
    unread exception, a task destroyed while pending) is dropped; anything else is reported
    as asyncio would."""
    if not _about_a_future(context):
        loop.default_exception_handler(context)


def _about_a_future(context: dict[str, Any]) -> bool:
    """An exception handler's report about one of the loop's futures or tasks."""
    return "future" in context or "task" in context
