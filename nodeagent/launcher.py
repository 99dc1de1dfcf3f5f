"""The launcher unit: the job's command under torchrun, stopped gracefully on an interruption notice.

torchrun's agent handles SIGTERM by sending SIGTERM to every training process, waiting
`--shutdown-timeout` seconds (TorchElastic's default 30; here the cloud's notice window minus
`NOTICE_MARGIN_SECONDS`) and then SIGKILL. So a notice gives the training script the window to
write a checkpoint: its SIGTERM handler should save and exit.
"""

from __future__ import annotations

import dataclasses
import fcntl
import json
import logging
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from nodeagent import relay
from nodeagent.job import NodeJob, checkpoint_request_path, current_run_id, read_env_file, rendezvous_host
from nodeagent.notices import NOTICE_SECONDS, Notice, sources_for, watch

NOTICE_MARGIN_SECONDS = 5  # left for torchrun's own exit after the workers' grace (a choice)
# The launcher's exit status after a notice stopped the job: the node is leaving, so its unit
# must not start the job again (`RestartPreventExitStatus=` in `nodeagent.ship.unit_text`);
# restarted, it would rejoin the rendezvous and restart every other node's workers.
# 75 is EX_TEMPFAIL (sysexits.h): the job goes on elsewhere.
NOTICE_EXIT_STATUS = 75
# A secret the node could not read (`nodeagent.secrets`): EX_CONFIG (sysexits.h); the unit
# starts the launcher again after its restart delay (a grant or a secret may still be arriving).
SECRET_EXIT_STATUS = 78
_SIOCGIFADDR = 0x8915
log = logging.getLogger("trainstack.nodeagent")


def local_address(host: str, port: int) -> str:
    """The IPv4 address this node uses to reach the rendezvous (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect((host, port))
        return probe.getsockname()[0]


def interface_of(address: str) -> str | None:
    """The network interface holding `address` (Linux), for GLOO_SOCKET_IFNAME; None if none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _, name in socket.if_nameindex():
            try:
                raw = fcntl.ioctl(sock.fileno(), _SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue
            if socket.inet_ntoa(raw[20:24]) == address:
                return name
    return None


def wait_for_rendezvous(
    job: NodeJob,
    deadline_seconds: float = 900.0,
    pause: float = 1.0,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> str:
    """The rendezvous host once its store accepts a TCP connection, re-reading the address the
    head node announces (`rendezvous_host`) before each try, so a node whose head was replaced
    waits for the new one instead of failing torchrun (and systemd's restart limit) on the old.

    Args:
        job: the node's job.
        deadline_seconds: how long to wait (a choice: a replaced head boots in minutes);
            after it the last address is returned and torchrun reports the failure.
        pause: seconds between tries; sleep, clock: injectable for tests.
    """
    end = clock() + deadline_seconds
    while True:
        host = rendezvous_host(job)
        try:
            with socket.create_connection((host, job.rdzv_port), timeout=min(pause, 5.0)):
                return host
        except OSError:
            if clock() >= end:
                return host
        sleep(pause)


def shutdown_timeout(job: NodeJob) -> int:
    """Seconds torchrun gives the workers after SIGTERM: the job's, else the notice window minus a margin."""
    if job.shutdown_timeout is not None:
        return job.shutdown_timeout
    return max(NOTICE_SECONDS.get(job.cloud, 30) - NOTICE_MARGIN_SECONDS, 1)


def torchrun_argv(job: NodeJob, local_addr: str) -> list[str]:
    """The torchrun command line for this node.

    Args:
        job: the node's job.
        local_addr: the address other nodes reach this one at (`--local-addr`).

    Returns:
        argv: `python -m torch.distributed.run --nnodes=MIN:MAX --rdzv-backend=c10d ... command`.
    """
    conf = {"is_host": "false", **job.rdzv_conf}  # the head node, not a worker, hosts the store
    argv = [
        job.python,
        "-m",
        "torch.distributed.run",
        f"--nnodes={job.min_nodes}:{job.max_nodes}",
        f"--nproc-per-node={job.nproc_per_node}",
        "--rdzv-backend=c10d",
        f"--rdzv-endpoint={job.rdzv_host}:{job.rdzv_port}",
        f"--rdzv-id={job.job_id}",
        "--rdzv-conf=" + ",".join(f"{k}={v}" for k, v in conf.items()),
        f"--max-restarts={job.max_restarts}",
        f"--local-addr={local_addr}",
        f"--shutdown-timeout={shutdown_timeout(job)}",
    ]
    if job.log_dir:
        argv += [f"--log-dir={job.log_dir}", "--redirects=3", "--tee=3"]
    if job.module:
        argv.append("-m")
    return argv + list(job.command)


def paddle_argv(job: NodeJob, local_addr: str) -> list[str]:
    """The `python -m paddle.distributed.launch` command line for this node (PaddlePaddle docs,
    "launch"): every node a participant of the head's Paddle master (`--master`, on the
    rendezvous port), a fixed `--nnodes` (its HTTP master has no elastic membership),
    `--job_id` the rendezvous id, `--max_restart` the job's restarts, `--host` this node's
    address, logs in the job's log folder."""
    argv = [
        job.python,
        "-m",
        "paddle.distributed.launch",
        f"--master={job.rdzv_host}:{job.rdzv_port}",
        f"--nnodes={job.max_nodes}",
        f"--nproc_per_node={job.nproc_per_node}",
        f"--job_id={job.job_id}",
        f"--max_restart={job.max_restarts}",
        f"--host={local_addr}",
    ]
    if job.log_dir:
        argv.append(f"--log_dir={job.log_dir}/paddle-{local_addr}")
    return argv + list(job.command)


def launch_argv(job: NodeJob, local_addr: str) -> list[str]:
    """The node's launcher command line: `paddle_argv` for `launcher: paddle`, else `torchrun_argv`."""
    return paddle_argv(job, local_addr) if job.launcher == "paddle" else torchrun_argv(job, local_addr)


def launcher_env(job: NodeJob, base: dict[str, str], interface: str | None) -> dict[str, str]:
    """Environment of torchrun: the node's, the bootstrap's NCCL/EFA file, then the job's own."""
    env = {**base, **read_env_file(job.env_file), **job.env}
    if job.checkpoint_dir:
        env["TRAINSTACK_CHECKPOINT_DIR"] = job.checkpoint_dir
        env["TRAINSTACK_CHECKPOINT_REQUEST"] = checkpoint_request_path(job)
    if interface:
        env.setdefault("GLOO_SOCKET_IFNAME", interface)
    # torch 2.13 shares the rendezvous TCPStore with the workers; when a replacement node joins
    # a later round at rank > 0 while rank 0 stays, rank 0 never republishes the bootstrap
    # address and the round deadlocks (seen in tests/nodeagent/test_elastic_run.py). Opt out.
    env.setdefault("TORCH_DISABLE_SHARE_RDZV_TCP_STORE", "1")
    return env


def request_checkpoint(job: NodeJob, notice: Notice, host: str) -> str:
    """Ask the job for an early checkpoint after advice (`Notice.leaves` False): write the
    request file (`checkpoint_request_path`) atomically, naming the node and the notice. The
    node's torchrun keeps running: nothing is stopped.

    Returns:
        The file written, or "" when the job has no checkpoint folder.
    """
    path = checkpoint_request_path(job)
    if not path:
        return ""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{host}.tmp")
    body = {"host": host, "cloud": notice.cloud, "kind": notice.kind, "detail": notice.detail}
    temporary.write_text(json.dumps({**body, "not_before": notice.not_before}) + "\n")
    temporary.replace(target)
    return path


def run(job: NodeJob) -> int:
    """Run the job on this node until torchrun exits; an interruption notice or SIGTERM stops it
    gracefully, advice only asks for an early checkpoint (`request_checkpoint`), and a new job
    or node count published on the shared file system (`nodeagent.relay`) stops torchrun and
    starts it again with the new settings, as every other node does at the same time.

    Returns:
        torchrun's exit status (0 when the job finished); `NOTICE_EXIT_STATUS` after a
        notice stopped it.
    """
    notices: list[Notice] = []
    running: dict = {}  # the torchrun now running ("process") and why it was stopped
    stop = threading.Event()

    def stop_launcher(notice: Notice | None = None) -> None:
        if notice is not None:
            notices.append(notice)
        running["leaving"] = True
        _terminate(running.get("process"))

    def advise(notice: Notice) -> None:  # the job now running checkpoints early
        request_checkpoint(running["job"], notice, running["addr"])

    signal.signal(signal.SIGTERM, lambda *_: stop_launcher())
    now = relay.current(job)
    running.update(job=now, addr="")
    watch(sources_for(job.cloud, job.metadata_url), stop_launcher, stop, job.poll_seconds, advise)
    while True:
        # a replaced head node announces its new address on the shared file system; a run started
        # by `trainstack run` keeps its rendezvous id there too (`now` keeps the job's own id,
        # which the published job is compared with)
        now = dataclasses.replace(now, rdzv_host=wait_for_rendezvous(now))
        launched = dataclasses.replace(now, job_id=current_run_id(now))
        addr = local_address(now.rdzv_host, now.rdzv_port)
        running.update(job=launched, addr=addr)
        env = launcher_env(launched, dict(os.environ), interface_of(addr))
        if launched.secrets:  # read with the node's identity at each start, into the environment only
            from nodeagent.secrets import SecretError, read_secrets  # shipped only to such nodes

            try:
                env.update(read_secrets(launched.secrets))
            except SecretError as exc:
                print(f"trainstack launcher: {exc}", file=sys.stderr, flush=True)
                stop.set()
                return SECRET_EXIT_STATUS
        log_file = _open_log(launched, addr)
        running["process"] = process = subprocess.Popen(
            launch_argv(launched, addr), cwd=now.workdir, env=env, stdout=log_file, stderr=subprocess.STDOUT
        )
        if running.get("leaving"):  # a notice or SIGTERM came while it started
            _terminate(process)
        follower = threading.Thread(target=_follow, args=(job, now, process, running), daemon=True)
        follower.start()
        code = process.wait()
        if log_file is not None:
            log_file.close()
        changed = running.pop("changed", None)
        if job.follow_runs and not (changed or running.get("leaving")):
            from nodeagent.follow import next_run  # shipped to the nodes that follow runs

            changed, code = next_run(job, now, launched.job_id, code, running)
        if running.get("leaving") or changed is None:
            break
        log.info("job changed (rendezvous id %s -> %s): starting it", now.job_id, changed.job_id)
        now = changed
    stop.set()
    for notice in notices:
        if notice.ack is not None:
            notice.ack()
    return NOTICE_EXIT_STATUS if notices else code


def _terminate(process: subprocess.Popen | None) -> None:
    if process is not None and process.poll() is None:
        process.send_signal(signal.SIGTERM)


def _follow(job: NodeJob, now: NodeJob, process: subprocess.Popen, running: dict) -> None:
    """While `process` runs, read the published job every `job.poll_seconds`; on a new
    rendezvous id or node count, or a new run for a node that follows runs
    (`NodeJob.follow_runs`), note it in `running["changed"]` and stop torchrun."""
    if not job.job_doc:
        return
    while process.poll() is None:
        time.sleep(job.poll_seconds)
        latest = relay.current(job)
        new_run = job.follow_runs and current_run_id(latest) != running["job"].job_id
        if (relay.restart_needed(now, latest) or new_run) and not running.get("leaving"):
            running["changed"] = latest
            _terminate(process)
            return


def _open_log(job: NodeJob, addr: str):
    if not job.log_dir:
        return None
    Path(job.log_dir).mkdir(parents=True, exist_ok=True)
    return open(Path(job.log_dir) / f"launcher-{addr}.log", "ab")
