"""One pre-imported torch for the elastic story's hosts: a process that imports torch and
torchrun once and forks, for each host process that would import them again, a child that runs
that process's command.

The hosts' torch processes are the head's rendezvous store (`python -m nodeagent store`) and each
worker's torchrun (`python -m torch.distributed.run`, which the launcher starts with the job's
`python`). Each imports torch (about 1.9 s of CPU); the story starts 9 of them. Here the story's
hosts get, as their `python`, a shim (`zygote_shim.py`, `Zygote.python`) that sends its command,
environment, working directory, standard streams and network namespace to this process; the
child forked here joins that namespace, takes those streams and that environment and runs the
command as `python -m MODULE` or `python SCRIPT` does (`sys.path[0]`, `__main__`, the exit
status, atexit). The child is a new process of the code it runs: only the third-party modules
imported here (torch and its launcher) are shared, as a torchrun started with `--start-method
fork` shares them with its workers. What torchrun starts as a new interpreter (a script's
worker, host c's) still imports torch itself. `tests/nodeagent/test_torch_zygote.py` checks
that a forked child answers as the real process does.

The zygote is started with the hosts' environment (torch reads some of it at import: LOGLEVEL,
OMP_NUM_THREADS) and ends with its parent (or when `close` terminates it), killing its children.
"""

from __future__ import annotations

import ctypes
import json
import os
import runpy
import selectors
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

from tests.ref_zygote import exit_status, flush_streams

HERE = Path(__file__).resolve().parent
CLONE_NEWNET = 0x40000000  # setns(2)
PR_SET_PDEATHSIG = 1  # prctl(2)
PRELOADED = ("torch", "torch.distributed", "torch.distributed.run", "torch.distributed.elastic.agent.server.api")


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _receive(channel: socket.socket) -> tuple[dict, list[int]]:
    head, fds, _flags, _addr = socket.recv_fds(channel, 4, 4)
    size = struct.unpack("!I", head)[0]
    body = b""
    while len(body) < size:
        part = channel.recv(size - len(body))
        if not part:
            raise ConnectionError("the shim closed its request")
        body += part
    return json.loads(body), fds


def _interpreter_exit(code: int | None, interrupted: bool) -> None:
    """End as the interpreter ends: join the threads, run atexit, flush; never returns."""
    try:
        threading._shutdown()  # type: ignore[attr-defined]  # the interpreter's own step at exit
    except BaseException:  # noqa: S110 - exiting anyway
        pass
    import atexit

    atexit._run_exitfuncs()
    flush_streams()
    if interrupted:  # an uncaught KeyboardInterrupt: Python ends by SIGINT
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    os._exit(1 if code is None else code)


def _child(request: dict, fds: list[int]) -> None:
    """Run the request's command in its namespace, streams and environment; never returns."""
    code, interrupted = 1, False
    try:
        os.setsid()
        for target, fd in enumerate(fds[:3]):
            os.dup2(fd, target)
        if _libc().setns(fds[3], CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), "setns")
        for fd in fds:
            os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD):
            signal.signal(signum, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        argv = request["argv"]
        try:
            if argv[0] == "-m":
                sys.argv, sys.path[0] = ["-m", *argv[2:]], os.getcwd()
                runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
            elif not argv[0].startswith("-"):
                sys.argv, sys.path[0] = list(argv), os.path.dirname(os.path.abspath(argv[0]))
                runpy.run_path(argv[0], run_name="__main__")
            else:
                print(f"zygote: unsupported python option {argv[0]}", file=sys.stderr)
                os._exit(2)
            code = 0
        except SystemExit as done:
            code = exit_status(done)
        except KeyboardInterrupt:
            traceback.print_exc()
            interrupted = True
        except BaseException:  # as the interpreter does: the traceback on stderr, status 1
            traceback.print_exc()
    finally:
        _interpreter_exit(code, interrupted)


def _gone(channel: socket.socket) -> bool:
    """True when the shim at the other end of `channel` has closed it or died (a shim sends
    nothing after its request: readable means gone; a killed one may reset the connection)."""
    try:
        return not channel.recv(1)
    except OSError:
        return True


def serve(listener: socket.socket) -> None:
    """Fork a child per shim connecting to `listener`; tell each shim its child's PID, then its
    exit status (`os.waitstatus_to_exitcode`); kill the child of a shim that went away."""
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ)
    children: dict[int, socket.socket] = {}

    def stop(_signum: int, _frame: object) -> None:
        for pid in children:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    while True:
        for key, _events in selector.select(timeout=0.05):
            if key.fileobj is listener:
                channel, _ = listener.accept()
                try:
                    request, fds = _receive(channel)
                except (OSError, ValueError):
                    channel.close()
                    continue
                sys.stdout.flush(), sys.stderr.flush()
                pid = os.fork()
                if pid == 0:
                    selector.close()
                    listener.close()
                    for other in children.values():
                        other.close()
                    channel.close()
                    _child(request, fds)
                for fd in fds:
                    os.close(fd)
                children[pid] = channel
                selector.register(channel, selectors.EVENT_READ, pid)
                try:
                    channel.sendall(f"{pid}\n".encode())
                except OSError:  # the shim is gone already: its child goes too, below
                    pass
            elif _gone(key.fileobj):  # type: ignore[arg-type]  # a shim's channel
                selector.unregister(key.fileobj)
                try:
                    os.kill(key.data, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        while children:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                break
            channel = children.pop(pid)
            try:
                channel.sendall(f"{os.waitstatus_to_exitcode(status)}\n".encode())
            except OSError:
                pass
            try:
                selector.unregister(channel)
            except (KeyError, ValueError):
                pass
            channel.close()


class Zygote:
    """The story's zygote: started with the hosts' environment `env`, importing `preload`;
    `python` (written in `folder`) is the shim to give the hosts as their interpreter; `close`
    ends it and its children."""

    def __init__(self, env: dict[str, str], folder: Path, preload: tuple[str, ...] = PRELOADED) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="tsz-"))  # short: a socket's path has 108 bytes
        address = str(self.folder / "s")
        self.python = str(folder / "zygote-python")
        Path(self.python).write_text(
            f"#!{sys.executable} -S\nimport sys\nsys.path.insert(0, {str(HERE)!r})\n"
            f"import zygote_shim\nzygote_shim.main({address!r})\n"
        )
        os.chmod(self.python, 0o755)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.nodeagent.torch_zygote", address, *preload],
            env=env,
            cwd=HERE.parents[1],
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        self.address = address
        deadline = time.monotonic() + 30
        while not os.path.exists(address):  # bound before torch is imported: then shims queue
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the torch zygote did not start (status {self.process.poll()})")
            time.sleep(0.01)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        shutil.rmtree(self.folder)


if __name__ == "__main__":
    _libc().prctl(PR_SET_PDEATHSIG, signal.SIGTERM)  # ends with the story
    socket_ = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    socket_.bind(sys.argv[1])
    socket_.listen(64)
    for name in sys.argv[2:]:
        __import__(name)
    serve(socket_)
