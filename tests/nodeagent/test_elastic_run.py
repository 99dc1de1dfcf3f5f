"""A real elastic run: torchrun (gloo, CPU) on namespace hosts, a preemption, a replacement.

Each host runs the node agent's launcher (`python -m nodeagent run JOB_FILE`); a head host
runs the rendezvous store (`python -m nodeagent store`). Bounded: every wait has a deadline
and the fixture kills every process and removes the namespaces whatever happens.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

from tests.nodeagent import netns

torch = pytest.importorskip("torch", reason="the elastic run needs the [torch] extra: pip install -e '.[torch]'")

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
TOTAL, EVERY = 20, 4
DEADLINE_SECONDS = 90

pytestmark = pytest.mark.skipif(netns.unavailable() is not None, reason=str(netns.unavailable()))


class Run:
    """The shared directory, the network and the helpers a test drives the hosts with."""

    def __init__(self, network: netns.Network, shared: Path) -> None:
        self.network, self.shared = network, shared
        self.progress = shared / "progress.jsonl"
        self.head = network.add_host("head")
        self.started = time.monotonic()
        env = self.env("head")
        network.start(self.head, [sys.executable, "-m", "nodeagent", "store", "29400"], env, str(shared / "head.log"))

    def env(self, host: str) -> dict[str, str]:
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("TS_EXTRA_PYTHONPATH")])),
            "HOST_NAME": host,
            "HOME": str(self.shared),
            "OMP_NUM_THREADS": "1",
            "LOGLEVEL": os.environ.get("TS_LOGLEVEL", "WARNING"),
        }

    def start_node(self, name: str, **job_overrides) -> netns.Host:
        host = self.network.add_host(name)
        job = {
            "command": [str(HERE / "elastic_train.py")],
            "rdzv_host": self.head.address,
            "job_id": "elastic-test",
            "workdir": str(self.shared),
            "checkpoint_dir": str(self.shared / "ckpt"),
            "log_dir": str(self.shared / "logs" / name),
            "nproc_per_node": 1,
            "min_nodes": 2,
            "max_nodes": 2,
            "max_restarts": 3,
            "python": sys.executable,
            "shutdown_timeout": 10,
            "env": {
                "TOTAL_STEPS": str(TOTAL),
                "CKPT_EVERY": str(EVERY),
                "STEP_SECONDS": "0.1",
                "PROGRESS_FILE": str(self.progress),
                "HOST_NAME": name,
            },
            "rdzv_conf": {"join_timeout": "60", "keep_alive_interval": "1", "keep_alive_max_attempt": "2"},
            **job_overrides,
        }
        (self.shared / "ckpt").mkdir(exist_ok=True)
        job_file = self.shared / f"job-{name}.json"
        job_file.write_text(json.dumps(job))
        self.network.start(
            host,
            [sys.executable, "-m", "nodeagent", "run", str(job_file)],
            self.env(name),
            str(self.shared / f"agent-{name}.log"),
        )
        return host

    def events(self) -> list[dict]:
        if not self.progress.exists():
            return []
        return [json.loads(line) for line in self.progress.read_text().splitlines() if line.strip()]

    def wait_for(self, what: str, predicate) -> list[dict]:
        while time.monotonic() - self.started < DEADLINE_SECONDS:
            events = self.events()
            if predicate(events):
                return events
            time.sleep(0.1)
        logs = "\n".join(f"--- {p.name}\n{p.read_text()[-3000:]}" for p in sorted(self.shared.glob("*.log")))
        pytest.fail(f"timed out after {DEADLINE_SECONDS}s waiting for {what}\n{logs}")


@pytest.fixture
def run(tmp_path):
    network = netns.Network()
    try:
        yield Run(network, tmp_path)
    finally:
        network.close()


def _steps(events, host=None):
    return [e["step"] for e in events if e["event"] == "step" and (host is None or e["host"] == host)]


def test_preempted_node_is_replaced_and_training_resumes_from_the_last_checkpoint(run):
    node_a, node_b = run.start_node("a"), run.start_node("b")
    before = run.wait_for(
        "steps past the second checkpoint", lambda ev: max(_steps(ev, "b"), default=0) >= 2 * EVERY + 1
    )
    run.network.kill(node_b)  # a spot node gone without warning
    killed_at = max(_steps(run.events()))
    last_checkpoint = max(e["step"] for e in run.events() if e["event"] == "checkpoint")
    run.start_node("c")  # the group's replacement
    events = run.wait_for("the job to finish", lambda ev: any(e.get("reason") == "done" for e in ev))

    resumed = [e for e in events if e["event"] == "start" and e["host"] == "c"]
    assert resumed and {e["world"] for e in resumed} == {2}
    assert resumed[0]["resume_from"] == last_checkpoint
    assert last_checkpoint % EVERY == 0 and killed_at - last_checkpoint <= EVERY
    after = [e["step"] for e in events[len(before) :] if e["event"] == "step" and e["host"] == "c"]
    assert after == list(range(last_checkpoint + 1, TOTAL + 1))
    done = [e for e in events if e.get("reason") == "done"]
    assert [e["step"] for e in done] == [TOTAL]
    assert torch.load(run.shared / "ckpt" / "ckpt.pt")["step"] == TOTAL
    assert node_a.processes[0].poll() is not None or node_a.processes[0].wait(timeout=30) == 0


def test_interruption_notice_checkpoints_before_the_host_goes(run):
    port = 8099
    trigger = run.shared / "notice"
    run.start_node("a")
    node_b = run.start_node("b", cloud="aws", metadata_url=f"http://127.0.0.1:{port}", poll_seconds=0.1)
    run.network.start(
        node_b,
        [sys.executable, str(HERE / "metadata_server.py"), "aws", str(port), str(trigger)],
        run.env("b"),
        str(run.shared / "metadata.log"),
    )
    run.wait_for("steps past the first checkpoint", lambda ev: max(_steps(ev, "b"), default=0) >= EVERY + 2)
    noticed_at = max(_steps(run.events()))
    trigger.touch()  # the metadata service now answers spot/instance-action
    agent_b = node_b.processes[0]
    assert agent_b.wait(timeout=30) is not None
    gone = time.time()
    saved = [e for e in run.events() if e["event"] == "checkpoint" and e["reason"] == "sigterm"]
    assert saved and saved[0]["host"] == "b" and saved[0]["time"] < gone
    assert saved[0]["step"] >= noticed_at
    state = torch.load(run.shared / "ckpt" / "ckpt.pt")
    assert state["step"] >= saved[0]["step"]  # the newest checkpoint is at least the notice one
