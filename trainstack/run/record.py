"""The last job `trainstack run` started for a stack, kept in the project so `trainstack status`
can follow it: `.trainstack/runs/<stack>.json` (what was started, where, and when).

Nothing secret is kept: the job's id, its platform, region, log and checkpoint places.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from profiles.files import write_atomically

FOLDER = Path(".trainstack") / "runs"


@dataclass(frozen=True)
class RunRecord:
    """A started job.

    Attributes:
        job_id: the platform's id (an ARN, an ARM id) or, on VMs, the run's rendezvous id.
        platform: the stack's platform, `vm` for the cloud's own VMs.
        provider, region: where it runs.
        started: when `run` started it (UTC, ISO 8601).
        logs, checkpoints: where its logs and checkpoints are.
    """

    job_id: str
    platform: str
    provider: str
    region: str
    started: str
    logs: str
    checkpoints: str


def record_path(project: Path, stack: str) -> Path:
    """`<project>/.trainstack/runs/<stack>.json`."""
    return project / FOLDER / f"{stack}.json"


def save(project: Path, stack: str, record: RunRecord) -> Path:
    """Keep `record` as the stack's last run (replacing the one before); the file written."""
    path = record_path(project, stack)
    write_atomically(path, json.dumps(asdict(record), indent=2, sort_keys=True) + "\n")
    return path


def load(project: Path, stack: str) -> RunRecord | None:
    """The stack's last run, or None (never run, or a file that is not a record)."""
    try:
        raw = json.loads(record_path(project, stack).read_text(encoding="utf-8"))
        return RunRecord(**{key: str(raw[key]) for key in RunRecord.__dataclass_fields__})
    except (OSError, ValueError, TypeError, KeyError):
        return None
