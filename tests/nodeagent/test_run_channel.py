"""A run `trainstack run` starts through the head's job channel (GCP, Azure): the head keeps the
channel's run in the job's run file (`nodeagent.publisher.relay_once`), and a worker that follows
runs (`NodeJob.follow_runs`) restarts its torchrun under the run's id, or, after its job ended,
waits for the next run and starts it."""

from __future__ import annotations

import json
import socket
import stat
import threading
import time
from pathlib import Path

import pytest

from nodeagent import follow, launcher, publisher
from nodeagent.job import NodeJob, current_run_id
from nodeagent.publisher import RUN_KEY
from tests.nodeagent.test_relay import DOC, _wait_for_lines

RUN = "c-bbbbbbbb-20261207-043900"


def test_the_head_keeps_the_channels_run_beside_the_job(tmp_path):
    doc, run_file = tmp_path / "jobs" / "c.json", tmp_path / "rdzv" / "c.run"
    text = publisher.encode({**DOC, RUN_KEY: RUN})
    assert publisher.relay_once(text, str(doc), str(run_file)) == [str(doc), str(run_file)]
    assert json.loads(doc.read_text()) == DOC  # the workers' job document holds no run
    assert run_file.read_text() == RUN + "\n"
    assert publisher.relay_once(text, str(doc), str(run_file)) == []  # read again: nothing rewritten
    # the channel written back without the run (`pulumi up --refresh`) leaves the run as it is
    assert publisher.relay_once(publisher.encode(DOC), str(doc), str(run_file)) == []
    assert run_file.read_text() == RUN + "\n"


@pytest.mark.parametrize(
    "run",
    [
        pytest.param("c-aaaaaaaa-20261207-043900", id="another-job"),
        pytest.param("c-bbbbbbbb-x/../../etc", id="not-an-id"),
    ],
)
def test_a_run_of_another_job_is_not_kept(tmp_path, run):
    doc, run_file = tmp_path / "c.json", tmp_path / "c.run"
    with pytest.raises(ValueError, match="is not a run of job c-bbbbbbbb"):
        publisher.relay_once(publisher.encode({**DOC, RUN_KEY: run}), str(doc), str(run_file))
    assert not run_file.exists()


def test_a_followed_run_restarts_torchrun_and_an_ended_job_waits_for_the_next(tmp_path, monkeypatch):
    """The real `launcher.run` with a stand-in torchrun (logs its argv; exits 0 once `done.<n>`
    exists, n its start): a new run restarts it, its end is noted and the next run starts it."""
    log, doc, rdzv = tmp_path / "argv.log", tmp_path / "jobs" / "c.json", tmp_path / "rdzv" / "c"
    fake = tmp_path / "python"
    fake.write_text(
        f"#!/bin/sh\necho \"$*\" >> {log}\nn=$(wc -l < {log})\ntrap 'exit 143' TERM\n"
        f"while [ ! -f {tmp_path}/done.$n ]; do sleep 0.02; done\nexit 0\n"
    )
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    store = socket.create_server(("127.0.0.1", 0))
    publisher.publish(doc, {**DOC, "python": str(fake), "workdir": str(tmp_path), "checkpoint_dir": ""})
    job = NodeJob.from_dict(
        {
            **DOC,
            "python": str(fake),
            "workdir": str(tmp_path),
            "checkpoint_dir": "",
            "rdzv_host": "127.0.0.1",
            "rdzv_port": store.getsockname()[1],
            "rdzv_file": str(rdzv),
            "job_doc": str(doc),
            "poll_seconds": 0.02,
            "follow_runs": True,
        }
    )
    ended = tmp_path / "run" / "job-ended"
    monkeypatch.setattr(follow, "ENDED_FILE", str(ended))
    handlers: list = []
    monkeypatch.setattr(launcher.signal, "signal", lambda _signal, handler: handlers.append(handler))
    runs = [f"{RUN}a", f"{RUN}b"]

    failures: list[BaseException] = []

    def drive() -> None:
        try:
            steps()
        except BaseException as exc:  # a step not reached: stop the launcher, fail the test
            failures.append(exc)
            handlers[0]()

    def steps() -> None:
        _wait_for_lines(log, 1)
        publisher.keep_run(f"{rdzv}.run", "c-bbbbbbbb", runs[0])  # as the head does from the channel
        _wait_for_lines(log, 2)
        (tmp_path / "done.2").touch()  # the run finishes: the launcher waits, noting it
        _wait_until(lambda: ended.exists())
        assert ended.read_text() == f"finished {runs[0]}\n"
        publisher.keep_run(f"{rdzv}.run", "c-bbbbbbbb", runs[1])
        _wait_for_lines(log, 3)
        assert not ended.exists()
        handlers[0]()  # SIGTERM: the unit stops

    helper = threading.Thread(target=drive, daemon=True)
    helper.start()
    try:
        code = launcher.run(job)
    finally:
        store.close()
    helper.join(5)
    assert not failures, failures
    first, second, third = log.read_text().splitlines()
    assert "--rdzv-id=c-bbbbbbbb " in first
    assert f"--rdzv-id={runs[0]} " in second and f"--rdzv-id={runs[1]} " in third
    assert code in (143, -15) and current_run_id(job) == runs[1]  # the last torchrun stopped by SIGTERM


@pytest.mark.parametrize(
    ("run_file", "launched", "changed"),
    [
        pytest.param(RUN, RUN, False, id="the-run-it-runs"),
        pytest.param(RUN, "c-bbbbbbbb", True, id="a-new-run"),
        pytest.param("c-aaaaaaaa-20261207-043900", "c-bbbbbbbb", False, id="a-run-of-another-job"),
    ],
)
def test_what_asks_a_waiting_node_for_a_new_torchrun(tmp_path, run_file, launched, changed):
    job = NodeJob.from_dict({**DOC, "rdzv_host": "h", "rdzv_file": str(tmp_path / "c"), "job_doc": ""})
    (tmp_path / "c.run").write_text(run_file + "\n")
    assert (follow.changed_run(job, job, launched) is not None) == changed


def _wait_until(predicate, seconds: float = 10.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.01)
    raise AssertionError("condition not reached")


def test_an_ended_run_is_noted_failed_with_its_status(tmp_path, monkeypatch):
    ended = Path(tmp_path / "job-ended")
    monkeypatch.setattr(follow, "ENDED_FILE", str(ended))
    job = NodeJob.from_dict({**DOC, "rdzv_host": "h", "job_doc": str(tmp_path / "none.json"), "poll_seconds": 0.01})
    running = {"leaving": False}
    seen: list[str] = []

    def leave() -> None:
        _wait_until(ended.exists)
        seen.append(ended.read_text())
        running["leaving"] = True

    threading.Thread(target=leave, daemon=True).start()
    assert follow.next_run(job, job, "c-bbbbbbbb", 1, running) == (None, 0)
    assert seen == ["failed c-bbbbbbbb 1\n"] and not ended.exists()


@pytest.mark.parametrize(("unit", "server"), [("store", "store"), ("paddle-master", "paddle")])
def test_both_head_units_relay_the_channel_and_its_run(monkeypatch, unit, server):
    """The head of a torchrun job (`store`) and of a paddle job (`paddle-master`) both announce
    their address and relay the job channel, its run kept beside the rendezvous file."""
    from nodeagent import paddle_master, store
    from nodeagent.__main__ import main

    calls: list = []
    monkeypatch.setattr(store, "announce_self", lambda path: calls.append(("announce", path)))
    monkeypatch.setattr(publisher, "start", lambda *args, **kwargs: calls.append(("relay", args, kwargs)))
    monkeypatch.setattr(store, "serve", lambda port: calls.append(("store", port)))
    monkeypatch.setattr(paddle_master, "serve", lambda port: calls.append(("paddle", port)))
    assert main([unit, "29400", "/fsx/trainstack/rendezvous/c", "/fsx/trainstack/jobs/c.json", "gcp"]) == 0
    assert calls == [
        ("announce", "/fsx/trainstack/rendezvous/c"),
        ("relay", ("/fsx/trainstack/jobs/c.json", "gcp", None), {"announce_file": "/fsx/trainstack/rendezvous/c"}),
        (server, 29400),
    ]
