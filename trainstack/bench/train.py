"""The training-throughput benchmark: a fixed number of mixed-precision steps of ResNet-50
or ViT-B/16, on synthetic tensors or through a data loader reading image files.

Run once per node under torchrun (DDP over NCCL on GPUs, gloo on the CPU):
`torchrun --nnodes N --nproc-per-node G ... -m trainstack.bench.train --model resnet50
--data files --dir /fsx/trainstack-bench/images`. Rank 0 prints `#bench` lines that
`trainstack bench parse` reads: images/s per GPU, step time, the data loader's share of the
step (time spent waiting for the next batch / step time), and the model's training FLOPs.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from datetime import datetime, timezone
from pathlib import Path

import torch
import torch.distributed as dist
from torch import nn

from trainstack.bench.lines import bench_line
from trainstack.bench.models import MODELS, build, training_flops_per_image

DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": None}


def _loader(args: argparse.Namespace, world: int, rank: int, device: torch.device):
    """An endless iterator of (images, labels) batches."""
    if args.data == "synthetic":
        images = torch.randn(args.batch, 3, args.image_size, args.image_size, device=device)
        labels = torch.randint(0, args.classes, (args.batch,), device=device)
        while True:
            yield images, labels
    from torch.utils.data import DataLoader, DistributedSampler

    from trainstack.bench.data import ImageFiles

    dataset = ImageFiles(args.dir, args.image_size, args.classes)
    sampler: DistributedSampler | None = (
        DistributedSampler(dataset, world, rank, shuffle=True, drop_last=True) if world > 1 else None
    )
    loader = DataLoader(
        dataset,
        args.batch,
        shuffle=sampler is None,
        sampler=sampler,
        drop_last=True,
        num_workers=args.workers,
        pin_memory=device.type == "cuda",
        persistent_workers=args.workers > 0,
    )
    epoch = 0
    while True:
        if sampler is not None:
            sampler.set_epoch(epoch)
        for images, labels in loader:
            yield images.to(device, non_blocking=True), labels.to(device, non_blocking=True)
        epoch += 1


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def benchmark(args: argparse.Namespace) -> dict[str, object]:
    """Time `args.steps` steps after `args.warmup` untimed ones; the `Throughput` fields."""
    world, rank = int(os.environ.get("WORLD_SIZE", "1")), int(os.environ.get("RANK", "0"))
    cuda = torch.cuda.is_available() and not args.cpu
    device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", "0"))) if cuda else torch.device("cpu")
    if cuda:
        torch.cuda.set_device(device)
    model = build(args.model, args.image_size, args.width, args.classes)
    flops = training_flops_per_image(model, args.image_size)
    model = model.to(device)
    if world > 1:
        model = nn.parallel.DistributedDataParallel(model, device_ids=[device.index] if cuda else None)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    scaler = torch.amp.GradScaler(device.type, enabled=args.precision == "fp16" and cuda)
    dtype = DTYPES[args.precision]
    batches = _loader(args, world, rank, device)
    waited = total = 0.0
    for step in range(args.warmup + args.steps):
        start = time.perf_counter()
        images, labels = next(batches)
        ready = time.perf_counter()
        with torch.autocast(device.type, dtype=dtype or torch.bfloat16, enabled=dtype is not None):
            loss = nn.functional.cross_entropy(model(images), labels)
        optimizer.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        _sync(device)
        if step >= args.warmup:
            waited, total = waited + ready - start, total + time.perf_counter() - start
    return {
        "model": args.model,
        "data": args.data,
        "precision": args.precision,
        "gpus": world,
        "nodes": int(os.environ.get("GROUP_WORLD_SIZE", os.environ.get("NNODES", "1"))),
        "batch_per_gpu": args.batch,
        "steps": args.steps,
        "images_per_s_per_gpu": round(args.batch * args.steps / total, 4),
        "step_time_s": round(total / args.steps, 6),
        "data_loader_share": round(min(waited / total, 1.0), 4),
        "flops_per_image": flops,
    }


def software() -> dict[str, str]:
    """Versions that bear on the figures."""
    found = {"torch": torch.__version__.split("+")[0], "python": platform.python_version()}
    if torch.cuda.is_available():
        found |= {
            "cuda": str(torch.version.cuda),
            "nccl": ".".join(map(str, torch.cuda.nccl.version())),
            "gpu": torch.cuda.get_device_name(0),
        }
    return found


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=MODELS, default="resnet50")
    parser.add_argument("--data", choices=("synthetic", "files"), default="synthetic")
    parser.add_argument("--dir", type=Path, help="image files for --data files")
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--batch", type=int, default=256, help="images per GPU per step")
    parser.add_argument("--image-size", type=int, default=224)
    parser.add_argument("--width", type=int, default=64, help="64 = the published model; smaller for tests")
    parser.add_argument("--classes", type=int, default=1000)
    parser.add_argument("--precision", choices=tuple(DTYPES), default="bf16")
    parser.add_argument("--workers", type=int, default=8, help="data-loader worker processes per GPU")
    parser.add_argument("--cpu", action="store_true", help="run on the CPU even where CUDA is present")
    args = parser.parse_args(argv)
    if args.data == "files" and args.dir is None:
        parser.error("--data files needs --dir DIR (image files on the shared file system)")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    world = int(os.environ.get("WORLD_SIZE", "1"))
    if world > 1:
        dist.init_process_group("nccl" if torch.cuda.is_available() and not args.cpu else "gloo")
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    try:
        result = benchmark(args)
    except ValueError as exc:
        raise SystemExit(f"error: {exc}") from None
    if int(os.environ.get("RANK", "0")) == 0:
        print(bench_line("meta", software=software(), started=started), flush=True)
        print(bench_line("throughput", **result), flush=True)
        print(
            bench_line("meta", software={}, finished=datetime.now(timezone.utc).isoformat(timespec="seconds")),
            flush=True,
        )
    if world > 1:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
