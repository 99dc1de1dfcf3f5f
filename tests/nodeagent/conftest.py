"""The elastic run starts in the background when the first test starts (`elastic_story.py`):
with pytest-xdist, every worker has collected by then. Started when a worker's collection ended,
its 17 torch processes slowed the other worker's collection by about 25 s on 2 cores, and no
test starts anywhere until every worker has collected."""

from __future__ import annotations

import subprocess

import pytest

from tests.nodeagent import elastic_story

_STORY: list[subprocess.Popen[bytes] | None] = [None]
_COLLECTED: list[pytest.Session | None] = [None]


def pytest_collection_finish(session: pytest.Session) -> None:
    _COLLECTED[0] = session


def pytest_runtest_logstart(nodeid: str, location: tuple[str, int | None, str]) -> None:
    if _COLLECTED[0] is not None:
        session, _COLLECTED[0] = _COLLECTED[0], None
        _STORY[0] = elastic_story.start(session)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    stopped = exitstatus == pytest.ExitCode.INTERRUPTED or bool(session.shouldstop or session.shouldfail)
    elastic_story.finish(_STORY[0], interrupted=stopped)
