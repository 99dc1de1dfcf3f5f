"""Sample GPU utilization and memory every second through NVML (`nvidia-ml-py`).

`python -m trainstack.bench.sampler --out nvml-HOST.csv [--interval 1] [--duration 3600]`
appends one row per GPU per interval until the duration ends or it is stopped (SIGTERM or
Ctrl-C). Columns are `parse_samples.COLUMNS`. Utilization is NVML's `utilization.gpu`: the
percent of the last sample period during which a kernel ran.
"""

from __future__ import annotations

import argparse
import csv
import signal
import socket
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from trainstack.bench.parse_samples import COLUMNS

MIB = 1024 * 1024


def sample_rows(nvml: Any, handles: list[Any], host: str, when: datetime) -> list[list[object]]:
    """One CSV row per GPU from NVML's utilization and memory queries."""
    rows = []
    for index, handle in enumerate(handles):
        util = nvml.nvmlDeviceGetUtilizationRates(handle)
        memory = nvml.nvmlDeviceGetMemoryInfo(handle)
        rows.append(
            [
                when.isoformat(timespec="seconds"),
                host,
                index,
                util.gpu,
                round(memory.used / MIB, 1),
                round(memory.total / MIB, 1),
            ]
        )
    return rows


def run(out: Path, interval: float, duration: float) -> int:
    """Sample until `duration` seconds pass or SIGTERM; returns the rows written."""
    try:
        import pynvml as nvml
    except ImportError:
        raise SystemExit("error: nvidia-ml-py is not installed; pip install 'trainstack[torch]' on the node") from None
    try:
        nvml.nvmlInit()
    except nvml.NVMLError as exc:
        raise SystemExit(
            f"error: NVML could not start ({exc}); run the sampler on a GPU node with the driver loaded"
        ) from None
    stop = {"now": False}
    signal.signal(signal.SIGTERM, lambda *_: stop.update(now=True))
    handles = [nvml.nvmlDeviceGetHandleByIndex(i) for i in range(nvml.nvmlDeviceGetCount())]
    host, written, end = socket.gethostname(), 0, time.monotonic() + duration
    new = not out.exists() or out.stat().st_size == 0
    with out.open("a", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        if new:
            writer.writerow(COLUMNS)
        try:
            while not stop["now"] and time.monotonic() < end:
                rows = sample_rows(nvml, handles, host, datetime.now(timezone.utc))
                writer.writerows(rows)
                handle.flush()
                written += len(rows)
                time.sleep(interval)
        except KeyboardInterrupt:
            pass
    nvml.nvmlShutdown()
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between samples")
    parser.add_argument("--duration", type=float, default=3600.0, help="stop after this many seconds")
    args = parser.parse_args()
    print(f"{run(args.out, args.interval, args.duration)} samples written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
