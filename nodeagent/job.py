"""`NodeJob`: what one node needs to run the cluster's job, read from the JSON the bootstrap writes."""

from __future__ import annotations

import json
import os
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from nodeagent.notices import WATCHERS

JOB_FILE = "/etc/trainstack/job.json"
RDZV_PORT = 29400  # torchrun's documented default c10d rendezvous port
CLOUDS = (*WATCHERS, "none")  # a watcher in nodeagent/clouds/, or none
LAUNCHERS = ("torchrun", "paddle")

# The file a node's launcher writes in the checkpoint folder when its cloud advises an early
# checkpoint (`nodeagent.launcher.request_checkpoint`); exported to the training processes as
# TRAINSTACK_CHECKPOINT_REQUEST. The script's rank 0 checks it each step, shares the answer
# with the other ranks (e.g. an all-reduce), checkpoints and deletes the file.
CHECKPOINT_REQUEST = ".checkpoint-request"

_EXPORT = re.compile(r"^\s*export\s+([A-Za-z_][A-Za-z0-9_]*)=(.*)$")


@dataclass(frozen=True)
class NodeJob:
    """One node's view of the cluster job.

    Attributes:
        command: the training command, argv (the first item is a script path or, with
            `module`, a Python module); it runs once per process under torchrun.
        workdir: working directory of the training processes (on the shared file system).
        checkpoint_dir: where the job keeps its checkpoints; exported as
            `TRAINSTACK_CHECKPOINT_DIR` so the script resumes from the newest one.
        log_dir: directory on the shared file system for the launcher's and workers' logs.
        nproc_per_node: training processes per node (usually the node's GPU count).
        min_nodes, max_nodes: torchrun's `--nnodes=MIN:MAX`; the job runs while at least
            `min_nodes` nodes are in the rendezvous.
        max_restarts: torchrun `--max-restarts`: how often a worker group may fail and be
            restarted (a node joining is a membership change and does not count).
        rdzv_host: the head node's address (the rendezvous store; never spot).
        rdzv_port: the rendezvous TCP port.
        job_id: the rendezvous id shared by every node of the job.
        env: extra environment for the training processes.
        secrets: environment name -> where its value is read at each launch with the node's
            identity (`nodeagent.secrets`: `{"store", "id", "region"}`); references only.
        env_file: the node bootstrap's NCCL/EFA/InfiniBand environment (`export K=V` lines),
            read at launch; missing file = no extra variables.
        python: the interpreter whose torch runs the job (e.g. a venv on the shared file system).
        module: run `command[0]` as a module (`python -m`), as torchrun's `-m`.
        cloud: which notice watchers run: a watcher's name (`nodeagent/clouds/`) or `none`.
        metadata_url: the metadata service base URL; None for the cloud's documented one.
        poll_seconds: seconds between notice polls (AWS, Azure; GCP waits for a change) and
            between reads of the published job (`job_doc`).
        shutdown_timeout: seconds torchrun waits after SIGTERM before SIGKILL
            (`--shutdown-timeout`); None uses the cloud's notice window (see `notices`).
        rdzv_conf: extra torchrun `--rdzv-conf` settings (`join_timeout`, `last_call_timeout`,
            `keep_alive_interval`, ...), in seconds where they are times.
        rdzv_file: a file on the shared file system where the head node announces its address
            each time its store starts (`announce`); read before every launch, it wins over
            `rdzv_host`, so a replaced head node is found at its new address. "" = none.
        job_doc: the job document on the shared file system that the head node publishes
            from its job channel (`nodeagent.relay`); its settings win over this file's, and a
            change of rendezvous id or node counts restarts torchrun. "" = none.
        launcher: `torchrun`, or `paddle` (`python -m paddle.distributed.launch` meeting at the
            head's Paddle master, `nodeagent.paddle_master`, on `rdzv_port`).
        follow_runs: when the job ends on its own (finished or failed, not stopped by a notice
            or SIGTERM), keep the unit up and start the next run `trainstack run` publishes
            (a new run id in the run file, or a new job in `job_doc`) instead of exiting, so
            a run reaches a node whose job had ended through the head's job channel alone.
    """

    command: tuple[str, ...]
    rdzv_host: str
    job_id: str
    workdir: str = "/"
    checkpoint_dir: str = ""
    log_dir: str = ""
    nproc_per_node: int = 1
    min_nodes: int = 1
    max_nodes: int = 1
    max_restarts: int = 3
    rdzv_port: int = RDZV_PORT
    env: dict[str, str] = field(default_factory=dict)
    secrets: dict[str, dict[str, str]] = field(default_factory=dict)
    env_file: str = ""
    python: str = "python3"
    module: bool = False
    cloud: str = "none"
    metadata_url: str | None = None
    poll_seconds: float = 1.0
    shutdown_timeout: int | None = None
    rdzv_conf: dict[str, str] = field(default_factory=dict)
    rdzv_file: str = ""
    job_doc: str = ""
    launcher: str = "torchrun"
    follow_runs: bool = False

    def __post_init__(self) -> None:
        problems = []
        if not self.command:
            problems.append("command: empty; give the script and its arguments")
        if not 1 <= self.min_nodes <= self.max_nodes:
            problems.append(f"min_nodes/max_nodes: need 1 <= {self.min_nodes} <= {self.max_nodes}")
        if self.nproc_per_node < 1:
            problems.append(f"nproc_per_node: {self.nproc_per_node}; give 1 or more")
        if self.max_restarts < 0:
            problems.append(f"max_restarts: {self.max_restarts}; give 0 or more")
        if self.launcher not in LAUNCHERS:
            problems.append(f"launcher: {self.launcher!r}; one of {', '.join(LAUNCHERS)}")
        if self.cloud not in CLOUDS:
            problems.append(f"cloud: {self.cloud!r}; one of {', '.join(CLOUDS)}")
        if problems:
            raise ValueError("; ".join(problems))

    @classmethod
    def from_dict(cls, raw: dict) -> NodeJob:
        """Build from the bootstrap's JSON object (unknown keys are an error).

        Raises:
            ValueError: naming the unknown or invalid key.
        """
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(raw) - known)
        if unknown:
            raise ValueError(f"job: unknown key(s) {', '.join(unknown)}")
        data = dict(raw)
        if isinstance(data.get("command"), str):
            data["command"] = shlex.split(data["command"])
        data["command"] = tuple(data.get("command", ()))
        data["env"] = {str(k): str(v) for k, v in data.get("env", {}).items()}
        data["secrets"] = {str(k): {str(a): str(b) for a, b in v.items()} for k, v in data.get("secrets", {}).items()}
        data["rdzv_conf"] = {str(k): str(v) for k, v in data.get("rdzv_conf", {}).items()}
        return cls(**data)

    @classmethod
    def load(cls, path: str | Path = JOB_FILE) -> NodeJob:
        """Read the job file the bootstrap wrote (JSON)."""
        return cls.from_dict(json.loads(Path(path).read_text()))


def checkpoint_request_path(job: NodeJob) -> str:
    """Where an early checkpoint is asked for: `CHECKPOINT_REQUEST` in the job's checkpoint
    folder (on the shared file system, so the rank that checkpoints sees it whichever node got
    the advice); "" when the job has no checkpoint folder."""
    return str(Path(job.checkpoint_dir) / CHECKPOINT_REQUEST) if job.checkpoint_dir else ""


def read_env_file(path: str) -> dict[str, str]:
    """Variables of a shell file of `export K=V` lines (the bootstrap's NCCL environment).

    Args:
        path: the file; a missing file or "" gives {}.

    Returns:
        Name -> value, with shell quoting removed; other lines are ignored.
    """
    if not path or not Path(path).is_file():
        return {}
    env = {}
    for line in Path(path).read_text().splitlines():
        match = _EXPORT.match(line)
        if match:
            words = shlex.split(match.group(2))
            env[match.group(1)] = words[0] if words else ""
    return env


# An IPv4 address or DNS name, as the head node announces it (anything else is ignored).
_HOST = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.-]{0,252}$")


def announce(path: str | Path, host: str) -> None:
    """Write `host` (the head node's address) to `path` atomically (a temporary file renamed).

    Raises:
        ValueError: `host` is not an IPv4 address or DNS name.
        OSError: the file cannot be written.
    """
    if not _HOST.match(host):
        raise ValueError(f"rendezvous host: {host!r} is not an address")
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.tmp")
    temporary.write_text(host + "\n")
    temporary.replace(target)


def rendezvous_host(job: NodeJob) -> str:
    """The rendezvous host to use now: the address the head node last announced in
    `job.rdzv_file`, else (no file, unreadable, or not an address) `job.rdzv_host`."""
    if job.rdzv_file:
        try:
            text = Path(job.rdzv_file).read_text().strip()
        except OSError:
            return job.rdzv_host
        if _HOST.match(text):
            return text
    return job.rdzv_host


# A run started by `trainstack run` on a stack that is up: the run's rendezvous id,
# `<job_id>-<stamp>`, kept beside the rendezvous file on the shared file system. Every launch
# reads it (`current_run_id`), so a node replaced after the run joins the run, not the job's
# first (possibly finished and closed) rendezvous; an id of another job (an edited job, whose
# digest differs) is ignored, so an edit starts afresh under its own id.
RUN_SUFFIX = ".run"
RUN_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$")


def run_file(job: NodeJob) -> str:
    """Where the job's current run id is kept: beside `job.rdzv_file`; "" without one."""
    return job.rdzv_file + RUN_SUFFIX if job.rdzv_file else ""


def current_run_id(job: NodeJob) -> str:
    """The rendezvous id to launch with now: the run id in `run_file` when it belongs to this
    job (`<job_id>-...`), else `job.job_id`."""
    path = run_file(job)
    if path:
        try:
            text = Path(path).read_text().strip()
        except OSError:
            return job.job_id
        if RUN_ID.match(text) and text.startswith(job.job_id + "-"):
            return text
    return job.job_id


def start_run(job: NodeJob, run_id: str) -> str:
    """Record `run_id` as the job's current run (atomically, in `run_file`).

    Raises:
        ValueError: `run_id` is not `<job_id>-<stamp>` of this node's job (the stack's job and
            the node's differ: deploy first), or the job has no rendezvous file.
        OSError: the file cannot be written.
    """
    if not RUN_ID.match(run_id) or not run_id.startswith(job.job_id + "-"):
        raise ValueError(f"this node runs job {job.job_id}, not {run_id.rsplit('-', 1)[0]}: deploy the stack first")
    path = run_file(job)
    if not path:
        raise ValueError("the job has no rendezvous file to keep its run in")
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    temporary.write_text(run_id + "\n")
    temporary.replace(target)
    return path
