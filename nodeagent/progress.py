"""The job's progress read on the head node itself, for a cloud where the head publishes it
(`Watcher.report_progress`; GCP guest attributes): the newest checkpoint in the job's
checkpoint folder and the last step its newest worker log reports, in the `TRAINSTACK-PROGRESS`
lines `trainstack status` reads, as the shell lines `trainstack.status.progress.progress_commands`
print them on a node reached by a run command.
"""

from __future__ import annotations

import re
from pathlib import Path

MARK = "TRAINSTACK-PROGRESS "
STEP = re.compile(r"[Ss]tep[ =:#]*[0-9][0-9,]*")  # trainstack.status.progress.STEP_PATTERN
TAIL_BYTES = 1 << 20  # the end of the newest log read for its last step (a choice)


def _newest(paths) -> tuple[float, Path] | None:
    found = []
    for path in paths:
        try:
            found.append((path.stat().st_mtime, path))
        except OSError:  # gone meanwhile
            continue
    return max(found, default=None)


def _last_step(path: Path) -> str:
    try:
        with path.open("rb") as log:
            log.seek(max(0, path.stat().st_size - TAIL_BYTES))
            text = log.read().decode(errors="replace")
    except OSError:
        return ""
    steps = STEP.findall(text)
    return steps[-1] if steps else ""


def lines(checkpoint_dir: str, log_dir: str) -> str:
    """`TRAINSTACK-PROGRESS checkpoint <mtime> <name>` and `... step <mtime> <text>` lines; none
    for what is not there yet."""
    out = []
    folder = Path(checkpoint_dir)
    entries = folder.iterdir() if folder.is_dir() else iter(())
    checkpoint = _newest(p for p in entries if not p.name.startswith("."))
    if checkpoint is not None:
        out.append(f"{MARK}checkpoint {checkpoint[0]:.6f} {checkpoint[1].name}")
    logs = Path(log_dir)
    log = _newest(logs.rglob("stdout.log")) if logs.is_dir() else None
    if log is not None:
        out.append(f"{MARK}step {log[0]:.6f} {_last_step(log[1])}")
    return "\n".join(out)
