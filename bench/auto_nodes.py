"""Benchmark `nodes: auto` over the whole catalog, in-process (not a timed test).

Prints the best and median in-process `resolve` CPU time (catalog already loaded) of two
workloads that search node counts on every offering of every cloud: one with fixed `hours`
(where more nodes cannot shorten the job, so the fewest that fit always win) and one with
`work` and a deadline (where every count of the range can matter). Target: under 0.1 s each
(issue #27; before the search was bounded, 0.85 s with fixed hours).

Run: `.venv/bin/python bench/auto_nodes.py [--runs N]` on an idle machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

# Measure the checkout this script sits in, not whichever one the venv's editable install points at.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

WORKLOADS = {
    "fixed hours": """name: bench-auto-hours
min_gpu_memory: 40GB
nodes: auto
interconnect: rdma
purchase: any
hours: 72h
spot: {checkpoint_interval: 1h}
file_system: {capacity: 4800GiB, throughput: 250}
""",
    "work + deadline": """name: bench-auto-work
min_gpu_memory: 40GB
nodes: auto
interconnect: rdma
purchase: any
work: {params: 1.3B, tokens: 100B, mfu: 0.4}
deadline: 10d
spot: {checkpoint_interval: 1h}
file_system: {capacity: 4800GiB, throughput: 250}
""",
}


def timed(text: str, runs: int) -> tuple[int, list[float]]:
    """(candidates, resolve CPU times in seconds) of one workload over the loaded catalog (CPU
    time of this process: on shared, busy cores the wall time also counts waiting)."""
    from clouds.input_file import parse_yaml
    from profiles.catalog.loader import load_catalog
    from profiles.resolver import resolve
    from profiles.spec import parse_spec

    spec = parse_spec(parse_yaml(text, "bench"), "bench")
    offerings = load_catalog().offerings
    resolve(spec, offerings)  # warm the per-provider caches, as a second resolve in one process would
    times = []
    matched = 0
    for _ in range(runs):
        start = time.process_time()
        matched = resolve(spec, offerings).matched
        times.append(time.process_time() - start)
    return matched, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for name, text in WORKLOADS.items():
        matched, times = timed(text, args.runs)
        _, one = timed(text.replace("nodes: auto", "nodes: 1"), args.runs)
        print(
            f"nodes: auto, {name}: best {min(times) * 1000:.1f} ms, median {statistics.median(times) * 1000:.1f} ms "
            f"CPU ({matched} candidates; target < 100 ms); the same at nodes: 1: best {min(one) * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
