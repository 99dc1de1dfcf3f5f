"""The elastic story's torch zygote (`torch_zygote.py`) runs a host's command as `python` does:
each case runs one small program with the real interpreter and through the shim, and compares
what a caller sees (standard output and error, exit status, the signal it ended by, signals
forwarded). Started without preloading torch (what it preloads changes no behaviour here); the
network namespace a child joins is checked by the elastic story itself, whose hosts reach each
other only from their own namespaces."""

from __future__ import annotations

import json
import os
import signal
import socket
import struct
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.nodeagent.torch_zygote import Zygote

PROGRAMS = {
    "argv, path, cwd, env and stdin": """
        import os, sys
        print(sys.argv[1:], sys.path[0] == os.path.dirname(os.path.abspath(__file__)), os.getcwd() == os.environ["WHERE"])
        print(__name__, os.environ["ONLY_HERE"], "PYTEST_CURRENT_TEST" in os.environ, sys.stdin.read().strip())
    """,
    "exit status": "import sys; print('out'); sys.exit(3)",
    "exit with a message": "import sys; sys.exit('bye now')",
    "uncaught exception": "raise ValueError('not a number')",
    "atexit and a thread joined at exit": """
        import atexit, threading, time
        atexit.register(lambda: print('atexit ran'))
        threading.Thread(target=lambda: (time.sleep(0.1), print('thread done'))).start()
        print('main done')
    """,
    "ended by its own signal": "import os, signal; print('going', flush=True); os.kill(os.getpid(), signal.SIGTERM)",
    "__name__ and a module run with -m": "import sys; print(__name__, sys.argv[0].endswith('program.py'))",
}


@pytest.fixture(scope="module")
def zygote(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Zygote]:
    folder = tmp_path_factory.mktemp("zygote")
    started = Zygote(dict(os.environ), folder, preload=())
    yield started
    started.close()


def _run(python: str, program: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ONLY_HERE": "yes", "WHERE": str(program.parent)}
    env.pop("PYTEST_CURRENT_TEST", None)
    return subprocess.run(
        [python, *args], cwd=program.parent, env=env, input="from stdin", capture_output=True, text=True, timeout=30
    )


@pytest.mark.parametrize("name", PROGRAMS)
def test_a_forked_child_ends_as_the_real_interpreter_does(zygote: Zygote, tmp_path: Path, name: str) -> None:
    program = tmp_path / "program.py"
    program.write_text(textwrap.dedent(PROGRAMS[name]))
    how = ["-m", "program", "x"] if "-m" in name else [str(program), "x", "y"]
    real, forked = _run(sys.executable, program, *how), _run(zygote.python, program, *how)
    assert (forked.returncode, forked.stdout) == (real.returncode, real.stdout)
    assert forked.stderr.splitlines()[-1:] == real.stderr.splitlines()[-1:]  # the traceback's frames differ
    assert real.returncode == {"exit status": 3, "ended by its own signal": -15}.get(name, real.returncode)


# short sleeps: a signal handled by the interpreter just before a long sleep starts waits
# for the sleep's end to run its Python handler (the sleep itself is not interrupted)
SIGNALLED = """
import os, signal, sys, time
signal.signal(signal.SIGTERM, lambda *_: (print("got SIGTERM", flush=True), sys.exit(7)))
print(os.getpid(), flush=True)
for _ in range(600):
    time.sleep(0.05)
"""


def _started(python: str, program: Path) -> tuple[subprocess.Popen[str], int]:
    process = subprocess.Popen([python, str(program)], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    return process, int(process.stdout.readline())


@pytest.mark.parametrize("python", ["real", "forked"])
def test_sigterm_sent_to_the_shim_reaches_the_program(zygote: Zygote, tmp_path: Path, python: str) -> None:
    program = tmp_path / "program.py"
    program.write_text(SIGNALLED)
    process, _pid = _started(sys.executable if python == "real" else zygote.python, program)
    process.send_signal(signal.SIGTERM)
    out, _ = process.communicate(timeout=30)
    assert (process.returncode, out) == (7, "got SIGTERM\n")


def test_a_killed_shim_takes_its_child_with_it(zygote: Zygote, tmp_path: Path) -> None:
    program = tmp_path / "program.py"
    program.write_text(SIGNALLED)
    process, pid = _started(zygote.python, program)
    assert pid != process.pid  # the program runs in the zygote's child, not in the shim
    process.kill()
    process.wait(timeout=10)
    deadline = time.monotonic() + 10
    while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not os.path.exists(f"/proc/{pid}")


def test_a_shim_gone_before_it_read_its_childs_pid_takes_the_child_and_the_zygote_serves_on(
    zygote: Zygote, tmp_path: Path
) -> None:
    """A shim killed with the zygote's answer unread resets the connection (ECONNRESET, not an
    end of file): the zygote kills that child and goes on serving (it once ended there)."""
    program = tmp_path / "program.py"
    pid_file = tmp_path / "pid"  # written whole, then renamed: never read half-written
    program.write_text(
        f"import os, time\nopen({str(pid_file)!r} + '.tmp', 'w').write(str(os.getpid()))\n"
        f"os.rename({str(pid_file)!r} + '.tmp', {str(pid_file)!r})\ntime.sleep(30)\n"
    )
    request = json.dumps({"argv": [str(program)], "env": dict(os.environ), "cwd": str(tmp_path)}).encode()
    net = os.open("/proc/self/ns/net", os.O_RDONLY)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as channel:  # what the shim sends
        channel.connect(zygote.address)
        socket.send_fds(channel, [struct.pack("!I", len(request))], [0, 1, 2, net])
        channel.sendall(request)
        os.close(net)
        deadline = time.monotonic() + 10
        while not pid_file.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
    pid = int(pid_file.read_text())  # the socket closed with the answer unread
    while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not os.path.exists(f"/proc/{pid}")
    after = tmp_path / "after.py"
    after.write_text("print('served')\n")
    assert _run(zygote.python, after, str(after)).stdout == "served\n"
