"""Benchmark `trainstack offers H100:8` (not a timed test): its aim is under 1 s end to end.

Runs the real console script N times (after one warm-up run that writes the bytecode cache)
and prints the median and worst wall time and the median CPU time (user + system of the
child; on busy shared cores the wall time also counts waiting, the CPU time does not).
It also checks the command imports no Pulumi and no cloud SDK.

Run: `.venv/bin/python bench/offers.py [--runs N] [ARGS...]` (default args: `H100:8`).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
AIM_S = 1.0
HEAVY = (
    "pulumi",
    "boto3",
    "botocore",
    "azure",
    "google",
    "tencentcloud",
    "alibabacloud",
    "huaweicloud",
    "volcengine",
    "baidubce",
)


def timed(command: list[str], runs: int) -> tuple[list[float], list[float]]:
    """(wall, CPU) seconds of `runs` runs of `command`."""
    subprocess.run(command, capture_output=True, cwd=ROOT, env=ENV, check=True)  # warm-up
    wall, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, cwd=ROOT, env=ENV, check=True)
        wall.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall, cpu


def heavy_imports(args: list[str]) -> list[str]:
    """The Pulumi or cloud SDK packages `trainstack offers ARGS` imports (should be none)."""
    code = (
        "import contextlib, io; from trainstack.entry import main\n"
        f"with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n    main({['offers', *args]!r})\n"
        "import json, sys; print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=ENV, check=True)
    loaded = json.loads(done.stdout.splitlines()[-1])
    return [m for m in loaded if m.startswith(HEAVY)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("args", nargs="*", default=["H100:8"])
    options = parser.parse_args()
    command = [str(Path(sys.executable).with_name("trainstack")), "offers", *options.args]
    wall, cpu = timed(command, options.runs)
    print(f"trainstack offers {' '.join(options.args)}: {options.runs} runs")
    print(f"  wall median {statistics.median(wall):.3f} s, worst {max(wall):.3f} s (aim < {AIM_S:.1f} s)")
    print(f"  CPU  median {statistics.median(cpu):.3f} s (user + system)")
    print(f"  Pulumi / cloud SDK modules imported: {heavy_imports(options.args) or 'none'}")


if __name__ == "__main__":
    main()
