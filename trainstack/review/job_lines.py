"""What a stack change does to its running job, for the review (`trainstack.review.report`).

On a VM stack the job runs under trainstack's own head and workers, and a change reaches the
running job through the head's job channel (`nodeagent.relay`). On a managed platform
(SageMaker, HyperPod, Azure ML, ModelArts, PAI, TI-ONE) the platform runs the job that
`trainstack run` submits: `pulumi up` changes no running job, and an edited job reaches the next
`trainstack run` (docs/platforms.md).
"""

from __future__ import annotations

from typing import Any

from trainstack.plan.result import PlanResult
from trainstack.review.diff import Change


def job_lines(before: PlanResult | None, after: PlanResult, changes: list[Change]) -> dict[str, str] | None:
    """What a change does to the head, the job and its node count, in one line each; None when
    neither side runs a job (or nothing is compared).

    Returns:
        On a VM stack `{"head", "job"}` and `"nodes"` when the count changes
        (`vm_job_lines`); on a managed platform `{"job"}` when the job or its node count
        changes (else None): the job is submitted by `trainstack run`, not by `pulumi up`;
        `{"job"}` saying what stops and what starts it when the platform changes.
    """
    old = before.job if before is not None else None
    new = after.job
    if old is None or new is None or before is None:
        return None
    platform, was = new.get("platform") or "vm", old.get("platform") or "vm"
    if platform != was:
        return {"job": moved_job_line(was, platform)}
    if platform == "vm":
        return vm_job_lines(before, after, changes)
    bought = ((before.purchase, after.purchase), (before.instance_type, after.instance_type))
    return managed_job_lines(platform, old, new, bought)


def moved_job_line(was: str, platform: str) -> str:
    """The line for a job that moves between the stack's VMs and a managed platform (or
    between two platforms): what stops, and what starts it on the other side."""
    if was == "vm":
        return (
            f"the job moves from the stack's VMs to {platform}: `pulumi up` deletes the nodes and the job running "
            f"on them; start it on {platform} with `trainstack run`"
        )
    where, start = (
        ("the stack's VMs", "the new nodes start it when they boot")
        if platform == "vm"
        else (platform, f"start it on {platform} with `trainstack run`")
    )
    return (
        f"the job moves from {was} to {where}: a job {was} is running keeps running and billing until it ends or "
        f"you stop it (`pulumi up` does not hold it); {start}"
    )


def managed_job_lines(
    platform: str, old: dict[str, Any], new: dict[str, Any], bought: tuple[tuple[Any, Any], ...] = ()
) -> dict[str, str] | None:
    """The one line for a managed platform's job: what changes (its program, nodes, and the
    `(before, after)` purchase option and instance type in `bought`), and that it reaches the
    next `trainstack run` only (a submitted training job is not modified by `pulumi up`); None
    when none of them changes."""
    changed = []
    if old["id"] != new["id"]:
        changed.append("its program")
    if old["nodes"] != new["nodes"]:
        changed.append(f"its nodes ({old['nodes']} -> {new['nodes']})")
    for what, (was, now) in zip(("purchase option", "instance type"), bought, strict=False):
        if was is not None and now is not None and was != now:
            changed.append(f"its {what} ({was} -> {now})")
    if not changed:
        return None
    return {
        "job": (
            f"the job changes ({', '.join(changed)}), but {platform} runs the job `trainstack run` submits, "
            "not `pulumi up`: a job already submitted keeps what it was submitted with until it ends or is "
            "stopped, and the change takes effect at the next `trainstack run`"
        )
    }


def vm_job_lines(before: PlanResult, after: PlanResult, changes: list[Change]) -> dict[str, str]:
    """What a change does to a VM stack's head, job and node count, in one line each (both
    sides run a job)."""
    old, new = before.job, after.job
    assert old is not None and new is not None  # `job_lines` calls it only then
    # the head VM is `<cluster>-head` on every cloud (its address: `-head-eni`, `-head-ip`, `-head-nic`)
    heads = [c for c in changes if c.name.endswith("-head")]
    head = heads[0] if heads else None
    lines = {}
    if head is None or head.action == "same":
        lines["head"] = "unchanged: its rendezvous store keeps running (its bootstrap holds no job setting)"
    elif head.action == "update" and all(_channel_path(path) for path in head.changed):
        lines["head"] = (
            f"updated in place (its job channel: {', '.join(sorted({p.split('.')[0] for p in head.changed}))}): "
            "it keeps running with its rendezvous store and publishes the new settings to the workers"
        )
    elif head.action == "replace":
        lines["head"] = (
            "replaced: the rendezvous store restarts, every worker's torchrun stops and the job resumes from its last checkpoint"
        )
    else:
        lines["head"] = (
            f"updated ({', '.join(head.changed)}); on AWS a user-data change stops and starts it, "
            "restarting the rendezvous and so the job from its last checkpoint"
        )
    if old["id"] != new["id"]:
        lines["job"] = (
            f"the job's program changes (rendezvous id ...-{old['id']} -> ...-{new['id']}): the head publishes it on the "
            "file system and every running worker stops its torchrun (SIGTERM: the script checkpoints) and starts the "
            "new job under the new id, all together; no node is replaced, and old and new never train in one job"
        )
    else:
        lines["job"] = "unchanged: the same program and rendezvous id on every node"
    if (old["nodes"], old["min_nodes"]) != (new["nodes"], new["min_nodes"]):
        lines["nodes"] = (
            f"{old['nodes']} -> {new['nodes']} nodes (min {old['min_nodes']} -> {new['min_nodes']}): the group adds or "
            f"removes nodes, and every running worker restarts its torchrun from --nnodes={old['min_nodes']}:{old['nodes']} "
            f"to --nnodes={new['min_nodes']}:{new['nodes']} together (the head publishes the count); the job resumes "
            "from its last checkpoint in the same rendezvous"
        )
    return lines


# Head inputs updated on the running VM that carry the job channel (`nodeagent.relay`): tags
# (AWS: EC2 tags in instance metadata), the `trainstack-job` metadata attribute (GCP), user data
# (Azure).
_CHANNEL_INPUTS = ("tags", "tagsAll", "metadata.trainstack-job", "userData")


def _channel_path(path: str) -> bool:
    """Whether a changed head input path is part of the job channel (`_CHANNEL_INPUTS`)."""
    return any(path == p or path.startswith(f"{p}.") for p in _CHANNEL_INPUTS)
