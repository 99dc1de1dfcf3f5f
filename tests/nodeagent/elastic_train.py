"""A tiny data-parallel training script for the elastic-run test (gloo on the CPU).

It resumes from `$TRAINSTACK_CHECKPOINT_DIR/ckpt.pt`, checkpoints every `CKPT_EVERY` steps
(rank 0), at the start of a step when the launcher asked for an early checkpoint (rank 0 sees
the file `$TRAINSTACK_CHECKPOINT_REQUEST`, shares it by an all-reduce, saves the last finished
step and deletes the file: what a script does on a rebalance recommendation), and on SIGTERM (what torchrun forwards on an interruption notice) writes a
checkpoint of its last finished step before exiting at once. Every event goes to
`$PROGRESS_FILE` as one JSON line.

For the test's timing (not needed on a cluster): with `HOLD_AT` (steps, comma-separated) and
`HOLD_FILE` set, every rank waits after each such step S while the file `HOLD_FILE.S` exists
(or until SIGTERM), so the test stops the hosts at known steps however loaded the machine is.

Data parallelism by hand, as DistributedDataParallel does it: rank 0's initial weights are
broadcast, every step all-reduces (averages) the gradients, then plain SGD. Neither DDP nor
`torch.optim` is used: both import `torch._dynamo` (and sympy) on first use, 2-5 s of CPU in
every worker process, and the test starts six of them.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from datetime import timedelta
from pathlib import Path

import torch
import torch.distributed as dist

CKPT = Path(os.environ["TRAINSTACK_CHECKPOINT_DIR"]) / "ckpt.pt"
TOTAL, EVERY = int(os.environ["TOTAL_STEPS"]), int(os.environ["CKPT_EVERY"])
STEP_SECONDS = float(os.environ.get("STEP_SECONDS", "0.1"))
HOLD_AT = {int(s) for s in os.environ.get("HOLD_AT", "").split(",") if s}
HOLD_FILE = os.environ.get("HOLD_FILE", "")
LEARNING_RATE = 0.01
HOST = os.environ["HOST_NAME"]
REQUEST = os.environ.get("TRAINSTACK_CHECKPOINT_REQUEST", "")
terminated = False


def record(**event) -> None:
    line = json.dumps(
        {
            "host": HOST,
            "rank": dist.get_rank(),
            "world": dist.get_world_size(),
            "restart": int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0")),
            **event,
        }
    )
    with open(os.environ["PROGRESS_FILE"], "a") as out:
        out.write(line + "\n")


def save(model, step: int, reason: str) -> None:
    tmp = CKPT.with_name(f".ckpt-{HOST}-{os.getpid()}.tmp")
    torch.save(
        {
            "model": model.state_dict(),
            "step": step,
            "reason": reason,
            "host": HOST,
        },
        tmp,
    )
    os.replace(tmp, CKPT)
    record(event="checkpoint", step=step, reason=reason, time=time.time())


def on_sigterm(*_) -> None:
    global terminated
    terminated = True


def hold(step: int) -> None:
    """Wait while the test's hold file for `step` exists, or until SIGTERM."""
    while HOLD_FILE and os.path.exists(f"{HOLD_FILE}.{step}") and not terminated:
        time.sleep(0.02)


def checkpoint_requested() -> bool:
    """Rank 0 reads (and takes) the launcher's request; every rank learns it by an all-reduce."""
    flag = torch.zeros(1)
    if dist.get_rank() == 0 and REQUEST and os.path.exists(REQUEST):
        os.unlink(REQUEST)
        flag += 1
    dist.all_reduce(flag, op=dist.ReduceOp.MAX)
    return bool(flag.item())


def train_step(model, data) -> None:
    """One data-parallel SGD step: local gradients, averaged over the world, applied."""
    loss = model(data).pow(2).mean()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            dist.all_reduce(param.grad)
            param -= LEARNING_RATE * param.grad / dist.get_world_size()
            param.grad = None


def main() -> int:
    signal.signal(signal.SIGTERM, on_sigterm)
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 1)
    start = 0
    if CKPT.exists():
        state = torch.load(CKPT)
        model.load_state_dict(state["model"])
        start = state["step"]
    for param in model.parameters():  # every rank starts from rank 0's weights
        dist.broadcast(param.data, 0)
    record(event="start", resume_from=start, run_id=os.environ.get("TORCHELASTIC_RUN_ID"))
    for step in range(start + 1, TOTAL + 1):
        if checkpoint_requested() and dist.get_rank() == 0:
            save(model, step - 1, "requested")
        data = torch.randn(8, 4, generator=torch.Generator().manual_seed(step * 100 + dist.get_rank()))
        train_step(model, data)
        record(event="step", step=step)
        if step in HOLD_AT:
            hold(step)
        if terminated:
            save(model, step, "sigterm")
            # at once: a worker torchrun forked (`--run-path --start-method fork`) that returns
            # waits for its agent to collect the result, which an agent shutting down never does
            # (it SIGKILLs the worker after --shutdown-timeout)
            os._exit(0)
        if step % EVERY == 0 and dist.get_rank() == 0:
            save(model, step, "interval")
        time.sleep(STEP_SECONDS)
    if dist.get_rank() == 0:
        save(model, TOTAL, "done")
    dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
