"""All-reduce bus bandwidth measured the nccl-tests way, under torchrun, printed as nccl-tests prints it.

The portable path of `trainstack bench run --send`: it runs through the node agent (the job's
own torchrun and rendezvous), so it needs no MPI, hostfile or SSH, and where the image ships
no nccl-tests binaries it still measures. The figures follow nccl-tests' definitions
(doc/PERFORMANCE.md in NVIDIA/nccl-tests): time = mean of `--iters` timed all-reduces after
`--warmup` untimed ones, algbw = bytes / time, busbw = algbw x 2(n-1)/n for n ranks, in GB/s
(1e9 bytes per second). The output is the nccl-tests table (`trainstack.bench.parse_nccl` reads
it); the in-place columns repeat the out-of-place ones (torch's all_reduce is in place).
Backend NCCL on CUDA, else gloo (CPU: a smoke test of the path, not a GPU figure).

`torchrun ... -m trainstack.bench.allreduce -b 8 -e 8G -f 2 -o OUT.log`
"""

from __future__ import annotations

import argparse
import os
import socket
import time
from pathlib import Path

import torch
import torch.distributed as dist

UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def size_bytes(text: str) -> int:
    """`8`, `64K`, `8G` as bytes (powers of 1024, as nccl-tests reads them)."""
    text = text.strip().upper()
    scale = UNITS.get(text[-1:], 1)
    return int(text[:-1] if scale > 1 else text) * scale


def sizes(minimum: int, maximum: int, factor: int) -> list[int]:
    """Message sizes from `minimum` to `maximum` bytes, each `factor` times the last (at least 4 B)."""
    out, size = [], max(minimum, 4)
    while size <= maximum:
        out.append(size)
        size *= max(factor, 2)
    return out


def bus_bandwidth(size: int, seconds: float, ranks: int) -> tuple[float, float]:
    """(algbw, busbw) in GB/s for an all-reduce of `size` bytes taking `seconds` on `ranks` ranks."""
    algbw = size / seconds / 1e9
    return algbw, algbw * 2 * (ranks - 1) / ranks


def time_all_reduce(size: int, device: torch.device, warmup: int, iters: int) -> float:
    """Mean seconds of one all-reduce (sum) of `size` bytes of float32."""
    tensor = torch.ones(size // 4, dtype=torch.float32, device=device)
    for _ in range(warmup):
        dist.all_reduce(tensor)
    _sync(device)
    dist.barrier()
    start = time.perf_counter()
    for _ in range(iters):
        dist.all_reduce(tensor)
    _sync(device)
    return (time.perf_counter() - start) / iters


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def table(args: argparse.Namespace, hosts: list[str], rows: list[tuple[int, float]], ranks: int) -> list[str]:
    """The nccl-tests output lines for `rows` of (bytes, seconds)."""
    lines = [
        f"# trainstack.bench.allreduce (nccl-tests all_reduce_perf format), backend {dist.get_backend()}",
        f"# nThread 1 nGpus 1 minBytes {args.b} maxBytes {args.e} step: {args.f}(factor) warmup iters: "
        f"{args.warmup} iters: {args.iters} agg iters: 1 validation: 0 graph: 0",
        *(f"#  Rank {r:2d} Group  0 Pid {0:6d} on {h:>10} device  0 [0x00] torch" for r, h in enumerate(hosts)),
        "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
    ]
    total = 0.0
    for size, seconds in rows:
        algbw, busbw = bus_bandwidth(size, seconds, ranks)
        total += busbw
        half = f"{seconds * 1e6:8.1f} {algbw:7.2f} {busbw:7.2f}      0"
        lines.append(f"{size:12d} {size // 4:13d}     float     sum      -1 {half} {half}")
    lines += ["# Out of bounds values : 0 OK", f"# Avg bus bandwidth    : {total / max(len(rows), 1):.4f}"]
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-b", default="8", help="smallest message (bytes; K, M, G suffixes)")
    parser.add_argument("-e", default="128M", help="largest message")
    parser.add_argument("-f", type=int, default=2, help="size factor between messages")
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("-o", "--out", type=Path, help="rank 0 writes the table here (default: standard output)")
    args = parser.parse_args(argv)
    cuda = torch.cuda.is_available()
    dist.init_process_group("nccl" if cuda else "gloo")
    rank, ranks = dist.get_rank(), dist.get_world_size()
    device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", 0))) if cuda else torch.device("cpu")
    if cuda:
        torch.cuda.set_device(device)
    hosts: list[str] = [""] * ranks
    dist.all_gather_object(hosts, socket.gethostname())
    plan = sizes(size_bytes(args.b), size_bytes(args.e), args.f)
    rows = [(size, time_all_reduce(size, device, args.warmup, args.iters)) for size in plan]
    if rank == 0:
        text = "\n".join(table(args, hosts, rows, ranks)) + "\n"
        if args.out is None:
            print(text, end="", flush=True)
        else:
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(text)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
