"""The training benchmark as a job of the cluster's own launcher (the node agent's `job:`).

On a stack with `job:`, every node has the node agent and its job file
(`/etc/trainstack/job.json`: rendezvous on the head node, the NCCL/EFA environment file,
the interpreter). The kit runs the benchmark through that launcher: this module copies the
node's job file with the benchmark as its command, a rendezvous id of its own, every node
required, no restarts, output on standard output and no job channel (the stack's published
job must not replace the benchmark); then `python3 -m nodeagent run FILE`.
`python -m trainstack.bench.jobfile BASE OUT --id NAME -- TRAIN_ARGS...`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

TRAIN_MODULE = "trainstack.bench.train"


def bench_job(base: dict, train_args: list[str], name: str, module: str = TRAIN_MODULE, code: str = "") -> dict:
    """The node's job (as JSON) with the benchmark as its command.

    Args:
        base: the node's job file, read.
        train_args: the benchmark's arguments.
        name: suffix of the rendezvous id (one per benchmark step, the same on every node).
        module: the benchmark module (`trainstack.bench.train` or `trainstack.bench.allreduce`).
        code: a folder holding the `trainstack` package on the node, put on the workers'
            PYTHONPATH ("" = trainstack is installed in the job's interpreter).

    Raises:
        ValueError: `base` is not a job file (no `command` or `rdzv_host`).
    """
    if not isinstance(base, dict) or "rdzv_host" not in base or "command" not in base:
        raise ValueError("not a node-agent job file (no rdzv_host/command); is this a stack with `job:`?")
    nodes = int(base.get("max_nodes", 1))
    return {
        **base,
        "command": [module, *train_args],
        "env": {**base.get("env", {}), **({"PYTHONPATH": code} if code else {})},
        "module": True,
        "job_id": f"{base.get('job_id', 'job')}-{name}",
        "min_nodes": nodes,
        "max_nodes": nodes,
        "max_restarts": 0,
        "log_dir": "",
        "checkpoint_dir": "",
        "job_doc": "",  # the benchmark, not the stack's published job (`nodeagent.relay`)
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path, help="the node's job file, /etc/trainstack/job.json")
    parser.add_argument("out", type=Path)
    parser.add_argument("--id", required=True, help="suffix of the benchmark's rendezvous id")
    parser.add_argument("--module", default=TRAIN_MODULE, help="the benchmark module")
    parser.add_argument("--code", default="", help="folder holding the trainstack package (workers' PYTHONPATH)")
    parser.add_argument("train_args", nargs=argparse.REMAINDER, help="-- then trainstack.bench.train arguments")
    args = parser.parse_args()
    try:
        job = bench_job(
            json.loads(args.base.read_text()),
            [a for a in args.train_args if a != "--"],
            args.id,
            args.module,
            args.code,
        )
    except (OSError, ValueError) as exc:
        raise SystemExit(f"error: {args.base}: {exc}") from None
    args.out.write_text(json.dumps(job, indent=2) + "\n")


if __name__ == "__main__":
    main()
