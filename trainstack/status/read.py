"""Read each cloud's answers about a node group into one shape (`GroupStatus`).

The answers are the APIs' own documented JSON: AWS DescribeAutoScalingGroups and
DescribeScalingActivities (EC2 Auto Scaling API reference), GCP instanceGroupManagers.get and
listErrors (Compute Engine API v1), Azure virtualMachineScaleSets get and instanceView (Compute
REST API). The latest failure is read with the cloud's own codes (`clouds.capacity_errors`;
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
