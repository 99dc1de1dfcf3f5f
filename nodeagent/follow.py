"""A worker's launcher following the job's runs: what asks for a new torchrun (a job edit, a new
node count, a run `trainstack run` started), and, for a job that ended on its own, the wait
for the next run (`NodeJob.follow_runs`).
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from nodeagent import relay
from nodeagent.job import NodeJob, current_run_id

log = logging.getLogger("trainstack.nodeagent")

# Where a launcher that follows runs (`NodeJob.follow_runs`) notes, while it waits for the next
# run, how its last one ended: `finished <run id>` or `failed <run id> <exit status>` (node-local,
# on the tmpfs /run: gone at a reboot, when the unit starts the run again). `trainstack status`
# reads it beside the unit's state, which stays active while the launcher waits.
ENDED_FILE = "/run/trainstack/job-ended"


def changed_run(job: NodeJob, now: NodeJob, launched_id: str) -> NodeJob | None:
    """The job as published now when it asks for a new torchrun: a new job or node count
    (`relay.restart_needed`) or a new run `trainstack run` started (`current_run_id`, against
    the id `launched_id` the running torchrun has); else None."""
    latest = relay.current(job)
    if relay.restart_needed(now, latest) or current_run_id(latest) != launched_id:
        return latest
    return None


def next_run(job: NodeJob, now: NodeJob, launched_id: str, code: int, running: dict) -> tuple[NodeJob | None, int]:
    """Wait, after run `launched_id` ended on its own with exit status `code`, for the next run
    or job (`changed_run`, read every `job.poll_seconds`), noting the end in `ENDED_FILE`
    meanwhile.

    Args:
        running: the launcher's state; `running["leaving"]` set (SIGTERM, a notice) ends the wait.

    Returns:
        (the job to start, `code`), or (None, 0) once the launcher leaves: the run had ended.
    """
    ended = f"finished {launched_id}" if code == 0 else f"failed {launched_id} {code}"
    log.info("job %s; waiting for the next run (trainstack run)", ended)
    _note_ended(ended)
    try:
        while not running.get("leaving"):
            time.sleep(job.poll_seconds)
            if (latest := changed_run(job, now, launched_id)) is not None:
                return latest, code
        return None, 0
    finally:
        _note_ended("")


def _note_ended(text: str) -> None:
    """Write (or, with "", remove) `ENDED_FILE`; a node where /run cannot be written only loses
    the note."""
    path = Path(ENDED_FILE)
    try:
        if text:  # atomically: a reader never sees half a note
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_name(f".{path.name}.tmp")
            temporary.write_text(text + "\n")
            temporary.replace(path)
        else:
            path.unlink(missing_ok=True)
    except OSError as exc:
        log.warning("job end note %s: %s", path, exc)
