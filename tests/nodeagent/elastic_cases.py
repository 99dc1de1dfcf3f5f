"""The real elastic run: one torchrun job (gloo, CPU) on namespace hosts through the events a
spot cluster lives through and a job edit (`story`), observed as an `Outcome` that
`test_elastic_run.py` checks.

Each host runs the node's real units: the head `python -m nodeagent store PORT FILE` (it
announces its address in the shared directory, as on /fsx), every worker its cloud's
metadata service (`metadata_server.py`, the documented notice format) and `python -m
nodeagent run JOB_FILE` (the launcher, its notice watcher and torchrun), restarted as the
systemd unit the bootstrap installs restarts it (its `Restart=` and `RestartPreventExitStatus=`;
only `RestartSec` is shortened). One job runs the events in turn. Every wait has a deadline and
the network is closed (processes killed, namespaces deleted) whatever happens.

The hosts' torch processes (7 torchrun agents, 2 rendezvous stores) are forked from one process
that imported torch once (`torch_zygote.py`: the hosts' `python` is its shim, which hands the
command over and stands in for the process), instead of importing it 9 times (about 1.9 s of CPU
each); only host c's training process imports it again, so torch is imported twice in all.

torchrun on every worker but `SPAWNED` forks its training process from itself (`--run-path
--start-method fork`, through torchrun's own `PET_*` variables in the node's environment, never
the job's) instead of starting an interpreter that imports torch again (about 1.9 s of CPU each,
7 times); the notice's host starts it as the product does (`torchrun script.py`), so the
notice's SIGTERM reaches a script torchrun started as a subprocess.
"""

from __future__ import annotations

import io
import json
import os
import pickle
import sys
import time
import traceback
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from nodeagent.job import CHECKPOINT_REQUEST
from nodeagent.ship import unit_text
from tests.nodeagent import netns
from tests.nodeagent.torch_zygote import Zygote

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
EVERY = 3  # checkpoint interval
# where the workers wait for the events (not checkpoint steps); at EDITED_AT, the job's last
# step, the job is edited to train to TOTAL instead (a new program: a new rendezvous id)
KILLED_AT, NOTICED_AT, REBALANCED_AT, EDITED_AT = 7, 10, 11, 12
TOTAL = 14
DEADLINE_SECONDS = 150.0  # for the whole story (on 2 cores shared with the suite)
RESTART_SECONDS = 0.2  # the unit's RestartSec=10, shortened for the test
CLOUD = "azure"  # the notice format: Scheduled Events, acknowledged after the checkpoint
# worker a's metadata service speaks AWS's IMDSv2 instead: its rebalance recommendation is advice
CLOUDS = {"a": "aws"}
SPAWNED = {"c"}  # the one host whose torchrun starts the script as a new interpreter
FORKED_WORKERS = {"PET_RUN_PATH": "1", "PET_START_METHOD": "fork"}  # torchrun's --run-path, --start-method
NOTICE_PORT = 8099  # each worker's metadata service, on its own loopback
JOB_ID, EDITED_JOB_ID = "elastic-test", "elastic-test-edited"
# torchrun's c10d options: a node is dead after 3 missed 1-s heartbeats (defaults: 5 s x 3), a
# margin against heartbeat threads starved on a loaded machine
RDZV_CONF = {"join_timeout": "60", "keep_alive_interval": "1", "keep_alive_max_attempt": "3"}


def host_env(shared: Path) -> dict[str, str]:
    """The environment every host process starts with (the torch zygote's too)."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("TS_EXTRA_PYTHONPATH")])),
        "HOME": str(shared),
        "OMP_NUM_THREADS": "1",
        "LOGLEVEL": os.environ.get("TS_LOGLEVEL", "WARNING"),
    }


@dataclass
class Outcome:
    """What the job did: the progress events `elastic_train.py` wrote; the driver's marks
    (`Run.mark`); the step in the checkpoint file at the end; each worker's first and last
    launcher exit status (None: running) and how often its unit restarted it; the notice
    acknowledgements received (time, body); the heads' address and what the rendezvous file
    held at the end (text, time written); what stopped the driver (None: nothing); the logs."""

    events: list[dict] = field(default_factory=list)
    marks: dict[str, dict] = field(default_factory=dict)
    checkpoint_step: int | None = None
    first_exits: dict[str, int | None] = field(default_factory=dict)
    last_exits: dict[str, int | None] = field(default_factory=dict)
    restarts: dict[str, int] = field(default_factory=dict)
    acks: list[dict] = field(default_factory=list)
    head_address: str = ""
    announced: dict = field(default_factory=dict)
    error: str | None = None
    logs: str = ""


def restart_policy() -> frozenset[int]:
    """The exit statuses the worker's systemd unit is not restarted after, read from the unit
    the bootstrap installs (which must say `Restart=on-failure`)."""
    lines = dict(line.split("=", 1) for line in unit_text("job", "run", None, 1).splitlines() if "=" in line)
    if lines["Restart"] != "on-failure":
        raise AssertionError(f"the job unit says Restart={lines['Restart']}; the test emulates on-failure")
    return frozenset(int(s) for s in lines.get("RestartPreventExitStatus", "").split())


class Run:
    """The job's shared directory (its /fsx), network and hosts, and the driver's helpers."""

    def __init__(self, network: netns.Network, shared: Path, python: str = sys.executable) -> None:
        self.network, self.shared, self.python = network, shared, python
        self.progress = shared / "progress.jsonl"
        self.rdzv_file = shared / "rendezvous" / JOB_ID
        self.started = time.monotonic()
        self.marks: dict[str, dict] = {}
        self.launchers: dict[str, netns.Unit] = {}
        (shared / "ckpt").mkdir()
        self.job_doc = shared / "jobs" / f"{JOB_ID}.json"  # where the head publishes job edits
        for step in (
            KILLED_AT,
            NOTICED_AT,
            REBALANCED_AT,
            EDITED_AT,
        ):  # the workers wait after the step until `release`
            (shared / f"hold.{step}").touch()
        self.head = network.add_host("head")
        self.start_head(self.head)

    def env(self) -> dict[str, str]:
        return host_env(self.shared)

    def start_head(self, host: netns.Host) -> None:
        argv = [self.python, "-m", "nodeagent", "store", "29400", str(self.rdzv_file)]
        self.network.start(host, argv, self.env(), str(self.shared / f"{host.name}.log"))

    def start_node(self, name: str) -> None:
        """A worker host: its metadata service (answering with a notice once the file
        `<shared>/<name>` exists) and the launcher unit on this job."""
        host = self.network.add_host(name)
        cloud = CLOUDS.get(name, CLOUD)
        service = [sys.executable, str(HERE / "metadata_server.py"), cloud, str(NOTICE_PORT), str(self.shared / name)]
        self.network.start(host, service, self.env(), str(self.shared / f"metadata-{name}.log"))
        job_file = self.shared / f"job-{name}.json"
        job_file.write_text(json.dumps(self.job(name)))
        argv = [sys.executable, "-m", "nodeagent", "run", str(job_file)]
        log = str(self.shared / f"agent-{name}.log")
        env = {**self.env(), "HOST_NAME": name}  # the node's own, not the job's (a job edit replaces that)
        if name not in SPAWNED:
            env |= FORKED_WORKERS
        self.launchers[name] = self.network.start(
            host, argv, env, log, restart_seconds=RESTART_SECONDS, prevent=restart_policy()
        )

    def job(self, name: str) -> dict:
        """The NodeJob fields of worker `name`, as the bootstrap writes them (plus the test's env)."""
        return {
            "command": [str(HERE / "elastic_train.py")],
            "rdzv_host": self.head.address,
            "rdzv_file": str(self.rdzv_file),
            "job_id": JOB_ID,
            "workdir": str(self.shared),
            "checkpoint_dir": str(self.shared / "ckpt"),
            "log_dir": str(self.shared / "logs" / name),
            "min_nodes": 2,
            "max_nodes": 2,
            "max_restarts": 3,
            "python": self.python,
            "shutdown_timeout": 10,
            "rdzv_conf": RDZV_CONF,
            "cloud": CLOUDS.get(name, CLOUD),
            "metadata_url": f"http://127.0.0.1:{NOTICE_PORT}",
            "poll_seconds": 0.5,  # the notice and the published job are read within 0.5 s
            "job_doc": str(self.job_doc),
            "env": {
                "TOTAL_STEPS": str(EDITED_AT),
                "CKPT_EVERY": str(EVERY),
                "STEP_SECONDS": "0",
                "HOLD_AT": f"{KILLED_AT},{NOTICED_AT},{REBALANCED_AT},{EDITED_AT}",
                "HOLD_FILE": str(self.shared / "hold"),
                "PROGRESS_FILE": str(self.progress),
            },
        }

    def edit_job(self) -> None:
        """Publish the job with more steps under a new rendezvous id, as the head node does after
        `pulumi up` writes a job edit to its job channel (`nodeagent.publisher.publish`)."""
        from nodeagent.publisher import publish
        from nodeagent.relay import RELAYED

        job = self.job("a")
        job = {**job, "job_id": EDITED_JOB_ID, "env": {**job["env"], "TOTAL_STEPS": str(TOTAL)}}
        publish(self.job_doc, {key: job[key] for key in RELAYED if key in job})

    def events(self) -> list[dict]:
        text = self.progress.read_text() if self.progress.exists() else ""
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    def wait_for(self, what: str, predicate: Callable[[list[dict]], bool]) -> None:
        """Return once `predicate(events)` holds; TimeoutError naming `what` after the deadline."""
        while time.monotonic() - self.started < DEADLINE_SECONDS:
            if predicate(self.events()):
                return
            time.sleep(0.05)
        raise TimeoutError(f"timed out after {DEADLINE_SECONDS:.0f} s waiting for {what}")

    def wait_exit(self, what: str, *names: str, last: bool = False) -> None:
        """Wait until the first (or `last`) launcher of each of `names` has exited."""
        units = [self.launchers[n] for n in names]
        self.wait_for(what, lambda _: all((u.last if last else u.first).poll() is not None for u in units))

    def release(self, step: int) -> None:
        """Let the workers waiting after `step` go on."""
        (self.shared / f"hold.{step}").unlink()

    def mark(self, name: str) -> None:
        """Remember this moment: the number of events so far, the newest step and checkpoint."""
        events = self.events()
        checkpoints = [e["step"] for e in events if e["event"] == "checkpoint"]
        self.marks[name] = {
            "at": len(events),
            "time": time.time(),
            "step": max(steps(events), default=0),
            "checkpoint": max(checkpoints, default=0),
        }

    def outcome(self, error: str | None) -> Outcome:
        acks = []
        for path in self.shared.glob("*.acks"):
            acks += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        checkpoint_step = None
        if (self.shared / "ckpt" / "ckpt.pt").exists():
            checkpoint_step = saved_step(self.shared / "ckpt" / "ckpt.pt")
        announced = {}
        if self.rdzv_file.exists():
            announced = {"text": self.rdzv_file.read_text(), "time": self.rdzv_file.stat().st_mtime}
        return Outcome(
            events=self.events(),
            marks=self.marks,
            checkpoint_step=checkpoint_step,
            first_exits={name: unit.first.poll() for name, unit in self.launchers.items()},
            last_exits={name: unit.last.poll() for name, unit in self.launchers.items()},
            restarts={name: len(unit.processes) - 1 for name, unit in self.launchers.items()},
            acks=acks,
            head_address=self.head.address,
            announced=announced,
            error=error,
            logs="\n".join(f"--- {p.name}\n{p.read_text()[-3000:]}" for p in sorted(self.shared.glob("*.log"))),
        )


class _Checkpoint(pickle.Unpickler):
    """Reads the dictionary `torch.save` pickled, without torch: its tensors become None."""

    def find_class(self, module: str, name: str) -> object:
        if module.split(".")[0] == "torch":
            return lambda *args, **kwargs: None
        return super().find_class(module, name)

    def persistent_load(self, pid: object) -> None:  # the tensors' storages, kept beside the pickle
        return None


def saved_step(path: Path) -> int:
    """The `step` in the checkpoint the job wrote (`torch.save`'s zip file: `<name>/data.pkl`),
    read without importing torch (about 1.5 s of CPU)."""
    with zipfile.ZipFile(path) as archive:
        name = next(n for n in archive.namelist() if n.endswith("/data.pkl"))
        return _Checkpoint(io.BytesIO(archive.read(name))).load()["step"]


def steps(events: list[dict], host: str | None = None) -> list[int]:
    """The steps recorded, in order (by `host` only, if given)."""
    return [e["step"] for e in events if e["event"] == "step" and (host is None or e["host"] == host)]


def _starts_of(events: list[dict], run_id: str) -> list[dict]:
    return [e for e in events if e["event"] == "start" and e.get("run_id") == run_id]


def held(step: int, *hosts: str) -> Callable[[list[dict]], bool]:
    """True once every one of `hosts` has recorded `step` (and so waits there)."""
    return lambda events: all(step in steps(events, h) for h in hosts)


def story(run: Run) -> None:
    """Head + 2 workers, the workers waiting at a known step for each event:

    1. worker b is killed without warning (a spot VM gone); the group's replacement c joins;
    2. c gets its cloud's interruption notice: it checkpoints and leaves for good;
    3. the head (the rendezvous store) is killed; once a's launcher has failed, a new head
       takes the same address and MAC (a reserved IP, ENI or NIC) and announces itself, a's
       unit restarts, c's replacement d joins;
    4. a gets AWS's rebalance recommendation: its launcher asks for an early checkpoint (the
       request file), the job saves it and trains on with no node leaving;
    5. at its last step the job is edited (more steps, a new rendezvous id) and published on
       the shared directory: both launchers stop their torchrun (the script checkpoints) and
       start the edited job together, which resumes from that checkpoint and trains to the end.
    """
    run.start_node("a"), run.start_node("b")
    run.wait_for("a and b at the first held step", held(KILLED_AT, "a", "b"))
    run.network.kill(run.network.host("b"))
    run.mark("killed")
    run.release(KILLED_AT)
    run.start_node("c")
    run.wait_for("a and c at the second held step", held(NOTICED_AT, "a", "c"))
    run.mark("noticed")
    (run.shared / "c").touch()  # c's metadata service now answers with the notice
    run.wait_exit("c's launcher to exit after the notice", "c")
    run.mark("c gone")
    run.head = run.network.replace(run.head, "head-2")
    run.mark("head lost")
    run.wait_exit("a's launcher to fail without the rendezvous", "a")
    run.mark("launcher failed")
    run.start_head(run.head)
    run.start_node("d")
    run.release(NOTICED_AT)
    run.wait_for("a and d at the third held step", held(REBALANCED_AT, "a", "d"))
    run.mark("rebalance")
    (run.shared / "a.rebalance").touch()  # a's metadata service now recommends a rebalance
    request = run.shared / "ckpt" / CHECKPOINT_REQUEST
    run.wait_for("a's launcher to ask for a checkpoint", lambda _: request.exists())
    run.release(REBALANCED_AT)
    run.wait_for("a and d at the job's last step", held(EDITED_AT, "a", "d"))
    run.mark("edited")
    run.edit_job()
    run.wait_for("the edited job to start on a and d", lambda events: len(_starts_of(events, EDITED_JOB_ID)) >= 2)
    run.release(EDITED_AT)
    run.wait_for("the job to finish", lambda events: any(e.get("reason") == "done" for e in events))
    run.wait_exit("a's and d's launchers to exit after the job", "a", "d", last=True)


def run_story(base: Path) -> Outcome:
    """Run `story` under `base`, bounded; the network is closed before this returns."""
    network = netns.Network()
    zygote = Zygote(host_env(base), base)
    try:
        run = Run(network, base, zygote.python)
        try:
            story(run)
            return run.outcome(None)
        except Exception as exc:  # reported by every test, with the logs
            return run.outcome(f"{exc}\n{traceback.format_exc()}")
    finally:
        network.close()
        zygote.close()
