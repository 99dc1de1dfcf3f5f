"""File-system read throughput over many small files, as a data loader reads them.

`python -m trainstack.bench.fsread DIR [--threads 8]` reads every image file under DIR once
and prints a `#bench {"kind": "fsread", ...}` line (MB/s = 10^6 bytes per second). Drop the
page cache first (the kit does, with sudo) or the figure is the cache's, not the file system's.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from trainstack.bench.lines import bench_line

SUFFIXES = (".jpg", ".jpeg", ".png")


def image_files(directory: Path) -> list[Path]:
    """Every image file under `directory`, sorted (recursively)."""
    return sorted(p for p in Path(directory).rglob("*") if p.suffix.lower() in SUFFIXES and p.is_file())


def _size(path: Path) -> int:
    with open(path, "rb") as handle:
        return len(handle.read())


def read_throughput(directory: Path, threads: int = 8) -> dict[str, object]:
    """Read every image file under `directory` with `threads` readers.

    Returns:
        The `FileSystemRead` fields: path, files, bytes, seconds, read_mbps.

    Raises:
        ValueError: no image files there.
    """
    files = image_files(directory)
    if not files:
        raise ValueError(f"{directory}: no .jpg/.png files to read")
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=max(threads, 1)) as pool:
        total = sum(pool.map(_size, files))
    seconds = max(time.perf_counter() - start, 1e-9)
    return {
        "path": str(directory),
        "files": len(files),
        "bytes": total,
        "seconds": round(seconds, 6),
        "read_mbps": round(total / seconds / 1e6, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="Read throughput of many small files.")
    parser.add_argument("dir", type=Path)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()
    try:
        print(bench_line("fsread", **read_throughput(args.dir, args.threads)), flush=True)
    except ValueError as exc:
        raise SystemExit(f"error: {exc}") from None


if __name__ == "__main__":
    main()
