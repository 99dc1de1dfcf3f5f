"""The bounded walk of `trainstack up`: deploy, and on a capacity or quota error move to the
next fallback and deploy again.

Each attempt runs the deployment through an engine (`trainstack.up.engine`: the Pulumi
Automation API's `Stack.up`) that hands every engine event to the walk. An attempt that fails
is read from its diagnostic events (severity `error`) with the cloud's own codes
(`clouds.capacity_errors`): a capacity or quota error blocks that offering for
`BLOCK_MINUTES` (`trainstack.up.blocked`) and moves the stack to its next fallback that is
neither blocked nor a move the walk may not make by itself (`trainstack.up.move`); any other
error ends the walk, since another offering would not fix it. The walk is bounded in
attempts and in time and ends with a report of every offering tried and why each failed.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clouds.capacity_errors import KINDS, classify
from profiles.stack.file import stack_path
from trainstack.up.blocked import Blocklist
from trainstack.up.move import StackNow, move_problem, offering, offering_key, read_stack, rewrite

# A choice: long enough that a retry of the same pool is not the next attempt, short enough
# that a pool that recovers within the hour is tried again by the next `trainstack up`.
BLOCK_MINUTES = 30
# Bounds of one walk (choices): attempts (the first deployment included) and wall-clock minutes.
MAX_ATTEMPTS = 5
MAX_MINUTES = 120

# The outcomes of a deployment (the others are moves and rows passed over).
DEPLOYMENTS = ("deployed", "capacity", "quota", "error")
# (stack name, project folder, `Stack.up` keyword arguments, event callback) -> None; raises on failure.
Engine = Callable[[str, Path, dict[str, Any], Callable[[Any], None]], None]


@dataclass
class Attempt:
    """One offering the walk tried or passed over.

    Attributes:
        offering: what was tried (`p5.48xlarge x2 spot in us-east-1 (use1-az2)`).
        outcome: `deployed`, `capacity`, `quota`, `error` (a deployment), `moved` (the stack
            rewritten onto it), `skipped` or `blocked` (passed over).
        detail: the cloud's code and message, or why it was passed over.
        changes: what the move to this offering changed in the stack (fields, cost).
    """

    offering: str
    outcome: str
    detail: str = ""
    changes: list[str] = field(default_factory=list)


@dataclass
class Report:
    """The walk's end: every attempt in order, and whether the last one deployed."""

    attempts: list[Attempt] = field(default_factory=list)
    deployed: bool = False
    stopped: str = ""

    def lines(self) -> list[str]:
        """The report as printed: one line per attempt (and its changes), then the end."""
        out = []
        for number, attempt in enumerate(self.attempts, 1):
            out.append(
                f"{number}. {attempt.offering}: {attempt.outcome}{': ' + attempt.detail if attempt.detail else ''}"
            )
            out.extend(f"     {line}" for line in attempt.changes)
        out.append("deployed" if self.deployed else f"not deployed: {self.stopped}")
        return out


def errors_of(events: list[Any]) -> list[str]:
    """The messages of the error-severity diagnostic events, in order."""
    found = []
    for event in events:
        diagnostic = getattr(event, "diagnostic_event", None)
        if diagnostic is not None and diagnostic.severity == "error" and diagnostic.message.strip():
            found.append(diagnostic.message.strip())
    return found


def walk(
    name: str,
    folder: Path,
    engine: Engine,
    flags: dict[str, Any] | None = None,
    max_attempts: int = MAX_ATTEMPTS,
    max_minutes: float = MAX_MINUTES,
    clock: Callable[[], float] = time.time,
    force: bool = False,
) -> Report:
    """Deploy stack `name` of the project at `folder`, walking its fallbacks on capacity errors.

    Args:
        name: the stack (`stacks/Pulumi.<name>.yaml`).
        folder: the project folder.
        engine: runs one deployment (`trainstack.up.engine.automation_engine`).
        flags: `Stack.up` keyword arguments (`trainstack.up.engine.up_flags`).
        max_attempts: deployments at most, the first included.
        max_minutes: no new attempt starts after this many minutes.
        clock: seconds since the epoch (the blocklist's and the time bound's).
        force: rewrite a stack edited by hand (else the walk stops before moving it).

    Raises:
        StackFileError / ConfigError: the stack cannot be read (before anything runs).
    """
    path = stack_path(folder, name)
    blocked = Blocklist(folder, clock)
    report, start = Report(), clock()
    now = read_stack(path)
    while True:
        provider, tried = now.cluster.provider, offering(now.cluster)
        events: list[Any] = []
        try:
            engine(name, folder, dict(flags or {}), events.append)
        except Exception as exc:  # the engine's failure: read its events, then its own text
            messages = errors_of(events) or [str(exc)]
            found = next((f for f in (classify(provider, m) for m in messages) if f), None)
            if found is None:
                report.attempts.append(Attempt(tried, "error", _first_line(messages[0])))
                report.stopped = "the error is not a capacity or quota error; fix it and run again"
                return report
            message = next(m for m in messages if classify(provider, m) == found)
            report.attempts.append(Attempt(tried, found.kind, f"{found.code}: {_first_line(message)}"))
            blocked.add(offering_key(provider, now.cluster), BLOCK_MINUTES, f"{found.code} ({KINDS[found.kind]})")
        else:
            report.attempts.append(Attempt(tried, "deployed"))
            report.deployed = True
            return report
        moved = _next(path, now, blocked, report, force)
        if moved is None:
            return report
        deployments = sum(a.outcome in DEPLOYMENTS for a in report.attempts)
        if deployments >= max_attempts or clock() - start > max_minutes * 60:
            report.stopped = (
                f"stopped after {deployments} deployments (at most {max_attempts}, {max_minutes:g} minutes)"
            )
            return report
        now = moved


def _next(path: Path, now: StackNow, blocked: Blocklist, report: Report, force: bool) -> StackNow | None:
    """Move the stack to its next usable fallback; None (with `report.stopped`) when there is none."""
    if now.hand_edited and not force:
        report.stopped = (
            f"{path.name} was edited by hand; move it yourself or run `trainstack up --force` to let up rewrite it"
        )
        return None
    for row in now.fallbacks:
        key = offering_key(now.cluster.provider, row)
        if blocked.until(key) is not None:
            report.attempts.append(Attempt(offering(row), "blocked", blocked.why(key)))
            continue
        problem = move_problem(now.cluster, row)
        if problem:
            report.attempts.append(Attempt(offering(row), "skipped", problem))
            continue
        config, lines = rewrite(path, now, row)
        report.attempts.append(Attempt(offering(row), "moved", f"stack rewritten to {offering(config)}", lines))
        return read_stack(path)
    report.stopped = "no fallback left (every row tried, blocked or needing your decision)"
    return None


def _first_line(text: str) -> str:
    """The message's first line that says something (not the provider's `1 error occurred:`)."""
    lines = [part.strip().removeprefix("* ") for part in text.splitlines()]
    said = [line for line in lines if line and not re.fullmatch(r"\d+ errors? occurred:?", line)]
    return (said[0] if said else text.strip())[:300]
