"""The elastic run (`elastic_cases.story`) once per test session, started in the background as
soon as the session's first test starts, so the suite's other tests run while its hosts wait
(for a restart, a heartbeat, a rendezvous) and import torch.

`start` (called from `tests/nodeagent/conftest.py` when the first test starts) runs
`python -m tests.nodeagent.elastic_story DIR` under the session's lock: that process holds the
lock until it has written the outcome to `DIR/elastic-story.json`. `outcome` (the tests'
fixture) takes the lock, so it waits for a running story, then reads the outcome; when no story
ran (none was started, or its process was killed), it runs the story itself. With pytest-xdist
the lock and the outcome sit in the session's directory, shared by the workers.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from tests.nodeagent.elastic_cases import REPO, Outcome, run_story

if TYPE_CHECKING:  # the background process never imports pytest
    import pytest

RESULT, LOCK, STARTED = "elastic-story.json", "elastic-story.lock", "elastic-story.started"
TEST_MODULE = "tests/nodeagent/test_elastic_run.py"


def session_dir(factory: pytest.TempPathFactory) -> Path:
    """This session's directory: with pytest-xdist, the one above each worker's own."""
    root = factory.getbasetemp()
    return root.parent if os.environ.get("PYTEST_XDIST_WORKER") else root


def start(session: pytest.Session) -> subprocess.Popen[bytes] | None:
    """Start the story in the background when this session runs the elastic tests and no other
    test process of the session started it; the process, or None."""
    config = session.config
    tests = [item for item in session.items if item.nodeid.startswith(TEST_MODULE)]
    if config.option.collectonly or not tests or getattr(tests[0], "module", None) is None:
        return None
    if tests[0].module.UNAVAILABLE is not None:  # type: ignore[attr-defined]  # the tests skip
        return None
    folder = session_dir(config._tmp_path_factory)  # type: ignore[attr-defined]  # pytest's own, set at configure
    lock = open(folder / LOCK, "w")  # noqa: SIM115 - handed to the child, which holds the lock
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (folder / STARTED).exists() or (folder / RESULT).exists():
            return None
        (folder / STARTED).touch()
        with open(folder / "elastic-story.err", "wb") as errors:
            return subprocess.Popen(
                [sys.executable, "-m", "tests.nodeagent.elastic_story", str(folder)],
                cwd=REPO,
                pass_fds=(lock.fileno(),),
                stdout=subprocess.DEVNULL,
                stderr=errors,
            )
    finally:
        lock.close()  # the child's copy keeps the lock until it exits


def finish(process: subprocess.Popen[bytes] | None, interrupted: bool) -> None:
    """At the end of the session that started the story: let it end (another test process may
    still wait for it; it is bounded by its own deadline), or stop it when the run was interrupted."""
    if process is None:
        return
    if interrupted:
        process.terminate()
    try:
        process.wait(timeout=300)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def outcome(factory: pytest.TempPathFactory) -> Outcome:
    """The story's outcome: the background run's, once it has ended, or one run here."""
    folder = session_dir(factory)
    with open(folder / LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / RESULT).exists():
            _run(folder)
    return Outcome(**json.loads((folder / RESULT).read_text()))


def _run(folder: Path) -> None:
    """Run the story under `folder/elastic-story` and write its outcome (the caller holds the lock)."""
    base = Path(tempfile.mkdtemp(prefix="elastic-story-", dir=folder))  # a fresh one after a killed run
    result = asdict(run_story(base))
    (folder / f"{RESULT}.tmp").write_text(json.dumps(result))
    os.replace(folder / f"{RESULT}.tmp", folder / RESULT)


def _stop(*_: object) -> None:
    raise SystemExit(1)  # run_story closes the network on the way out


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _stop)
    _run(Path(sys.argv[1]))
