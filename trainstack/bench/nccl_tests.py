"""The benchmark's first step on every node: nccl-tests' own `all_reduce_perf` over all of them,
started by `mpirun` on the first node through the shared file system, no SSH
(`trainstack.bench.mpi_launch`); `trainstack.bench.remote` runs it before the training steps.
"""

from __future__ import annotations

import re
import shlex

from trainstack.bench.node_files import JOB_FILE

NCCL_TESTS_REPO = "https://github.com/NVIDIA/nccl-tests.git"
WAIT_FOR_NODES_SECONDS = 600  # a choice: every node gets the command within seconds of the others
# A message size both all-reduce runners read: nccl-tests' `-e` (its parsesize: a number with
# an optional K, M or G, powers of 1024, in src/common.cu) and the torch fallback
# (`trainstack.bench.allreduce.size_bytes`, whole numbers only).
_SIZE = re.compile(r"([1-9][0-9]{0,12})([KMG]?)", re.IGNORECASE)
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
MIN_BYTES = 8  # the runs' `-b 8`: the largest message cannot be smaller


def max_bytes_problem(text: str) -> str | None:
    """Why `--max-bytes TEXT` is not a largest all-reduce message size, in one line, or None.

    Sizes are bytes with an optional K, M or G (powers of 1024, as nccl-tests reads them):
    `8G` is 8 GiB. At least `MIN_BYTES`.
    """
    found = _SIZE.fullmatch(text.strip())
    if found is None:
        return (
            f"--max-bytes: {text!r} is not a size; write whole bytes with an optional K, M or G "
            "(powers of 1024, as nccl-tests reads them), e.g. 8G"
        )
    if int(found.group(1)) * _UNITS[found.group(2).upper()] < MIN_BYTES:
        return f"--max-bytes: {text!r} is below the smallest message ({MIN_BYTES} bytes); give at least {MIN_BYTES}, e.g. 8G"
    return None


def nccl_step(cluster, root: str, max_bytes: str) -> list[str]:
    """Shell lines that run nccl-tests' `all_reduce_perf` over every node of the job, one rank per
    GPU (`-g 1`, as NVIDIA/nccl-tests' README runs it under mpirun), into `$RUN/nccl-all.log`,
    and set `NCCL_OK` to mpirun's exit status (`missing` when no MPI or binary was found).

    Every node writes its address (the one that routes to the head node) under `$RUN/mpi/hosts`
    and waits for all `max_nodes`; the lowest address runs `mpirun -H a:G,b:G,...` with
    `trainstack.bench.mpi_launch agent` as its remote shell, the others serve its commands
    until it is done. The binary: the image's (`JobRuntime.nccl_tests`), else a build of
    NVIDIA/nccl-tests (`make MPI=1`) in `<root>/nccl-tests`, made once under a lock.
    """
    from clouds.job_runtime import runtime_for

    runtime = runtime_for(cluster.provider)
    tests = runtime.nccl_tests if runtime is not None else None
    dirs = " ".join(tests.dirs) if tests else ""
    build = f"{shlex.quote(root)}/nccl-tests"
    read = "python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' " + JOB_FILE
    route = (
        "python3 -c 'import json,socket,sys; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); "
        's.connect((json.load(open(sys.argv[1]))["rdzv_host"], 9)); print(s.getsockname()[0])\' ' + JOB_FILE
    )
    hosts = r'find "$MPI_DIR/hosts" -type f -printf "%f\n" | sort -V'
    forward = r"$(env | sed -n 's/^\(NCCL_[A-Za-z0-9_]*\|FI_[A-Za-z0-9_]*\)=.*/-x \1/p')"
    builder = shlex.quote(
        '[ -x "$1/build/all_reduce_perf" ] || { rm -rf "$1" && '
        f'git clone --depth 1 {NCCL_TESTS_REPO} "$1" && '
        'make -C "$1" MPI=1 MPI_HOME="$2" CUDA_HOME=/usr/local/cuda; }'
    )
    return [
        "# 1. nccl-tests all_reduce_perf over every node: mpirun on the first, no SSH (trainstack.bench.mpi_launch)",
        f"NODES=$({read} max_nodes); GPUS=$({read} nproc_per_node); ENV_FILE=$({read} env_file); ME=$({route})",
        'MPI_DIR="$RUN/mpi"; mkdir -p "$MPI_DIR/hosts"; touch "$MPI_DIR/hosts/$ME"',
        f'for _ in $(seq {WAIT_FOR_NODES_SECONDS}); do [ "$({hosts} | wc -l)" -ge "$NODES" ] && break; sleep 1; done',
        f"FIRST=$({hosts} | head -n 1)",
        f"{tests.mpi_setup} || true" if tests and tests.mpi_setup else "# no MPI setup: the image's PATH",
        f"NCCL_TESTS=$(ls -d {dirs} 2>/dev/null | sort -V | tail -n 1)" if dirs else "NCCL_TESTS=",
        "MPIRUN=$(command -v mpirun || true)",
        'if [ -n "$MPIRUN" ] && [ ! -x "$NCCL_TESTS/all_reduce_perf" ]; then  # not in the image: build once',
        f"  NCCL_TESTS={build}/build",
        f'  flock {build}.lock sh -c {builder} _ {build} "$(dirname "$(dirname "$MPIRUN")")" '
        '> "$RUN/nccl-build-$HOST.log" 2>&1 || true',
        "fi",
        "NCCL_OK=missing",
        'if [ -n "$MPIRUN" ] && [ -x "$NCCL_TESTS/all_reduce_perf" ]; then',
        '  if [ "$ME" = "$FIRST" ]; then',
        f'    HOSTS=$({hosts} | sed "s/$/:$GPUS/" | paste -sd, -)',
        '    ( set -a; if [ -f "$ENV_FILE" ]; then . "$ENV_FILE"; fi; set +a',
        "      # shellcheck disable=SC2046  # one -x per NCCL_/FI_ variable",
        '      "$MPIRUN" --allow-run-as-root -np $((NODES * GPUS)) -H "$HOSTS" --bind-to none \\',
        '        --mca plm_rsh_agent "python3 -m trainstack.bench.mpi_launch agent $MPI_DIR" '
        "--mca plm_rsh_no_tree_spawn 1 \\",
        f"        -x PATH -x LD_LIBRARY_PATH -x PYTHONPATH {forward} \\",
        f'        "$NCCL_TESTS/all_reduce_perf" -b 8 -e {max_bytes} -f 2 -g 1 ) > "$RUN/nccl-all.log" 2>&1',
        '    echo "$?" > "$MPI_DIR/done"',
        "  else",
        '    python3 -m trainstack.bench.mpi_launch serve "$MPI_DIR" "$ME" "$MPI_DIR/done"',
        "  fi",
        '  NCCL_OK=$(cat "$MPI_DIR/done" 2>/dev/null || echo unknown)',
        "fi",
    ]
