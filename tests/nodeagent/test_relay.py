"""The job channel (`nodeagent.relay`, `nodeagent.publisher`): a job or node-count edit reaches
running workers without replacing a node.

- the channel's text round-trips and refuses anything that is not a job document;
- each cloud's head reads it from its metadata service in the documented place (a loopback
  service: AWS IMDS tags, GCP metadata attribute, Azure user data) and publishes it on the
  shared file system, rewriting the file only when it changes;
- a worker's launcher follows the published file: a new rendezvous id or node count stops its
  torchrun and starts the new settings; other edits wait for the next start.
"""

from __future__ import annotations

import json
import socket
import stat
import threading
import time
from pathlib import Path

import pytest

from nodeagent import launcher, publisher, relay
from nodeagent.job import NodeJob
from nodeagent.notices import WATCHERS
from nodeagent.publisher import publish, publish_loop
from tests.nodeagent.metadata_server import MetadataState, serve

DOC = {
    "command": ["/fsx/train.py", "--lr", "1e-4"],
    "module": False,
    "workdir": "/fsx",
    "checkpoint_dir": "/fsx/checkpoints/c",
    "log_dir": "",
    "nproc_per_node": 1,
    "min_nodes": 1,
    "max_nodes": 4,
    "max_restarts": 3,
    "job_id": "c-bbbbbbbb",
    "env": {"RUN": "b"},
    "python": "python3",
}


def test_the_channel_round_trips_and_refuses_what_is_not_a_job():
    text = publisher.encode(DOC)
    assert publisher.decode(text) == DOC and text.isascii()
    assert "".join(publisher.chunks(text, 256)) == text and all(len(p) <= 256 for p in publisher.chunks(text, 256))
    for bad in ("not base64!", publisher.encode({"job_id": "x", "rdzv_host": "10.0.0.9"}), publisher.encode({"a": 1})):
        with pytest.raises(ValueError, match="job channel: not a job document"):
            publisher.decode(bad)


@pytest.mark.parametrize(
    ("change", "restarts"),
    [
        pytest.param({"job_id": "c-cccccccc"}, True, id="new-program"),
        pytest.param({"max_nodes": 8}, True, id="more-nodes"),
        pytest.param({"min_nodes": 2}, True, id="new-minimum"),
        pytest.param({"max_restarts": 9}, False, id="restart-budget-at-next-start"),
        pytest.param({}, False, id="same"),
    ],
)
def test_what_restarts_torchrun(change, restarts):
    running = NodeJob.from_dict({**DOC, "rdzv_host": "10.0.0.5"})
    assert relay.restart_needed(running, NodeJob.from_dict({**DOC, "rdzv_host": "10.0.0.5", **change})) is restarts


def test_a_worker_takes_the_published_job_and_ignores_a_broken_file(tmp_path):
    path = tmp_path / "jobs" / "c.json"
    local = NodeJob.from_dict(
        {**DOC, "job_id": "c-aaaaaaaa", "max_nodes": 2, "rdzv_host": "10.0.0.5", "job_doc": str(path)}
    )
    assert relay.current(local) == local  # nothing published yet: the job file's own settings
    assert publish(path, DOC) and not publish(path, DOC)  # written once, then left alone
    now = relay.current(local)
    assert (now.job_id, now.max_nodes, now.rdzv_host, now.job_doc) == ("c-bbbbbbbb", 4, "10.0.0.5", str(path))
    path.write_text(json.dumps({**DOC, "min_nodes": 9}))  # invalid (min > max): kept running as is
    assert relay.current(local) == local
    path.write_text("{")
    assert relay.current(local) == local


@pytest.mark.parametrize("cloud", ["aws", "gcp", "azure"])
def test_each_clouds_head_reads_its_channel_and_publishes_it(cloud, tmp_path):
    state = MetadataState(cloud)
    server = serve(state)
    url = f"http://127.0.0.1:{server.server_address[1]}"
    read = WATCHERS[cloud].published_job
    try:
        assert read is not None and read(url) is None  # no channel yet
        state.channel = publisher.encode({**DOC, "env": {f"V{i}": "x" * 40 for i in range(30)}})  # several AWS tags
        assert read(url) == state.channel
        path = tmp_path / "c.json"
        publish_loop(lambda: read(url), str(path), _OneRound(), 0)
        assert json.loads(path.read_text())["env"]["V29"] == "x" * 40
    finally:
        server.shutdown()
    if cloud == "aws":
        assert len(state.aws_tags()) > 2  # the channel spans several 256-character tags


def test_the_gcp_head_publishes_the_jobs_progress_as_a_guest_attribute(tmp_path):
    """The head's loop reads the job's folders from the document it relays and writes the
    progress lines to its guest attribute on the (loopback) metadata server; unchanged
    progress is not written again."""
    from nodeagent import progress
    from nodeagent.progress import lines

    checkpoints, logs = tmp_path / "checkpoints", tmp_path / "logs"
    (checkpoints / "step-300").mkdir(parents=True)
    (logs / "r" / "attempt_0" / "0").mkdir(parents=True)
    (logs / "r" / "attempt_0" / "0" / "stdout.log").write_text("Step: 321 loss 1.2\n")
    state = MetadataState("gcp")
    state.channel = publisher.encode({**DOC, "checkpoint_dir": str(checkpoints), "log_dir": str(logs)})
    server = serve(state)
    url = f"http://127.0.0.1:{server.server_address[1]}"
    watcher = WATCHERS["gcp"]
    assert watcher.published_job is not None and watcher.report_progress is not None
    path = tmp_path / "c.json"
    try:
        report = lambda text: watcher.report_progress(url, text)  # noqa: E731
        publish_loop(lambda: watcher.published_job(url), str(path), _OneRound(), 0)
        progress.progress_loop(str(path), report, _OneRound(), 0)
        written = state.guest_attributes["trainstack/progress"]
        assert written == lines(str(checkpoints), str(logs)) and "step-300" in written and "Step: 321" in written
        puts = sum(1 for method, *_ in state.requests if method == "PUT")
        assert progress.report_progress(str(path), report, written) == written
        assert sum(1 for method, *_ in state.requests if method == "PUT") == puts  # the same: not written again
    finally:
        server.shutdown()
    assert WATCHERS["aws"].report_progress is None and WATCHERS["azure"].report_progress is None


class _OneRound(threading.Event):
    """A stop event that is clear for the loop's first check and set from then on."""

    def __init__(self) -> None:
        super().__init__()
        self.checks = 0

    def is_set(self) -> bool:
        self.checks += 1
        return self.checks > 1


def test_a_job_edit_restarts_torchrun_on_the_new_id_and_node_count(tmp_path, monkeypatch):
    """The real `launcher.run` with a stand-in torchrun (a shell script that logs its argv and
    runs until SIGTERM or a done file): the published edit stops the first and starts the second."""
    log, done, doc = tmp_path / "argv.log", tmp_path / "done", tmp_path / "jobs" / "c.json"
    fake = tmp_path / "python"
    fake.write_text(
        f"#!/bin/sh\necho \"$*\" >> {log}\ntrap 'exit 143' TERM\nwhile [ ! -f {done} ]; do sleep 0.02; done\nexit 0\n"
    )
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    store = socket.create_server(("127.0.0.1", 0))  # the rendezvous port the launcher waits for
    new = {**DOC, "python": str(fake), "workdir": str(tmp_path), "checkpoint_dir": ""}
    old = {**new, "job_id": "c-aaaaaaaa", "max_nodes": 2}
    job = NodeJob.from_dict(
        {
            **old,
            "rdzv_host": "127.0.0.1",
            "rdzv_port": store.getsockname()[1],
            "job_doc": str(doc),
            "poll_seconds": 0.02,
        }
    )
    monkeypatch.setattr(launcher.signal, "signal", lambda *_: None)  # run() is not on a service's main thread here

    def edit() -> None:
        _wait_for_lines(log, 1)
        publish(doc, {**old, "max_restarts": 7})  # taken at the next start, no restart
        time.sleep(0.1)
        publish(doc, new)  # a new program and node count
        _wait_for_lines(log, 2)
        done.touch()

    helper = threading.Thread(target=edit, daemon=True)
    helper.start()
    try:
        assert launcher.run(job) == 0
    finally:
        store.close()
    first, second = log.read_text().splitlines()
    assert "--rdzv-id=c-aaaaaaaa" in first and "--nnodes=1:2" in first
    assert "--rdzv-id=c-bbbbbbbb" in second and "--nnodes=1:4" in second and "--max-restarts=3" in second
    assert second.endswith("/fsx/train.py --lr 1e-4")


def _wait_for_lines(path: Path, count: int, seconds: float = 10.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if path.exists() and len(path.read_text().splitlines()) >= count:
            return
        time.sleep(0.01)
    raise AssertionError(f"{path}: fewer than {count} lines")


def test_trainstack_run_starts_a_run_of_the_published_job(tmp_path):
    """After a job edit the node's job file still names the old job; `start-run` (`trainstack
    run`) takes the published one, so a run of the edited job is accepted on that node."""
    from nodeagent.__main__ import main

    doc = tmp_path / "jobs" / "c.json"
    job = {**DOC, "job_id": "c-aaaaaaaa", "rdzv_host": "10.0.0.5", "rdzv_file": str(tmp_path / "rdzv" / "c")}
    job_file = tmp_path / "job.json"
    job_file.write_text(json.dumps({**job, "job_doc": str(doc)}))
    assert main(["start-run", "c-bbbbbbbb-20261207T060000Z", str(job_file)]) == 3  # not this node's job yet
    publish(doc, DOC)
    assert main(["start-run", "c-bbbbbbbb-20261207T060000Z", str(job_file)]) == 0
