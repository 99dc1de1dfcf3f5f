"""Read each cloud's answers about a node group into one shape (`GroupStatus`).

The answers are the APIs' own documented JSON: AWS DescribeAutoScalingGroups and
DescribeScalingActivities (EC2 Auto Scaling API reference), GCP instanceGroupManagers.get and
listErrors and a flex-start group's resize requests (Compute Engine API v1), Azure virtualMachineScaleSets get and instanceView (Compute
REST API; a Flexible scale set has no instance view, so its VMs' own statuses). The latest failure is read with the cloud's own codes (`clouds.capacity_errors`;
`provider` is the stack's, whose codes apply).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from clouds.capacity_errors import CapacityFailure, classify


class GroupStatus(NamedTuple):
    """One node group's state.

    Attributes:
        name: the group's name.
        asked: nodes asked for (desired capacity / target size / SKU capacity).
        running: nodes running and healthy.
        error: the latest failure's message, or None.
        when: when it happened (the API's timestamp text), or "".
        failure: its capacity or quota reading, or None (another error, or none).
    """

    name: str
    asked: int
    running: int
    error: str | None = None
    when: str = ""
    failure: CapacityFailure | None = None

    def line(self) -> str:
        """`c-nodes: 1 of 2 running; latest error (2026-...): InsufficientInstanceCapacity (capacity): ...`."""
        text = f"{self.name}: {self.running} of {self.asked} running"
        if self.error is None:
            return text + "; no failed scaling"
        message = " ".join(self.error.split())
        if self.failure:  # the code once, then what the cloud said
            message = message.removeprefix(f"{self.failure.code}: ")
            message = f"{self.failure.code} ({self.failure.kind}): {message}"
        return f"{text}; latest error ({self.when or 'time unknown'}): {message[:300]}"


def aws_group(group: dict[str, Any], activities: dict[str, Any], provider: str) -> GroupStatus:
    """A DescribeAutoScalingGroups group with its DescribeScalingActivities answer (newest first)."""
    running = sum(
        1
        for instance in group.get("Instances", [])
        if instance.get("LifecycleState") == "InService" and instance.get("HealthStatus") == "Healthy"
    )
    failed = [a for a in activities.get("Activities", []) if a.get("StatusCode") in ("Failed", "Cancelled")]
    name, asked = group.get("AutoScalingGroupName", "?"), int(group.get("DesiredCapacity", 0))
    if not failed:
        return GroupStatus(name, asked, running)
    latest = failed[0]
    message = latest.get("StatusMessage") or latest.get("Description", "")
    return GroupStatus(name, asked, running, message, str(latest.get("StartTime", "")), classify(provider, message))


def gcp_group(manager: dict[str, Any], errors: dict[str, Any], provider: str) -> GroupStatus:
    """An instanceGroupManagers.get answer with its listErrors answer."""
    items = sorted(errors.get("items", []), key=lambda item: item.get("timestamp", ""), reverse=True)
    name, asked = manager.get("name", "?"), int(manager.get("targetSize", 0))
    running = int(manager.get("currentActions", {}).get("none", 0))
    if not items:
        return GroupStatus(name, asked, running)
    error = items[0].get("error", {})
    message = f"{error.get('code', '')}: {error.get('message', '')}"
    return GroupStatus(name, asked, running, message, items[0].get("timestamp", ""), classify(provider, message))


def azure_scale_set(scale_set: dict[str, Any], view: dict[str, Any], provider: str) -> GroupStatus:
    """A virtualMachineScaleSets get answer with its instanceView answer."""
    name, asked = scale_set.get("name", "?"), int(scale_set.get("sku", {}).get("capacity", 0))
    summary = view.get("virtualMachine", {}).get("statusesSummary", [])
    running = sum(int(s.get("count", 0)) for s in summary if s.get("code") == "ProvisioningState/succeeded")
    errors = [s for s in view.get("statuses", []) if s.get("level") == "Error"]
    if not errors:
        return GroupStatus(name, asked, running)
    latest = errors[-1]
    message = f"{latest.get('code', '')}: {latest.get('message', latest.get('displayStatus', ''))}"
    return GroupStatus(name, asked, running, message, latest.get("time", ""), classify(provider, message))


def azure_flexible(scale_set: dict[str, Any], vms: list[dict[str, Any]], provider: str) -> GroupStatus:
    """A Flexible scale set, which has no instance view ("VMSS Get Instance View" is not supported
    in Flexible orchestration: Microsoft Learn, "Orchestration modes for Virtual Machine Scale
    Sets"), with its VMs from `Virtual Machines - List All` (`statusOnly=true`, filtered to the
    set): running = provisioned and `PowerState/running`; the newest `Error` status of any VM."""
    name, asked = scale_set.get("name", "?"), int(scale_set.get("sku", {}).get("capacity", 0))
    running, errors = 0, []
    for vm in vms:
        statuses = ((vm.get("properties") or {}).get("instanceView") or {}).get("statuses", [])
        codes = {s.get("code") for s in statuses}
        running += "ProvisioningState/succeeded" in codes and "PowerState/running" in codes
        errors += [s for s in statuses if s.get("level") == "Error"]
    if not errors:
        return GroupStatus(name, asked, running)
    latest = max(errors, key=lambda s: str(s.get("time", "")))
    message = f"{latest.get('code', '')}: {latest.get('message', latest.get('displayStatus', ''))}"
    return GroupStatus(name, asked, running, message, latest.get("time", ""), classify(provider, message))


# Queued-resource states in which a slice waits for capacity (Cloud TPU API v2 QueuedResourceState).
TPU_WAITING = ("ACCEPTED", "WAITING_FOR_RESOURCES", "PROVISIONING", "CREATING")


def tpu_slice(resource_id: str, answer: dict[str, Any] | None, provider: str) -> GroupStatus:
    """A TPU slice's queued resource (`projects.locations.queuedResources.get`; None: not found):
    one node asked, running when ACTIVE; FAILED gives `failedData.error`, a waiting state says so
    (a capacity reading: the slice waits for TPUs), SUSPENDED that a preemption took it."""
    if answer is None:
        return GroupStatus(resource_id, 1, 0, "no queued resource (not created yet, or deleted to be re-created)")
    state = (answer.get("state") or {}).get("state", "STATE_UNSPECIFIED")
    if state == "ACTIVE":
        return GroupStatus(resource_id, 1, 1)
    when = str(answer.get("createTime", ""))
    if state == "FAILED":
        error = ((answer.get("state") or {}).get("failedData") or {}).get("error") or {}
        message = f"FAILED: {error.get('message', 'no message')}"
        return GroupStatus(resource_id, 1, 0, message, when, classify(provider, message))
    if state in TPU_WAITING:
        failure = CapacityFailure("capacity", state) if state == "WAITING_FOR_RESOURCES" else None
        return GroupStatus(resource_id, 1, 0, f"{state}: the slice waits for TPU capacity", when, failure)
    return GroupStatus(resource_id, 1, 0, f"{state}: queued resource not running", when)


# Resize-request states in which a flex-start request still waits for its VMs (Compute Engine
# API v1 InstanceGroupManagerResizeRequest.state: CREATING, ACCEPTED "accepted for provisioning
# when the capacity becomes available"; then SUCCEEDED, FAILED or CANCELLED).
RESIZE_WAITING = ("CREATING", "ACCEPTED")


def _first_error(error: dict[str, Any] | None) -> str | None:
    """`CODE: message` of an API `Error` (`{"errors": [{"code", "message"}]}`), or None."""
    errors = (error or {}).get("errors") or []
    return f"{errors[0].get('code', '')}: {errors[0].get('message', '')}" if errors else None


def gcp_resize_request(answer: dict[str, Any], provider: str) -> GroupStatus:
    """A flex-start MIG resize request (an `instanceGroupManagerResizeRequests.list` item): its
    `resizeBy` nodes asked, all created when SUCCEEDED; FAILED gives `status.error`; CREATING or
    ACCEPTED wait for capacity, with `status.lastAttempt.error` when Google recorded one (it may
    be stale: the request retries infrequently); CANCELLED creates nothing."""
    name, asked = answer.get("name", "?"), int(answer.get("resizeBy", 0))
    state, when = answer.get("state", "STATE_UNSPECIFIED"), str(answer.get("creationTimestamp", ""))
    status = answer.get("status") or {}
    if state == "SUCCEEDED":
        return GroupStatus(name, asked, asked)
    if state == "FAILED":  # the cloud's code first, as `GroupStatus.line` shows it
        message = f"{_first_error(status.get('error')) or 'no error recorded'} (the request FAILED: no retry)"
        return GroupStatus(name, asked, 0, message, when, classify(provider, message))
    if state in RESIZE_WAITING:
        waits = f"the {state} request waits for capacity for all {asked} nodes"
        last = _first_error((status.get("lastAttempt") or {}).get("error"))
        if last is None:
            return GroupStatus(name, asked, 0, f"{waits} (no failed attempt recorded)", when)
        message = f"{last} (its last attempt; {waits})"
        return GroupStatus(name, asked, 0, message, when, classify(provider, message))
    return GroupStatus(name, asked, 0, f"{state}: the flex-start request creates no nodes", when)
