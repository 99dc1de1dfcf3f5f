"""nccl-tests across the nodes without SSH: mpirun's remote launches go through the shared file system.

nccl-tests "rely on MPI to work on multiple processes, hence multiple nodes" (NVIDIA/nccl-tests
README), and Open MPI's `mpirun` starts its daemon (`orted`) on every other node through a
remote shell, `ssh` by default, any program given as `plm_rsh_agent`, called as
`AGENT HOST COMMAND...` and expected to run COMMAND on HOST until it exits (the Kubeflow MPI
Operator passes `kubectl exec` this way). The stacks open no SSH between nodes, so the
benchmark gives mpirun `python3 -m trainstack.bench.mpi_launch agent ROOT`:

- `agent ROOT HOST COMMAND...` (on the node running mpirun) writes COMMAND to
  `ROOT/HOST/NNNN.cmd` and waits for `NNNN.exit`, then prints `NNNN.out` and exits with the
  command's status;
- `serve ROOT HOST DONE` (on every other node, for the benchmark's length) runs each command
  written for HOST with `/bin/sh -c`, writing its output and exit status beside it, until the
  file DONE exists and its commands have ended.

The daemons then connect back to mpirun over TCP, as after ssh; ranks start as usual. Standard
library only (the node's `python3`).
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import time
from pathlib import Path

POLL_SECONDS = 0.05  # a choice: a stat on the shared file system


def _write(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text)
    temporary.replace(path)


def agent(root: str | Path, host: str, command: str, deadline_seconds: float = 3600.0) -> int:
    """Run `command` on `host` through its `serve`; its exit status (255, as ssh, when nobody
    ran it before the deadline or no command was given)."""
    folder = Path(root) / host
    folder.mkdir(parents=True, exist_ok=True)
    for number in itertools.count():  # claim the next free number (several agents may run at once)
        try:
            os.close(os.open(folder / f"{number:04d}.claim", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            break
        except FileExistsError:
            continue
    base = folder / f"{number:04d}"
    _write(base.with_suffix(".cmd"), command)
    end = time.monotonic() + deadline_seconds
    status = base.with_suffix(".exit")
    while not status.exists():
        if time.monotonic() > end:
            print(f"mpi_launch: nobody on {host} ran the command within {deadline_seconds:.0f} s", file=sys.stderr)
            return 255
        time.sleep(POLL_SECONDS)
    output = base.with_suffix(".out")
    if output.exists():
        sys.stdout.write(output.read_text(errors="replace"))
    return int(status.read_text().strip() or 255)


def serve(root: str | Path, host: str, done: str | Path, deadline_seconds: float = 3600.0) -> int:
    """Run the commands written for `host` until `done` exists and they have ended.

    Returns:
        0, or 1 when the deadline passed first.
    """
    folder = Path(root) / host
    folder.mkdir(parents=True, exist_ok=True)
    running: dict[Path, subprocess.Popen] = {}
    end = time.monotonic() + deadline_seconds
    while time.monotonic() < end:
        for command in sorted(folder.glob("*.cmd")):
            if command not in running:
                with open(command.with_suffix(".out"), "w") as out:
                    running[command] = subprocess.Popen(
                        ["/bin/sh", "-c", command.read_text()],
                        stdout=out,
                        stderr=subprocess.STDOUT,
                        stdin=subprocess.DEVNULL,
                    )
        for command, process in running.items():
            if process.poll() is not None and not command.with_suffix(".exit").exists():
                _write(command.with_suffix(".exit"), f"{process.returncode}\n")
        if Path(done).exists() and all(p.poll() is not None for p in running.values()):
            return 0
        time.sleep(POLL_SECONDS)
    for process in running.values():
        if process.poll() is None:
            process.kill()
    return 1


def main(argv: list[str]) -> int:
    """`agent ROOT HOST COMMAND...` or `serve ROOT HOST DONE`; 2 with a usage line otherwise."""
    if len(argv) >= 4 and argv[0] == "agent":
        return agent(argv[1], argv[2], " ".join(argv[3:]))
    if len(argv) == 4 and argv[0] == "serve":
        return serve(argv[1], argv[2], argv[3])
    print(
        "usage: python3 -m trainstack.bench.mpi_launch agent ROOT HOST COMMAND... | serve ROOT HOST DONE",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
