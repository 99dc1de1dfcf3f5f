"""Ship the node agent to a node: the bootstrap snippet that unpacks it and installs its unit.

`bundle()` packs this package into a deterministic base64 tar.gz (same bytes for the same
sources, so an unchanged agent never changes a launch template's user data); `install_script`
is the bash the cloud-init / user data runs as root.
"""

from __future__ import annotations

import ast
import base64
import functools
import gzip
import io
import json
import os
import shlex
import tarfile
import threading
from pathlib import Path

from nodeagent.launcher import NOTICE_EXIT_STATUS

AGENT_DIR = "/opt/trainstack"
JOB_FILE = "/etc/trainstack/job.json"
UNIT_FILE = "/etc/systemd/system/trainstack-{unit}.service"
_PACKAGE = Path(__file__).resolve().parent
# The agent's own modules, and every cloud's notice watcher (found by listing the folder).
_SHIPPED = (
    "__init__.py",
    "__main__.py",
    "follow.py",
    "job.py",
    "launcher.py",
    "metadata.py",
    "notices.py",
    "progress.py",
    "publisher.py",
    "relay.py",
    "secrets.py",
    "store.py",
    *sorted(f"clouds/{p.name}" for p in (_PACKAGE / "clouds").glob("*.py")),
    *sorted(f"secret_stores/{p.name}" for p in (_PACKAGE / "secret_stores").glob("*.py")),
)


# What only one role runs: a worker's launcher, the head's store and job-channel publisher.
_ROLE_ONLY = {"worker": ("launcher.py", "follow.py"), "head": ("store.py", "publisher.py", "progress.py")}
# What only a node that follows runs (`NodeJob.follow_runs`) needs: its wait for the next run.
_FOLLOW_ONLY = ("follow.py",)


def shipped_for(
    cloud: str, secrets: bool = False, launcher: str = "torchrun", role: str | None = None, follow_runs: bool = True
) -> tuple[str, ...]:
    """The modules a node of `cloud` needs: the agent's own and only that cloud's notice watcher
    (`nodeagent.notices` lists the folder, so it finds just that one), the secret reader only
    for a job that reads secrets (the launcher imports it then), the Paddle master only for a
    `paddle` job, the wait for the next run only for a job that follows runs, and with a `role`
    only that role's unit (`_ROLE_ONLY`); saves EC2's 16 KB."""
    own = ("__init__.py", f"{cloud}.py")
    other = {m for r, ms in _ROLE_ONLY.items() if r != role for m in ms} if role else set()
    other |= set() if follow_runs else set(_FOLLOW_ONLY)
    found = tuple(
        m
        for m in _SHIPPED
        if m not in other
        and (not m.startswith("clouds/") or m.removeprefix("clouds/") in own)
        and (secrets or (m != "secrets.py" and not m.startswith("secret_stores/")))
        and (not m.startswith("secret_stores/") or m.removeprefix("secret_stores/") in own)
    )
    return (*found, "paddle_master.py") if launcher == "paddle" else found


# CPython 3.11's AST conversion keeps one recursion counter per interpreter, not per thread
# (gh-106905): two threads parsing at once can fail with "SystemError: AST constructor recursion
# depth mismatch". Ours parse under one lock, and each module once per process (`compact_source`
# is cached); the other parser is Python 3.11's traceback formatting (its `^^^` anchors call
# `ast.parse`), which asyncio runs when it logs a failed future of a refused plan.
_PARSE_LOCK = threading.Lock()


@functools.cache
def compact_source(text: str) -> bytes:
    """A module's source without docstrings, for shipping in user data (EC2 allows 16 KB).

    The code is `ast.unparse` of the module with every docstring emptied and the functions'
    annotations dropped (nothing reads them at run time; a dataclass's field annotations stay),
    so it runs the same;
    the full sources stay in the repository.
    """
    with _PARSE_LOCK:
        tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):  # no runtime reads them
            node.returns = None
            for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs):
                arg.annotation = None
            for extra in (node.args.vararg, node.args.kwarg):
                if extra is not None:
                    extra.annotation = None
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                first.value.value = ""
    return (ast.unparse(tree) + "\n").encode()


def bundle(modules: tuple[str, ...] = _SHIPPED) -> str:
    """The agent's `modules` (docstrings dropped, `compact_source`) as base64 of a tar.gz with
    fixed times and owners (reproducible). Every plan of a stack with a job ships it; the
    packing (about 13 ms) is done once per process for the same sources."""
    folder = str(_PACKAGE)
    return _bundle(tuple((name, _source(os.path.join(folder, name))) for name in modules))


# path -> (modification time in ns, size in bytes, text) of each module read: every node's
# bootstrap (each plan, each resolved row's size check) ships the agent, and reading the same
# files each time was most of `bundle`. A file is read again when its time or size changed, the
# check Python's own bytecode cache makes.
_SOURCES: dict[str, tuple[int, int, str]] = {}


def _source(path: str) -> str:
    """The text of the module at `path` (UTF-8), read again only when it changed."""
    stat = os.stat(path)
    kept = _SOURCES.get(path)
    if kept is None or kept[0] != stat.st_mtime_ns or kept[1] != stat.st_size:
        with open(path, encoding="utf-8") as file:
            kept = _SOURCES[path] = (stat.st_mtime_ns, stat.st_size, file.read())
    return kept[2]


@functools.lru_cache(maxsize=64)
def _bundle(sources: tuple[tuple[str, str], ...]) -> str:
    """`bundle` of (module name, source text) pairs."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tar:
        for name, text in sources:
            data = compact_source(text)
            info = tarfile.TarInfo(f"nodeagent/{name}")
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            tar.addfile(info, io.BytesIO(data))
    return base64.b64encode(gzip.compress(raw.getvalue(), mtime=0)).decode()


def unit_text(unit: str, exec_start: str, mount_point: str | None, stop_seconds: int) -> str:
    """A systemd unit running one agent unit (`job` on workers, `rendezvous` on the head,
    `queued` on a TPU cluster's controller); `mount_point` None waits for no file system."""
    mounts = [f"RequiresMountsFor={mount_point}"] if mount_point else []
    return "\n".join(
        [
            "[Unit]",
            f"Description=trainstack {unit} (node agent)",
            "Wants=network-online.target",
            "After=network-online.target remote-fs.target",
            *mounts,
            "StartLimitIntervalSec=600",
            "StartLimitBurst=5",
            "[Service]",
            f"Environment=PYTHONPATH={AGENT_DIR}",
            f"ExecStart={exec_start}",
            "Restart=on-failure",
            "RestartSec=10",
            # a node stopped by an interruption notice leaves the job for good
            f"RestartPreventExitStatus={NOTICE_EXIT_STATUS}",
            "KillMode=mixed",
            f"TimeoutStopSec={stop_seconds}",
            "[Install]",
            "WantedBy=multi-user.target",
            "",
        ]
    )


def install_script(
    role: str, job: dict, mount_point: str, stop_seconds: int = 130, store_python: str | None = None
) -> str:
    """Bash that unpacks the agent, writes the job file and starts the node's unit.

    Args:
        role: `worker` (runs the job under torchrun) or `head` (keeps the rendezvous store).
        job: the `nodeagent.job.NodeJob` fields as JSON-ready values.
        mount_point: the shared file system the unit waits for.
        stop_seconds: systemd's stop timeout (longer than torchrun's shutdown timeout).
        store_python: the interpreter of the head's store (the cloud's job runtime, not the
            job's `python`, so a user's environment cannot break the rendezvous); None: the
            job's.

    Raises:
        ValueError: for an unknown role.
    """
    if role == "worker":
        unit, exec_start = "job", f"/usr/bin/python3 -m nodeagent run {JOB_FILE}"
    elif role == "head":
        unit = "rendezvous"
        server = "paddle-master" if job.get("launcher") == "paddle" else "store"  # where the launchers meet
        exec_start = f"{shlex.quote(store_python or job['python'])} -m nodeagent {server} {int(job['rdzv_port'])}"
        if job.get("rdzv_file"):  # announce the head's address to the workers at every start
            exec_start += f" {shlex.quote(job['rdzv_file'])}"
            if job.get("job_doc") and job.get("cloud", "none") != "none":  # and relay the job channel
                exec_start += f" {shlex.quote(job['job_doc'])} {shlex.quote(job['cloud'])}"
    else:
        raise ValueError(f"role: {role!r}; one of worker, head")
    path = UNIT_FILE.format(unit=unit)
    cloud, secrets, follows = job.get("cloud", "none"), bool(job.get("secrets")), bool(job.get("follow_runs"))
    modules = shipped_for(cloud, secrets, job.get("launcher", "torchrun"), role, follows)
    return "\n".join(
        [
            "# trainstack node agent",
            f"mkdir -p {AGENT_DIR} {Path(JOB_FILE).parent}",
            f"chmod 700 {Path(JOB_FILE).parent}",
            f"echo '{bundle(modules)}' | base64 -d | tar -xz -C {AGENT_DIR}",
            # the job's environment: readable by root only (mode 0600, written under umask 077)
            f"(umask 077 && cat > {JOB_FILE}) <<'TRAINSTACK_JOB'",
            json.dumps(job, sort_keys=True),
            "TRAINSTACK_JOB",
            f"chmod 600 {JOB_FILE}",
            f"cat > {path} <<'TRAINSTACK_UNIT'",
            unit_text(unit, exec_start, mount_point, stop_seconds),
            "TRAINSTACK_UNIT",
            "systemctl daemon-reload",
            f"systemctl enable --now trainstack-{unit}.service",
            "",
        ]
    )
