"""The job's progress read on the head node itself, for a cloud where the head publishes it
(`Watcher.report_progress`; GCP guest attributes): the newest checkpoint in the job's
checkpoint folder and the last step its newest worker log reports, in the `TRAINSTACK-PROGRESS`
lines `trainstack status` reads, as the shell lines `trainstack.status.progress.progress_commands`
print them on a node reached by a run command.
"""

from __future__ import annotations

import logging
import re
import threading
from pathlib import Path

log = logging.getLogger("trainstack.nodeagent")

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


# Seconds between the head's progress reports (Google: guest attributes are for data that
# changes infrequently, at most 10 queries a minute per VM; one write a minute, when it changed).
PROGRESS_SECONDS = 60.0


def report_progress(path: str, report, last: str | None) -> str | None:
    """Report the job's progress (`nodeagent.progress.lines`, the job document at `path` names
    its folders) when it differs from `last`; the text reported (or `last`)."""
    from nodeagent.relay import published

    doc = published(path)
    if doc is None or not doc.get("checkpoint_dir") or not doc.get("log_dir"):
        return last
    text = lines(doc["checkpoint_dir"], doc["log_dir"])
    if text != last:
        report(text)
    return text


def progress_loop(path: str, report, stop: threading.Event, pause: float = PROGRESS_SECONDS) -> None:
    """Publish the job's progress (`report_progress`) every `pause` seconds until `stop` is set.

    Args:
        path: the job document the head relays (it names the job's folders).
        report: (text) -> None: the cloud's `Watcher.report_progress` bound to the metadata URL.
    """
    last = None
    while not stop.is_set():
        try:
            last = report_progress(path, report, last)
        except OSError as exc:  # the metadata service or file system is away: retry
            log.warning("job progress: %s", exc)
        stop.wait(pause)
