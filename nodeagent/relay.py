"""The job channel: a running cluster learns a job or node-count edit without replacing a node.

`pulumi up` writes the job's run-time settings (`RELAYED`) to a property of the head node that
the cloud updates in place, without a restart, and that the head reads from its metadata
service (AWS: instance tags, read through IMDS tags; GCP: an instance metadata attribute;
Azure: the VM's user data; `nodeagent.publisher`). The head's store unit copies it to the
shared file system, and every worker's launcher
follows that file (`current`): when the job's rendezvous id or node counts change, each
worker stops its torchrun (SIGTERM: the training script checkpoints) and starts the new
settings, so all nodes move to the new rendezvous together and old and new never train in
one job. A node booted later reads the same file before its first launch.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from pathlib import Path

log = logging.getLogger("trainstack.nodeagent")

# What the channel carries: the job itself, not where this node finds the store or its metadata.
RELAYED = (
    "command",
    "module",
    "workdir",
    "checkpoint_dir",
    "log_dir",
    "nproc_per_node",
    "min_nodes",
    "max_nodes",
    "max_restarts",
    "job_id",
    "env",
    "python",
)
# A change to any of these restarts torchrun on every node (the others follow at the next start).
RESTARTS = ("job_id", "min_nodes", "max_nodes")


def published(path: str | Path) -> dict | None:
    """The job document on the shared file system, or None (no file, unreadable or not one)."""
    try:
        doc = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(doc, dict) or "job_id" not in doc or set(doc) - set(RELAYED):
        return None
    return doc


def current(job):
    """`job` (a `nodeagent.job.NodeJob`) with the settings the head last published in
    `job.job_doc`; `job` itself when it follows no file or the file is absent or invalid."""
    if not job.job_doc:
        return job
    doc = published(job.job_doc)
    if doc is None:
        return job
    try:
        return type(job).from_dict({**dataclasses.asdict(job), **doc})
    except (ValueError, TypeError) as exc:
        log.warning("job channel %s: ignored (%s)", job.job_doc, exc)
        return job


def restart_needed(running, now) -> bool:
    """True when the job `now` asks for differs from the `running` one in a way that needs a new
    torchrun: a new rendezvous id (the program changed) or new node counts."""
    return any(getattr(running, key) != getattr(now, key) for key in RESTARTS)
