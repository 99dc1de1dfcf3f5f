"""The command a managed platform runs on every node of a job: the job's launcher (`job.launcher`)
started with the node's place in the job as the platform gives it.

PAI-DLC's PyTorchJob (and TI-ONE's DDP mode) set the Kubeflow PyTorchJob variables on each node:
MASTER_ADDR and MASTER_PORT (the first node), WORLD_SIZE (the nodes) and RANK (this node).

- `torchrun` (PyTorch docs, "torchrun (Elastic Launch)"): `--nnodes`, `--node_rank`,
  `--master_addr`, `--master_port`, `--nproc_per_node`, then the script and its arguments.
- `paddle` (`python -m paddle.distributed.launch`, PaddlePaddle docs, "launch"): `--master
  HOST:PORT` (the first node starts Paddle's HTTP master there), `--nnodes`, `--rank`,
  `--nproc_per_node`, `--max_restart`, then the script and its arguments.
"""

from __future__ import annotations

import shlex

TORCHRUN, PADDLE = "torchrun", "paddle"
LAUNCHERS = (TORCHRUN, PADDLE)
# The `torchrun` command first shipped in PyTorch 1.10 (pytorch/pytorch PR #64049, "Introduce the
# torchrun entrypoint": it "points" to `python -m torch.distributed.run`); the module itself is in
# PyTorch 1.9 (its 1.9.1 fix, PR #64796), so an older environment runs the module.
TORCHRUN_SINCE, RUN_MODULE_SINCE = (1, 10), (1, 9)


def torchrun_word(torch_version: tuple[int, ...] | None) -> str:
    """`torchrun`, or `python -m torch.distributed.run` where PyTorch `torch_version` (known to be
    at least 1.9) has no `torchrun` command; None: a container whose version is not known."""
    if torch_version is None or torch_version >= TORCHRUN_SINCE:
        return "torchrun"
    return "python -m torch.distributed.run"


def node_command(
    launcher: str | None,
    script: str,
    args: list[str],
    nproc: int,
    max_restarts: int = 0,
    torch_version: tuple[int, ...] | None = None,
) -> str:
    """The shell command every node runs.

    Args:
        launcher: `torchrun` (or None) or `paddle`.
        script: the training script's path in the node's container.
        args: its arguments.
        nproc: processes per node (one per accelerator).
        max_restarts: how often the launcher restarts failed workers in place.
        torch_version: the container's PyTorch, when the platform's environment names it
            (`torchrun_word`).

    Raises:
        ValueError: another launcher.
    """
    tail = shlex.join([script, *args])
    if launcher in (None, TORCHRUN):
        return (
            f"{torchrun_word(torch_version)} --nnodes=$WORLD_SIZE --node_rank=$RANK --master_addr=$MASTER_ADDR --master_port=$MASTER_PORT "
            f"--nproc_per_node={nproc} --max_restarts={max_restarts} {tail}"
        )
    if launcher == PADDLE:
        return (
            "python -m paddle.distributed.launch --master=$MASTER_ADDR:$MASTER_PORT --nnodes=$WORLD_SIZE "
            f"--rank=$RANK --nproc_per_node={nproc} --max_restart={max_restarts} {tail}"
        )
    raise ValueError(f"job.launcher: {launcher!r}; one of {', '.join(LAUNCHERS)}")
