"""The benchmark as one command: what every node runs, and how its logs come back as a results file.

`trainstack bench run -s NAME --send` sends `node_commands` to every node of the stack (on AWS
through Systems Manager Run Command, `trainstack.bench.aws_ssm`). Each node unpacks the benchmark
programs (`bundle`: torch-only modules, so the job's interpreter needs nothing else), then
runs each step as a job of its own node agent (`python3 -m nodeagent run`: the job file's
rendezvous on the head node, the bootstrap's NCCL/EFA environment, every node required), in the
same order on every node, so no SSH, hostfile or MPI is set up:

1. all-reduce bus bandwidth over all nodes (`trainstack.bench.allreduce`: torch.distributed,
   nccl-tests' definitions and output format); nccl-tests' own `all_reduce_perf` needs MPI
   across nodes, which the node agent does not start, so it is not run this way;
2. the training step of ResNet-50 and ViT-B/16 on synthetic tensors (`trainstack.bench.train`).

Logs land on the shared file system under `<mount>/trainstack/bench/<stack>/<run>/`.
`fetch_commands` packs a run's logs (the nccl-tests table and the `#bench` lines) into
standard output; `results_from_output` turns that back into the results file `bench import` takes.
"""

from __future__ import annotations

import base64
import io
import shlex
import tarfile
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from clouds.registry import CLOUDS

JOB_FILE = "/etc/trainstack/job.json"
AGENT_DIR = "/opt/trainstack"  # nodeagent.ship.AGENT_DIR (not imported: it pulls the launcher in)
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
    "trainstack/bench/models.py",
    "trainstack/bench/train.py",
)
OUTPUT_MARK = "TRAINSTACK-BENCH-LOGS "  # the line of fetch output that holds the logs


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
    with tarfile.open(fileobj=raw, mode="w:gz", format=tarfile.USTAR_FORMAT) as tar:
        for name in SHIPPED:
            data = (_ROOT / name).read_bytes()
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            tar.addfile(info, io.BytesIO(data))
    return base64.b64encode(raw.getvalue()).decode()


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
        "set -uo pipefail",
        f'[ -f {JOB_FILE} ] || {{ echo "$(hostname): no {JOB_FILE} (not a job node): nothing to run"; exit 0; }}',
        "if systemctl is-active --quiet trainstack-job; then",
        '  echo "$(hostname): the stack\'s job is running; stop it (sudo systemctl stop trainstack-job) to benchmark"',
        "  exit 1",
        "fi",
        f"RUN={shlex.quote(root)}/{run}; HOST=$(hostname); CODE=$(mktemp -d)",
        'mkdir -p "$RUN"',
        f'echo {bundle()} | base64 -d | tar -xz -C "$CODE"',
        'export PYTHONPATH="$CODE"',
        *_step(
            run,
            "allreduce",
            "trainstack.bench.allreduce",
            f'-b 8 -e {max_bytes} -f 2 -o "$RUN/nccl-all.log"',
            '"$RUN/allreduce-$HOST.log"',
        ),
    ]
    for model in MODELS:
        args = f"--model {model} --data synthetic --steps {steps} --batch {batch} --precision bf16"
        lines += _step(run, model, "trainstack.bench.train", args, f'"$RUN/train-{model}-$HOST.log"')
    return [*lines, 'rm -rf "$CODE"', f'echo "$HOST: done; results in $RUN; then: trainstack bench fetch -s {stack}"']


def fetch_commands(stack: str, cluster, run: str | None = None) -> list[str]:
    """Shell lines that print one line `OUTPUT_MARK <base64 tar.gz>` of a run's logs: the
    nccl-tests table and the training logs' `#bench` lines (a few KB). `run` None = the newest."""
    root = shlex.quote(results_root(cluster.provider, stack))
    pick = f"{root}/{run}" if run else f"$(ls -1d {root}/*/ 2>/dev/null | sort | tail -n 1)"
    return [
        "set -euo pipefail",
        f"RUN={pick}",
        f'[ -n "$RUN" ] && [ -d "$RUN" ] || {{ echo "no benchmark run under {root}" >&2; exit 1; }}',
        'OUT=$(mktemp -d); cp "$RUN/nccl-all.log" "$OUT/" 2>/dev/null || true',
        'grep -h \'#bench \' "$RUN"/train-*.log > "$OUT/train.log" 2>/dev/null || true',
        f'echo "{OUTPUT_MARK}$(basename "$RUN") $(tar -cz -C "$OUT" . | base64 -w0)"',
        'rm -rf "$OUT"',
    ]


class FetchError(ValueError):
    """Fetch output that holds no run; the message says what the node printed."""


def results_from_output(text: str, cluster, stack: str):
    """The results file (`RunResult`) of the logs `fetch_commands` printed.

    Raises:
        FetchError: no `OUTPUT_MARK` line, or logs with no measurement in them.
    """
    from trainstack.bench.parse import ParseError, parse_files

    found = [line for line in text.splitlines() if line.startswith(OUTPUT_MARK)]
    if not found:
        raise FetchError(f"the node printed no benchmark logs: {text.strip()[-200:] or '(nothing)'}")
    run, _, packed = found[-1].removeprefix(OUTPUT_MARK).partition(" ")
    with tempfile.TemporaryDirectory() as folder:
        with tarfile.open(fileobj=io.BytesIO(base64.b64decode(packed)), mode="r:gz") as tar:
            tar.extractall(folder, filter="data")
        logs = sorted(p for p in Path(folder).iterdir() if p.stat().st_size > 0)
        if not logs:
            raise FetchError(f"run {run}: no all-reduce table and no training result yet; is it still running?")
        try:
            return parse_files(logs, cluster, stack)
        except ParseError as exc:
            raise FetchError(f"run {run}: {exc}") from None
