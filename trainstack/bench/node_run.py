"""Shell lines on the nodes of a stack that is up, through each cloud's own way of running a
command on a VM, and their answers back: what `bench run --send`, `bench fetch` and the job's
progress in `status` share.

Each cloud's runner lives in its own module, `trainstack/bench/<provider>_run.py` (its class
`Runner`, built from the cluster, the stack's name and the stack file's settings): AWS Systems
Manager Run Command (`aws_run`), Azure Run Command (`azure_run`), GCP SSH through IAP TCP
forwarding (`gcp_run`: Compute Engine has no run-command service). A runner answers three calls:
`nodes()` (the cluster's running job nodes, in a stable order), `send(nodes, commands,
comment, timeout_seconds)` (start the lines on those nodes as root; a handle) and
`wait(handle, deadline_seconds, pause)` (each node's `Invocation` once all have ended) and
`named(handle)` (what was sent, in the cloud's words).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

PACKAGE = Path(__file__).resolve().parent
SUFFIX = "_run"  # a cloud's runner: `trainstack/bench/<provider>_run.py`, whose `Runner` is the class


class RemoteError(RuntimeError):
    """The command reached no node or failed on one; the message names the node and what it said."""


@dataclass(frozen=True)
class Invocation:
    """One node's run of a command: the node (instance id, VM id or name), its status and the
    head of its output."""

    instance_id: str
    status: str
    output: str


class NodeRunner(Protocol):
    """One cloud's way of running shell lines on a stack's nodes (see the module's docstring);
    `detaches`: a long benchmark must be started as a unit of its own (the remote call ends first)."""

    detaches: bool

    def nodes(self) -> list[str]: ...

    def send(self, nodes: list[str], commands: list[str], comment: str, timeout_seconds: int) -> Any: ...

    def wait(self, handle: Any, deadline_seconds: float, pause: float = 10.0) -> list[Invocation]: ...

    def named(self, handle: Any) -> str: ...


def providers() -> list[str]:
    """The clouds with a runner, from the modules beside this one."""
    return sorted(p.stem.removesuffix(SUFFIX) for p in PACKAGE.glob(f"*{SUFFIX}.py") if p.stem != f"node{SUFFIX}")


def has_runner(provider: str) -> bool:
    """Whether trainstack can run a command on `provider`'s VMs."""
    return provider in providers()


def runner_for(cluster: Any, stack: str, settings: dict | None = None) -> NodeRunner:
    """The runner of `cluster`'s cloud for the stack `stack`.

    Raises:
        RemoteError: the cloud has none (the message lists the clouds that do).
    """
    if not has_runner(cluster.provider):
        raise RemoteError(f"{cluster.provider} has no remote run in trainstack (only {', '.join(providers())})")
    module = importlib.import_module(f"{__package__}.{cluster.provider}{SUFFIX}")
    return module.Runner(cluster, stack, settings or {})


def run_on_one(runner: NodeRunner, commands: list[str], comment: str, timeout_seconds: int) -> Invocation | None:
    """Run `commands` on the first running node and wait for its answer; None when no node runs.

    Raises:
        RemoteError: the node did not answer in time or the command failed there.
    """
    nodes = runner.nodes()
    if not nodes:
        return None
    [answer] = runner.wait(runner.send(nodes[:1], commands, comment, timeout_seconds), 2 * timeout_seconds, 2.0)
    return answer
