"""Render the benchmark kit for a stack: one bash script that runs every step on the nodes.

Run on the first node, with a hostfile listing every node (one name per line), trainstack
installed on every node (`pip install -e '.[torch]'` from a checkout on the shared file
system) and nccl-tests built (`make MPI=1` in NVIDIA/nccl-tests; binaries in
`$NCCL_TESTS`). The steps, in order, each writing to `$OUT` on the shared file system:

1. nccl-tests `all_reduce_perf` over all nodes, then pairwise over disjoint node pairs
   (8 B to 8 GiB by default, `--max-bytes`; factor 2), with the stack's NCCL environment (`nccl_env.py`);
2. `dcgmi diag -r 2 --json` on every node where dcgmi is installed;
3. image files on the shared file system, and their read throughput (page cache dropped);
4. the NVML sampler on every node, then the training benchmark under torchrun for
   ResNet-50 and ViT-B/16, synthetic tensors and image files, mixed precision (bf16);
5. `trainstack bench parse` of everything into `$OUT/run.json`.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from clouds.registry import CLOUDS
from trainstack.bench.nccl_env import nccl_environment

MODELS = ("resnet50", "vit_b16")
DATA = ("synthetic", "files")


@dataclass(frozen=True)
class KitOptions:
    """What the kit runs: steps per throughput run, images per GPU per step, image files, the
    largest all-reduce message."""

    steps: int = 50
    batch: int = 256
    images: int = 20000
    precision: str = "bf16"
    data_dir: str | None = None
    max_bytes: str = "8G"  # nccl-tests' -e: the largest all-reduce message (`nccl_tests.max_bytes_problem`)


def default_data_dir(provider: str) -> str:
    """Where the kit keeps its images and results: on the cluster's shared file system."""
    found = CLOUDS.get(provider)
    return f"{found.shared_mount if found else '/mnt/shared'}/trainstack-bench"


def render_kit(stack: str, cluster, options: KitOptions = KitOptions()) -> tuple[str, list[str]]:
    """The kit script for `cluster` (a `ClusterConfig`) and notes to print with it.

    Returns:
        (bash script text, remarks such as NCCL variables the kit cannot know).
    """
    gpus = cluster.accelerator_count
    env, sources, notes = nccl_environment(cluster.provider, cluster.instance_type, cluster.interconnect == "rdma")
    env = {"NCCL_DEBUG": "INFO", **env}
    data = options.data_dir or default_data_dir(cluster.provider)
    if cluster.file_system is None:
        notes.append(
            f"the stack has no shared file system: set DATA to a directory every node can read (default {data})"
        )
    exports = [*sources, *(f"export {k}={shlex.quote(v)}" for k, v in env.items())]
    forward = " ".join(f"-x {k}" for k in env)
    mpirun = f"mpirun --allow-run-as-root --bind-to none -N {gpus} {forward}"
    nccl = f'"$NCCL_TESTS/all_reduce_perf" -b 8 -e {shlex.quote(options.max_bytes)} -f 2 -g 1'
    train = (
        f"python3 -m trainstack.bench.train --steps {options.steps} --batch {options.batch} "
        f"--precision {options.precision}"
    )
    lines = [
        "#!/usr/bin/env bash",
        f"# trainstack bench kit for stack {stack}: {cluster.provider} {cluster.instance_type} x{cluster.nodes} "
        f"({gpus} GPUs per node). Rendered by `trainstack bench run -s {stack}`.",
        "# Run on the first node: HOSTFILE=hostfile bash run-bench.sh",
        "set -euo pipefail",
        "HOSTFILE=${HOSTFILE:-hostfile}",
        f"DATA=${{DATA:-{data}}}",
        "OUT=${OUT:-$DATA/results}",
        "NCCL_TESTS=${NCCL_TESTS:-/opt/nccl-tests/build}",
        f"GPUS={gpus}",
        'mkdir -p "$OUT"',
        "# the NCCL environment, for this shell and for every ssh command",
        "cat > \"$OUT/env.sh\" <<'TRAINSTACK_ENV'",
        *exports,
        "TRAINSTACK_ENV",
        'source "$OUT/env.sh"',
        "mapfile -t HOSTS < <(awk 'NF && $1 !~ /^#/ {print $1}' \"$HOSTFILE\")",
        f'[ "${{#HOSTS[@]}}" -eq {cluster.nodes} ] || echo "note: $HOSTFILE lists ${{#HOSTS[@]}} nodes, '
        f'the stack has {cluster.nodes}" >&2',
        "",
        "# 1. nccl-tests all_reduce_perf: every node, then disjoint pairs",
        f'{mpirun} -np $(( ${{#HOSTS[@]}} * GPUS )) --hostfile "$HOSTFILE" {nccl} > "$OUT/nccl-all.log" 2>&1 \\',
        '  || echo "nccl-tests failed on all nodes: see $OUT/nccl-all.log" >&2',
        "for ((i = 0; i + 1 < ${#HOSTS[@]}; i += 2)); do",
        "  a=${HOSTS[i]}; b=${HOSTS[i+1]}",
        f'  {mpirun} -np $(( 2 * GPUS )) -H "$a:$GPUS,$b:$GPUS" {nccl} > "$OUT/nccl-pair-$a-$b.log" 2>&1 \\',
        '    || echo "nccl-tests failed on $a, $b: see its log" >&2',
        "done",
        "",
        "# 2. GPU health: DCGM diagnostics level 2 where dcgmi is installed",
        'for h in "${HOSTS[@]}"; do',
        '  if ssh "$h" command -v dcgmi > /dev/null 2>&1; then',
        '    echo "# dcgmi diag -r 2 --json on $h" > "$OUT/dcgm-$h.json"',
        '    ssh "$h" dcgmi diag -r 2 --json >> "$OUT/dcgm-$h.json" 2>&1 || true  # exits 1 when a test fails',
        '  else echo "dcgmi not installed on $h: GPU health skipped" >&2; fi',
        "done",
        "",
        "# 3. image files on the shared file system, and its read throughput (page cache dropped first)",
        f'python3 -m trainstack.bench.data "$DATA/images" --count {options.images} --size 256',
        "sync; sudo sh -c 'echo 3 > /proc/sys/vm/drop_caches' || echo \"page cache not dropped\" >&2",
        'python3 -m trainstack.bench.fsread "$DATA/images" > "$OUT/fsread.log"',
        "",
        "# 4. NVML sampler on every node, then the training benchmark on every node at once",
        'for h in "${HOSTS[@]}"; do',
        '  ssh "$h" "cd $PWD && nohup python3 -m trainstack.bench.sampler --out $OUT/nvml-$h.csv '
        '> /dev/null 2>&1 & echo \\$!" > "$OUT/sampler-$h.pid"',
        "done",
        *(_through_job(train) if cluster.job is not None else _through_torchrun(train)),
        'for h in "${HOSTS[@]}"; do ssh "$h" kill "$(cat "$OUT/sampler-$h.pid")" || true; done',
        "",
        "# 5. one results file; then on your machine: trainstack bench import run.json",
        "shopt -s nullglob",
        'files=("$OUT"/nccl-*.log "$OUT"/dcgm-*.json "$OUT"/nvml-*.csv "$OUT"/fsread.log "$OUT"/train-*-0.log)',
        f'trainstack bench parse "${{files[@]}}" -s {stack} -o "$OUT/run.json"',
        'echo "results: $OUT/run.json"',
    ]
    if cluster.job is not None:
        notes.append(
            "the stack has a job: the training benchmark runs through its node agent "
            "(python3 -m nodeagent run), after the stack's own job is stopped on every node"
        )
    return "\n".join(lines) + "\n", notes


def _loops(run_one: list[str]) -> list[str]:
    """Every model x data combination, `run_one` on every node at once."""
    return [
        f"for model in {' '.join(MODELS)}; do",
        f"  for data in {' '.join(DATA)}; do",
        '    for rank in "${!HOSTS[@]}"; do',
        *run_one,
        "    done",
        "    wait",
        "  done",
        "done",
    ]


def _through_torchrun(train: str) -> list[str]:
    """torchrun on every node, c10d rendezvous on the first."""
    return _loops(
        [
            '      ssh "${HOSTS[rank]}" "cd $PWD && source $OUT/env.sh && torchrun --nnodes ${#HOSTS[@]} --nproc-per-node $GPUS '
            "--node-rank $rank --rdzv-backend c10d --rdzv-endpoint ${HOSTS[0]}:29500 --rdzv-id bench-$model-$data "
            f'-m {train.removeprefix("python3 -m ")} --model $model --data $data --dir $DATA/images" '
            '> "$OUT/train-$model-$data-$rank.log" 2>&1 &'
        ]
    )


def _through_job(train: str) -> list[str]:
    """The cluster's job launcher (node agent): a copy of each node's job file runs the benchmark."""
    args = train.removeprefix("python3 -m trainstack.bench.train ")
    return [
        'for h in "${HOSTS[@]}"; do',
        '  if ssh "$h" systemctl is-active --quiet trainstack-job; then',
        "    echo \"the stack's job is running on $h; stop it (sudo systemctl stop trainstack-job) to benchmark, "
        'then start it again" >&2; exit 1',
        "  fi",
        "done",
        *_loops(
            [
                '      ssh "${HOSTS[rank]}" "cd $PWD && python3 -m trainstack.bench.jobfile /etc/trainstack/job.json '
                "$OUT/job-$model-$data-$rank.json --id bench-$model-$data -- " + args + " --model $model --data $data "
                '--dir $DATA/images && python3 -m nodeagent run $OUT/job-$model-$data-$rank.json" '
                '> "$OUT/train-$model-$data-$rank.log" 2>&1 &'
            ]
        ),
    ]
