"""The elastic run starts in the background when collection ends (`elastic_story.py`)."""

from __future__ import annotations

import subprocess

import pytest

from tests.nodeagent import elastic_story

_STORY: list[subprocess.Popen[bytes] | None] = [None]


def pytest_collection_finish(session: pytest.Session) -> None:
    _STORY[0] = elastic_story.start(session)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    stopped = exitstatus == pytest.ExitCode.INTERRUPTED or bool(session.shouldstop or session.shouldfail)
    elastic_story.finish(_STORY[0], interrupted=stopped)
