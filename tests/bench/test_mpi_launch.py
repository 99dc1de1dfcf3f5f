"""nccl-tests across nodes without SSH: Open MPI's mpirun starts its remote daemon through
`trainstack.bench.mpi_launch` (the shared file system), as `bench run --send` does.

The real `mpirun` (Open MPI, Debian's openmpi-bin) runs two ranks on a local host and on
`nodeb`, whose daemon `orted` is run by `mpi_launch serve` (here in this process, as the
other node would); the program is a stand-in for `all_reduce_perf` (no GPU here) that prints
its rank. About 1 s: mpirun and orted start for real, the only way to show the launch works.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from trainstack.bench import mpi_launch

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("mpirun") is None, reason="no mpirun: apt-get install -y openmpi-bin")
def test_mpirun_starts_the_other_nodes_daemon_through_the_shared_folder(tmp_path):
    shared, done = tmp_path / "mpi", tmp_path / "mpi" / "done"
    program = tmp_path / "all_reduce_perf"
    program.write_text('#!/bin/sh\necho "rank $OMPI_COMM_WORLD_RANK of $OMPI_COMM_WORLD_SIZE NCCL_X=$NCCL_X"\n')
    program.chmod(0o755)
    served = threading.Thread(target=mpi_launch.serve, args=(shared, "nodeb", done, 60.0), daemon=True)
    served.start()
    agent = f"{sys.executable} -m trainstack.bench.mpi_launch agent {shared}"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NCCL_X": "7", "OMPI_MCA_btl_vader_single_copy_mechanism": "none"}
    try:
        done_run = subprocess.run(
            ["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "2", "-H", "localhost:1,nodeb:1"]
            + ["--mca", "plm_rsh_agent", agent, "--mca", "plm_rsh_no_tree_spawn", "1", "-x", "NCCL_X", str(program)],
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
        )
    finally:
        done.write_text("0\n")
        served.join(10)
    assert done_run.returncode == 0, done_run.stderr
    assert sorted(done_run.stdout.splitlines()) == ["rank 0 of 2 NCCL_X=7", "rank 1 of 2 NCCL_X=7"]
    (command,) = sorted((shared / "nodeb").glob("*.cmd"))
    assert "orted" in command.read_text() and command.with_suffix(".exit").read_text() == "0\n"
    assert not served.is_alive()  # the other node's serve ends once mpirun is done


def test_an_agent_nobody_serves_fails_as_ssh_does_and_bad_use_is_refused(tmp_path, capsys):
    assert mpi_launch.agent(tmp_path, "nodeb", "true", deadline_seconds=0.1) == 255
    assert "nobody on nodeb ran the command" in capsys.readouterr().err
    assert mpi_launch.main(["agent", str(tmp_path)]) == 2
