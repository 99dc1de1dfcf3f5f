"""`trainstack run` on a GCP VM stack: the run written to the head's job channel, its instance
metadata attribute `trainstack-job` (`trainstack.run.head_channel`), through the Compute Engine
REST API (`profiles.preflight.gcp_api`).

- The head is found among the zone's instances (`instances.list`) by its name: Pulumi names it
  `{cluster}-head-<7 random characters>` (`components.gcp.nodes.create_head_node`), and by its
  `trainstack-cluster` label.
- `instances.setMetadata` replaces the instance's whole metadata, with the `fingerprint` the
  list gave ("Setting and removing custom metadata": a stale fingerprint is refused with 412
  conditionNotMet, so a concurrent change is never overwritten); every other item is sent back
  as it was. It changes the running VM without a restart.
- The answer is a zonal Operation, read (`zoneOperations.get`) until its status is DONE; an
  `error` in it is the run's failure.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from typing import Any

from clouds.contract import ClusterConfig
from clouds.gcp.labels import sanitize_label_value
from nodeagent.clouds.gcp import JOB_ATTRIBUTE
from trainstack.run import MissingCredentials, PlatformFailed, RunError, Submitted
from trainstack.run import head_channel as channel

LABEL = "trainstack-cluster"


def is_head(instance: dict[str, Any], name: str) -> bool:
    """Whether `instance` (an `instances.list` item) is the head node of cluster `name`."""
    if re.fullmatch(rf"{re.escape(name)}-head(-[a-z0-9]{{7}})?", str(instance.get("name", ""))) is None:
        return False
    return (instance.get("labels") or {}).get(LABEL) == sanitize_label_value(name)


def head_of(instances: list[dict[str, Any]], name: str, zone: str) -> dict[str, Any]:
    """The head node among `instances` (`head_channel.the_head`).

    Raises:
        RunError: none (the stack is not up, or has no job).
    """
    return channel.the_head(instances, is_head, name, zone)


def metadata_body(head: dict[str, Any], text: str) -> dict[str, Any]:
    """The `instances.setMetadata` body: the head's metadata items with the channel's set to
    `text`, and the fingerprint they were read with."""
    metadata = head.get("metadata") or {}
    items = [i for i in metadata.get("items", []) if i.get("key") != JOB_ATTRIBUTE]
    return {"fingerprint": metadata.get("fingerprint", ""), "items": [*items, {"key": JOB_ATTRIBUTE, "value": text}]}


def channel_of(head: dict[str, Any]) -> str | None:
    """The channel's text in the head's metadata, or None."""
    items = (head.get("metadata") or {}).get("items", [])
    return next((str(i.get("value", "")) for i in items if i.get("key") == JOB_ATTRIBUTE), None)


def wait_done(
    get: Callable[[str], dict[str, Any]],
    operation: dict[str, Any],
    where: str,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> dict[str, Any]:
    """The Operation once DONE (`zoneOperations.get` every `PAUSE_SECONDS`).

    Raises:
        RunError: its `error`, or not done by `DEADLINE_SECONDS`.
    """
    end = clock() + channel.DEADLINE_SECONDS
    while operation.get("status") != "DONE":
        if clock() >= end:
            raise RunError(f"job: setMetadata {operation.get('name')} not done after {channel.DEADLINE_SECONDS:.0f} s")
        sleep(channel.PAUSE_SECONDS)
        operation = get(f"{where}/operations/{operation['name']}")
    errors = (operation.get("error") or {}).get("errors") or []
    if errors:
        first = errors[0]
        raise RunError(
            f"job: setMetadata failed: {first.get('code', '?')}: {' '.join(str(first.get('message', '')).split())}"
        )
    return operation


def request_preview(cluster: ClusterConfig, name: str, stamp: str) -> dict[str, Any]:
    """What `submit` sends (`run --dry-run`), with the head's other items and fingerprint left out."""
    new_run = channel.run_id(cluster, name, stamp)
    return {
        "method": "POST",
        "path": f"projects/PROJECT/zones/{cluster.zone}/instances/{name}-head-*/setMetadata",
        "items": [{"key": JOB_ATTRIBUTE, "value": f"<the head's job channel with run_id {new_run}>"}],
    }


def submit(
    cluster: ClusterConfig, name: str, stamp: str, settings: Mapping[str, Any] | None = None, sleep=time.sleep
) -> Submitted:
    """Write the run to the head's channel and wait for Compute Engine to apply it.

    Args:
        settings: the stack file's `config:` (its `gcp:project`).

    Raises:
        RunError: no head, no channel or another job on it (one line).
        MissingCredentials: no GCP credentials or project.
        PlatformFailed: the API refused a call or did not answer.
    """
    from profiles.preflight import gcp_api
    from profiles.preflight.finding import PreflightError

    new_run = channel.run_id(cluster, name, stamp)
    try:
        token, project = gcp_api.credentials(settings)
    except PreflightError as exc:  # the job is fine: the platform cannot be reached without them
        raise MissingCredentials(str(exc)) from None
    try:
        where = f"projects/{project}/zones/{cluster.zone}"
        head = head_of(gcp_api.listed(f"{where}/instances", token), name, str(cluster.zone))
        text = channel.with_run(channel_of(head), channel.stack_job_id(cluster, name), new_run, name)
        body = metadata_body(head, text)
        operation = gcp_api.call("POST", f"{where}/instances/{head['name']}/setMetadata", token, body)
        done = wait_done(lambda path: gcp_api.get(path, token), operation, where, sleep)
    except PreflightError as exc:  # the cloud refused a call or did not answer: the work failed
        raise PlatformFailed(str(exc)) from None
    request = {"head": head["name"], "operation": done.get("name"), "setMetadata": body}
    return channel.submitted(cluster, name, new_run, request)
