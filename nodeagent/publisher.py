"""The head node's side of the job channel (`nodeagent.relay`): read the channel from this
cloud's metadata service (`Watcher.published_job` in `nodeagent/clouds/`) and copy it to the
shared file system for the workers.

Each cloud's head carries the channel in a property `pulumi up` updates in place, without
stopping the VM:
- AWS: tags `trainstack:job:00`, `:01`, ... (a tag value holds at most 256 characters), read
  through IMDSv2 `tags/instance`; EC2 updates them "while the instance is running, without
  needing to stop and then start the instance" ("View tags for your EC2 instances using
  instance metadata"; the head turns `instance_metadata_tags` on).
- GCP: the custom metadata attribute `trainstack-job` (`instances.setMetadata` on a running
  VM), read from the metadata server.
- Azure: the VM's user data, which "can be updated from outside the VM, without stopping or
  rebooting the VM" and which IMDS returns base64-encoded ("User Data for Azure Virtual
  Machine").
"""

from __future__ import annotations

import base64
import functools
import json
import logging
import threading
import zlib
from pathlib import Path

from nodeagent.job import RUN_ID, RUN_SUFFIX
from nodeagent.relay import RELAYED

log = logging.getLogger("trainstack.nodeagent")


# What the channel may carry beside the job: a run of it that `trainstack run` started
# (`<job_id>-<stamp>`). The head keeps it in the job's run file (`keep_run`), not
# in the published job, so a channel written back without it (a `pulumi up --refresh`) leaves
# the run alone, and a job edit (a new job_id) starts afresh under its own id.
RUN_KEY = "run_id"


def encode(doc: dict) -> str:
    """The channel's text: base64 of the zlib-compressed, key-sorted JSON of `doc` (ASCII, so
    it fits tags, metadata values and user data alike)."""
    raw = json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()
    return base64.b64encode(zlib.compress(raw, 9)).decode()


def decode(text: str) -> dict:
    """The job document in `text` (`encode`'s output).

    Raises:
        ValueError: `text` is not such a document.
    """
    try:
        doc = json.loads(zlib.decompress(base64.b64decode(text.strip(), validate=True)))
    except (ValueError, zlib.error) as exc:
        raise ValueError(f"job channel: not a job document ({exc})") from None
    if not isinstance(doc, dict) or "job_id" not in doc or set(doc) - {*RELAYED, RUN_KEY}:
        raise ValueError("job channel: not a job document (unexpected keys)")
    return doc


def chunks(text: str, size: int = 256) -> list[str]:
    """`text` cut into pieces of at most `size` characters (a tag value holds 256 on AWS)."""
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


# Seconds between the head's reads of its metadata (a choice: one local GET).
PUBLISH_SECONDS = 10.0


def publish(path: str | Path, doc: dict) -> bool:
    """Write `doc` (JSON) to `path` atomically when it differs from what is there.

    Returns:
        True when the file was written.

    Raises:
        OSError: the file cannot be written.
    """
    return _write(Path(path), json.dumps(doc, sort_keys=True) + "\n")


def keep_run(path: str | Path, job_id: str, run_id: str) -> bool:
    """Record `run_id`, a run of job `job_id`, in the job's run file `path` (what
    `nodeagent.job.start_run` writes on AWS) when it is not there already.

    Returns:
        True when the file was written.

    Raises:
        ValueError: `run_id` is not `<job_id>-<stamp>`.
        OSError: the file cannot be written.
    """
    if not RUN_ID.match(run_id) or not run_id.startswith(job_id + "-"):
        raise ValueError(f"job channel: run {run_id!r} is not a run of job {job_id}")
    return _write(Path(path), run_id + "\n")


def _write(target: Path, body: str) -> bool:
    """Write `body` to `target` atomically (a temporary file renamed) unless it holds it already."""
    try:
        if target.read_text() == body:
            return False
    except OSError:
        pass
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.tmp")
    temporary.write_text(body)
    temporary.replace(target)
    return True


def relay_once(text: str, path: str, run_path: str = "") -> list[str]:
    """Copy one reading of the channel: the job to `path`, and a run `trainstack run` started
    (`RUN_KEY`) to the job's run file `run_path` (`keep_run`), each only when
    it changed; the job first, so a worker never reads a run of a job it has not seen.

    Returns:
        The files written.

    Raises:
        ValueError: `text` is not a job document, or its run is not a run of its job.
        OSError: a file cannot be written.
    """
    doc = decode(text)
    run = doc.pop(RUN_KEY, None)
    written = [path] if publish(path, doc) else []
    if run and run_path and keep_run(run_path, str(doc["job_id"]), str(run)):
        written.append(run_path)
    return written


def publish_loop(read, path: str, stop: threading.Event, pause: float = PUBLISH_SECONDS, run_path: str = "") -> None:
    """Copy the head's channel to `path` (and its run to `run_path`) until `stop` is set.

    Args:
        read: () -> the channel's text, or None when the head has none (the cloud's
            `Watcher.published_job` bound to the metadata URL).
        path: the job document on the shared file system (`NodeJob.job_doc`).
        stop: ends the loop; pause: seconds between reads.
        run_path: the job's run file (`nodeagent.job.run_file`); "" keeps no run.
    """
    while not stop.is_set():
        try:
            text = read()
            for written in relay_once(text, path, run_path) if text else []:
                log.info("job channel: published %s", written)
        except (OSError, ValueError) as exc:  # the metadata service or file system is away: retry
            log.warning("job channel: %s", exc)
        stop.wait(pause)


def start(path: str, cloud: str, url: str | None = None, announce_file: str = "") -> threading.Event | None:
    """Run `publish_loop` on `cloud`'s channel (its watcher's `published_job`) in a daemon thread;
    a run goes to the run file beside `announce_file` (the rendezvous file, `RUN_SUFFIX`).

    Returns:
        The event that stops it; None for a cloud without a channel.
    """
    from nodeagent.notices import WATCHERS

    watcher = WATCHERS.get(cloud)
    if watcher is None or watcher.published_job is None:
        return None
    stop = threading.Event()
    read = functools.partial(watcher.published_job, url or watcher.default_url)
    run_path = announce_file + RUN_SUFFIX if announce_file else ""
    threading.Thread(target=publish_loop, args=(read, path, stop, PUBLISH_SECONDS, run_path), daemon=True).start()
    if watcher.report_progress is not None:  # the head publishes the job's progress too
        from nodeagent.progress import progress_loop

        report = functools.partial(watcher.report_progress, url or watcher.default_url)
        threading.Thread(target=progress_loop, args=(path, report, stop), daemon=True).start()
    return stop
