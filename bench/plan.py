"""Benchmark `trainstack plan` (not a timed test).

Prints:
  - end-to-end wall time of `trainstack plan -s training-a100 --json` (2 nodes), best of N,
    including Python start-up and Pulumi imports (target: under 3 s);
  - in-process plan time of the same stack at 100 and 1,000 nodes, and their ratio
    (target: 1,000 nodes cost no more than 9x 100 nodes).

Run: `.venv/bin/python bench/plan.py [--runs N]`.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
STACK = ROOT / "stacks" / "Pulumi.training-a100.yaml"


def end_to_end(runs: int) -> list[float]:
    """Wall times of the real CLI on the committed 2-node stack, seconds."""
    command = [str(Path(sys.executable).with_name("trainstack")), "plan", "-s", "training-a100", "--json"]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
        times.append(time.perf_counter() - start)
    return times


def scaled_plan_seconds(nodes: int, project: Path, runs: int) -> float:
    """Best in-process `run_plan` time for the committed stack scaled to `nodes` nodes."""
    from trainstack.plan.runner import run_plan

    config = yaml.safe_load(STACK.read_text())
    config["config"]["trainstack:cluster"]["nodes"] = nodes
    (project / "stacks" / f"Pulumi.n{nodes}.yaml").write_text(yaml.safe_dump(config))
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        run_plan(f"n{nodes}", project)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    wall = end_to_end(args.runs)
    print(f"plan 2 nodes end to end: best {min(wall):.2f} s (target < 3 s)")
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        shutil.copy(ROOT / "Pulumi.yaml", project)
        shutil.copy(ROOT / "__main__.py", project)
        (project / "stacks").mkdir()
        scaled_plan_seconds(2, project, 1)  # warm imports
        hundred = scaled_plan_seconds(100, project, args.runs)
        thousand = scaled_plan_seconds(1000, project, max(1, args.runs - 1))
    print(
        f"plan 100 nodes: {hundred:.2f} s; 1,000 nodes: {thousand:.2f} s; ratio {thousand / hundred:.1f}x (target <= 9x)"
    )


if __name__ == "__main__":
    main()
