"""Benchmark `trainstack resolve` on the whole multi-cloud catalog (not a timed test).

Prints, for the training-a100 workload widened to every cloud:
  - end-to-end wall time of the real command (`trainstack resolve ... --json`), best of N runs,
    including Python start-up and imports (target: under 0.15 s);
  - where that time goes: bare Python start-up, the same command through the typer app
    (what `trainstack.entry` skips for `resolve`), and the imports of the resolve path;
  - in-process load and resolve times, and rows resolved per second.

Run it on an idle machine: wall times on shared, busy cores are several times longer; on a
busy one, `--instructions` also counts the instructions the command executes (valgrind's
callgrind; the same on any load, and the figure docs/speed.md compares). The
commands run with Python's bytecode cache (`PYTHONDONTWRITEBYTECODE` is dropped for them, as
on a user's machine; with it set, every run recompiles every module, ~0.1 s), after one
warm-up run that writes the cache.

Run: `make bench` (or `.venv/bin/python bench/resolve.py [--runs N]`).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The children's environment: this one, with the bytecode cache allowed (see the docstring).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
WORKLOAD = """name: bench-all-clouds
accelerators: [A100:8, A100-80GB:8, H100:8]
nodes: 2
interconnect: rdma
purchase: any
hours: 72h
spot: {checkpoint_interval: 1h}
file_system: {capacity: 4800GiB, throughput: 250}
"""


def end_to_end(spec_path: Path, runs: int) -> tuple[list[float], list[float]]:
    """(wall times, CPU times) of the real CLI, seconds. CPU time (user + system of the child)
    is what the command itself costs; on busy shared cores the wall time also counts waiting."""
    command = [str(Path(sys.executable).with_name("trainstack")), "resolve", str(spec_path), "--json"]
    times, cpu = [], []
    subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=ENV)  # warm-up: writes the bytecode cache
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=ENV)
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if done.returncode:
            raise SystemExit(f"trainstack resolve failed: {done.stderr.strip()}")
    return times, cpu


def instructions(spec_path: Path) -> int | None:
    """Instructions executed by one `trainstack resolve ... --json` under valgrind's callgrind
    (with the bytecode cache written by `end_to_end`'s warm-up), or None without valgrind."""
    if shutil.which("valgrind") is None:
        return None
    command = [str(Path(sys.executable).with_name("trainstack")), "resolve", str(spec_path), "--json"]
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=ENV,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    return int(found.group(1)) if found else None


def python_times(code: str, runs: int) -> list[float]:
    """Wall times of `python -c CODE`, seconds (same interpreter and environment as the CLI)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False, env=ENV)
        times.append(time.perf_counter() - start)
    return times


def csv_parse(runs: int) -> list[float]:
    """Times of parsing every catalog CSV (what a load costs without the compact copies), seconds."""
    from profiles.catalog.loader import DATA_DIR, PROVIDERS, load_provider

    paths = [DATA_DIR / f"{p}.csv" for p in PROVIDERS if (DATA_DIR / f"{p}.csv").exists()]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for path in paths:
            load_provider(path)
        times.append(time.perf_counter() - start)
    return times


def in_process(spec_path: Path, runs: int) -> tuple[int, list[float], list[float]]:
    """(offerings, load times, resolve times) in seconds, measured inside one process; each
    load reads the compact copies from disk, as a new `trainstack resolve` process does."""
    from profiles.catalog import compact
    from profiles.catalog.loader import load_catalog
    from profiles.resolver import resolve
    from profiles.spec import load_spec

    spec = load_spec(spec_path)
    loads, resolves = [], []
    for _ in range(runs):
        compact.forget()
        start = time.perf_counter()
        catalog = load_catalog()
        loads.append(time.perf_counter() - start)
        start = time.perf_counter()
        resolve(spec, catalog.offerings)
        resolves.append(time.perf_counter() - start)
    return len(catalog.offerings), loads, resolves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--instructions", action="store_true", help="also count instructions (valgrind)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        spec_path = Path(tmp) / "bench.yaml"
        spec_path.write_text(WORKLOAD)
        wall, cpu = end_to_end(spec_path, args.runs)
        counted = instructions(spec_path) if args.instructions else None
        startup = python_times("pass", args.runs)
        typer_path = python_times(
            "import sys; from trainstack.cli.app import app; "
            f"app(['resolve', {str(spec_path)!r}, '--json'], standalone_mode=False)",
            args.runs,
        )
        imports = python_times(
            "import os; os.environ['PYDANTIC_DISABLE_PLUGINS'] = '__all__'; "
            "from trainstack.entry import _skip_plugin_scan; _skip_plugin_scan(); "
            "import trainstack.cli.resolve_cmd, profiles.resolver, profiles.spec, "
            "profiles.catalog.loader",
            args.runs,
        )
        rows, loads, resolves = in_process(spec_path, args.runs)
        parses = csv_parse(max(3, args.runs // 3))
    print(
        f"end to end (trainstack resolve --json): best {min(wall):.3f} s, median {statistics.median(wall):.3f} s, "
        f"target < 0.150 s; CPU best {min(cpu):.3f} s"
    )
    print(f"python start-up alone: best {min(startup):.3f} s; start-up + resolve imports: best {min(imports):.3f} s")
    print(f"the same command through the typer app: best {min(typer_path):.3f} s")
    print(
        f"catalog load: best {min(loads) * 1000:.1f} ms for {rows} offerings from the compact copies "
        f"(parsing the CSVs: best {min(parses) * 1000:.1f} ms)"
    )
    load = os.getloadavg()[0]
    print(f"load average at the end: {load:.1f} on {os.cpu_count()} cores (wall times need an idle machine)")
    print(f"resolve: best {min(resolves) * 1000:.1f} ms, {rows / min(resolves):,.0f} rows/s")
    if args.instructions:
        print(f"instructions (callgrind): {counted / 1e6:,.1f} M" if counted else "instructions: valgrind not found")


if __name__ == "__main__":
    main()
