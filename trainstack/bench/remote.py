"""The benchmark as one command: what every node runs, and how its logs come back as a results file.

`trainstack bench run -s NAME --send` sends `node_commands` to every node of the stack (on AWS
through Systems Manager Run Command, `trainstack.bench.aws_ssm`). Each node unpacks the benchmark
programs (`bundle`: torch-only modules, so the job's interpreter needs nothing else), then
runs each step as a job of its own node agent (`python3 -m nodeagent run`: the job file's
rendezvous on the head node, the bootstrap's NCCL/EFA environment, every node required), in the
same order on every node, so no SSH, hostfile or MPI is set up:

1. nccl-tests' own `all_reduce_perf` over all nodes (`trainstack.bench.nccl_tests.nccl_step`):
   the image's build where it ships one (`JobRuntime.nccl_tests`), else built once on the shared
   file system; `mpirun`
   on the first node starts the others' MPI daemons through the shared file system
   (`trainstack.bench.mpi_launch`), not SSH. Where no MPI or binary is to be had, the
   all-reduce is measured with torch.distributed instead (`trainstack.bench.allreduce`:
   nccl-tests' definitions and output format), and the log says so;
2. the training step of ResNet-50 and ViT-B/16 on synthetic tensors (`trainstack.bench.train`).

Logs land on the shared file system under `<mount>/trainstack/bench/<stack>/<run>/`.
`fetch_commands` packs a run's logs (the nccl-tests table and the `#bench` lines) into
standard output; `results_from_output` turns that back into the results file `bench import` takes.
"""

from __future__ import annotations

import base64
import gzip
import io
import shlex
import tarfile
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from clouds.registry import CLOUDS
from trainstack.bench.nccl_tests import nccl_step
from trainstack.bench.node_files import AGENT_DIR, JOB_FILE, JOB_UNIT_FILE, SCRIPTS

# The node's files (`node_files`) and the nccl-tests step (`nccl_tests`) stay importable from here.
__all__ = ["AGENT_DIR", "JOB_FILE", "JOB_UNIT_FILE", "SCRIPTS", "nccl_step"]

MODELS = ("resnet50", "vit_b16")
_ROOT = Path(__file__).resolve().parents[2]
SHIPPED = (
    "trainstack/__init__.py",
    "trainstack/bench/__init__.py",
    "trainstack/bench/allreduce.py",
    "trainstack/bench/data.py",
    "trainstack/bench/fsread.py",
    "trainstack/bench/jobfile.py",
    "trainstack/bench/lines.py",
    "trainstack/bench/mpi_launch.py",
    "trainstack/bench/models.py",
    "trainstack/bench/train.py",
)
OUTPUT_MARK = "TRAINSTACK-BENCH-LOGS "  # the line of fetch output that holds the logs
PART_CHARS = 3000  # a choice: one piece of them per answer, under Azure Run Command's last 4,096 bytes
FINISHED = "finished-"  # `<run>/finished-<host>`: a node has run every step
FINISHED_MARK = "TRAINSTACK-BENCH-FINISHED "


def results_root(provider: str, stack: str) -> str:
    """Where a stack's benchmark runs are kept: on its shared file system."""
    found = CLOUDS.get(provider)
    return f"{found.shared_mount if found else '/mnt/shared'}/trainstack/bench/{stack}"


def new_run_id(now: datetime | None = None) -> str:
    """A run's folder name: its UTC start time (`20261207T060000Z`), so names sort by time."""
    return (now or datetime.now(timezone.utc)).strftime("%Y%m%dT%H%M%SZ")


def bundle() -> str:
    """The benchmark programs as base64 of a deterministic tar.gz (same sources, same bytes)."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name in SHIPPED:
            data = (_ROOT / name).read_bytes()
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            tar.addfile(info, io.BytesIO(data))
    # gzip's header holds a time ("w:gz" writes the clock's): 0, so the bytes follow the sources only
    return base64.b64encode(gzip.compress(raw.getvalue(), mtime=0)).decode()


def _step(run: str, step: str, module: str, args: str, log: str) -> list[str]:
    """One benchmark step as a node-agent job on this node; its output in `log`."""
    job = f'"$RUN/job-{step}-$HOST.json"'
    return [
        f"python3 -m trainstack.bench.jobfile {JOB_FILE} {job} --id bench-{run}-{step} --module {module} "
        f'--code "$CODE" -- {args}',
        f'PYTHONPATH={AGENT_DIR} python3 -m nodeagent run {job} > {log} 2>&1 || echo "{step} failed on $HOST: see {log}"',
    ]


def node_commands(stack: str, cluster, run: str, steps: int = 50, batch: int = 256, max_bytes: str = "8G") -> list[str]:
    """The shell lines every node of `cluster` runs (the same on each; order matters: each step
    is a rendezvous of all nodes).

    Args:
        stack: the stack name; run: the run id (`new_run_id`).
        cluster: its `ClusterConfig` (provider, precision by accelerator is bf16).
        steps, batch: timed steps and images per GPU per step of each training run.
        max_bytes: largest all-reduce message (nccl-tests' `-e`).
    """
    root = results_root(cluster.provider, stack)
    lines = [
        *node_checks(),
        f"RUN={shlex.quote(root)}/{run}; HOST=$(hostname); CODE=$(mktemp -d)",
        'mkdir -p "$RUN"',
        f'echo {bundle()} | base64 -d | tar -xz -C "$CODE"',
        'export PYTHONPATH="$CODE"',
        *nccl_step(cluster, root, max_bytes),
        'if [ "$NCCL_OK" != 0 ]; then  # no nccl-tests run: the all-reduce through torch.distributed',
        '  echo "$HOST: nccl-tests all_reduce_perf not run ($NCCL_OK): torch.distributed all-reduce instead"',
        *(
            f"  {line}"
            for line in _step(
                run,
                "allreduce",
                "trainstack.bench.allreduce",
                f'-b 8 -e {max_bytes} -f 2 -o "$RUN/nccl-all.log"',
                '"$RUN/allreduce-$HOST.log"',
            )
        ),
        "fi",
    ]
    for model in MODELS:
        args = f"--model {model} --data synthetic --steps {steps} --batch {batch} --precision bf16"
        lines += _step(run, model, "trainstack.bench.train", args, f'"$RUN/train-{model}-$HOST.log"')
    done = f'echo "$HOST: done; results in $RUN; then: trainstack bench fetch -s {stack}"'
    return [*lines, 'rm -rf "$CODE"', f': > "$RUN/{FINISHED}$HOST"', done]


def node_checks() -> list[str]:
    """The lines that stop before anything runs: on a node without the job or without its unit
    (the head: nothing to do; AWS's Run Command by tag reaches it too) and on a node whose own
    job is running (exit 1, saying how to stop it)."""
    return [
        "set -uo pipefail",
        f'[ -f {JOB_FILE} ] || {{ echo "$(hostname): no {JOB_FILE} (not a job node): nothing to run"; exit 0; }}',
        # the head has the job file too (its store's settings) but no job unit: it takes no part
        f'[ -f {JOB_UNIT_FILE} ] || {{ echo "$(hostname): no job unit (the head node): nothing to run"; exit 0; }}',
        "if systemctl is-active --quiet trainstack-job; then",
        '  echo "$(hostname): the stack\'s job is running; stop it (sudo systemctl stop trainstack-job) to benchmark"',
        "  exit 1",
        "fi",
    ]


def detached(run: str, commands: list[str]) -> list[str]:
    """`commands` (`node_commands`) started as the transient systemd unit `trainstack-bench-<run>`
    after the same checks, so the remote call returns at once and the benchmark outlives it
    (an SSH session that drops, Azure's 90-minute limit per Run Command). Its output is in
    `journalctl -u trainstack-bench-<run>`; each node marks its end on the file system."""
    unit, script = f"trainstack-bench-{run}", f"{SCRIPTS}/bench-{run}.sh"
    return [
        *node_checks(),
        f"mkdir -p {SCRIPTS} && chmod 700 {SCRIPTS}",
        f"cat > {script} <<'TRAINSTACK_BENCH'",
        *commands,
        "TRAINSTACK_BENCH",
        f"systemd-run --unit={unit} --collect /bin/bash {script} || exit 1",
        f'echo "$(hostname): benchmark {run} started (journalctl -u {unit})"',
    ]


def finished_commands(stack: str, cluster, run: str) -> list[str]:
    """Shell lines printing `FINISHED_MARK <n>`: how many nodes have finished the run."""
    folder = f"{shlex.quote(results_root(cluster.provider, stack))}/{run}"
    return [f"echo \"{FINISHED_MARK}$(find {folder} -maxdepth 1 -name '{FINISHED}*' 2>/dev/null | wc -l)\""]


def finished_count(output: str) -> int:
    """The node count `finished_commands` printed (0 when it printed none)."""
    found = [line for line in output.splitlines() if line.startswith(FINISHED_MARK)]
    return int(found[-1].removeprefix(FINISHED_MARK).strip() or 0) if found else 0


def fetch_commands(stack: str, cluster, run: str | None = None, part: int = 0) -> list[str]:
    """Shell lines that print one line `OUTPUT_MARK <run> <parts> <piece>`: piece `part` (of
    `PART_CHARS` characters) of the base64 tar.gz of a run's logs, the nccl-tests table and the
    training logs' `#bench` lines. Part 0 packs them into `<run>/fetch.b64` (later parts read
    that file, so the pieces join); `run` None = the newest."""
    root = shlex.quote(results_root(cluster.provider, stack))
    pick = f"{root}/{run}" if run else f"$(ls -1d {root}/*/ 2>/dev/null | sort | tail -n 1)"
    return [
        "set -euo pipefail",
        f"RUN={pick}",
        f'[ -n "$RUN" ] && [ -d "$RUN" ] || {{ echo "no benchmark run under {root}" >&2; exit 1; }}',
        f'PACK="$RUN/fetch.b64"; if [ {int(part)} = 0 ] || [ ! -f "$PACK" ]; then',
        '  OUT=$(mktemp -d); cp "$RUN/nccl-all.log" "$OUT/" 2>/dev/null || true',
        '  grep -h \'#bench \' "$RUN"/train-*.log > "$OUT/train.log" 2>/dev/null || true',
        '  tar -cz -C "$OUT" . | base64 -w0 > "$PACK.tmp" && mv "$PACK.tmp" "$PACK"; rm -rf "$OUT"',
        "fi",
        f'PARTS=$(( ($(wc -c < "$PACK") + {PART_CHARS} - 1) / {PART_CHARS} ))',
        f'echo "{OUTPUT_MARK}$(basename "$RUN") $PARTS $(tail -c +{int(part) * PART_CHARS + 1} "$PACK" | head -c {PART_CHARS})"',
    ]


def fetched_part(text: str) -> tuple[str, int, str]:
    """(run, parts, piece) of the line `fetch_commands` printed; FetchError without one."""
    found = [line for line in text.splitlines() if line.startswith(OUTPUT_MARK)]
    if not found:
        raise FetchError(f"the node printed no benchmark logs: {text.strip()[-200:] or '(nothing)'}")
    run, parts, piece = (found[-1].removeprefix(OUTPUT_MARK).split(" ", 2) + ["", ""])[:3]
    return run, int(parts) if parts.isdigit() else 1, piece


class FetchError(ValueError):
    """Fetch output that holds no run; the message says what the node printed."""


def results_from_output(texts: str | list[str], cluster, stack: str):
    """The results file (`RunResult`) of the logs `fetch_commands` printed (every part, in order).

    Raises: FetchError: no `OUTPUT_MARK` line, a part missing, or logs with no measurement in them.
    """
    from trainstack.bench.parse import ParseError, parse_files

    pieces = [fetched_part(text) for text in ([texts] if isinstance(texts, str) else texts)]
    run, parts = pieces[0][0], pieces[0][1]
    if len(pieces) != parts:
        raise FetchError(f"run {run}: {len(pieces)} of its {parts} parts fetched")
    with tempfile.TemporaryDirectory() as folder:
        packed = base64.b64decode("".join(piece for _, _, piece in pieces))
        with tarfile.open(fileobj=io.BytesIO(packed), mode="r:gz") as tar:
            tar.extractall(folder, filter="data")
        logs = sorted(p for p in Path(folder).iterdir() if p.stat().st_size > 0)
        if not logs:
            raise FetchError(f"run {run}: no all-reduce table and no training result yet; is it still running?")
        try:
            return parse_files(logs, cluster, stack)
        except ParseError as exc:
            raise FetchError(f"run {run}: {exc}") from None
