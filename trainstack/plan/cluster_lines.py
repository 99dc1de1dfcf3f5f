"""What a plan says about its cluster beside the resources: what it does when a node is lost,
which torch and NCCL its nodes run, its job's identity, and what it keeps requested outside the
Pulumi state. Each reads the cluster model of the revision being planned (`plan --against` plans
an older revision with that revision's `clouds/`), so a field or module it predates gives the
empty answer."""

from __future__ import annotations

import importlib
from typing import Any

from clouds.healing import healing


def healing_line(cluster: Any) -> str:
    """What the cluster does when a node is lost: its managed platform's answer for a pool
    stack (`clouds.platforms.Platform.note`), else its cloud's (`clouds.healing`)."""
    name = getattr(cluster, "platform", None)  # an older revision's cluster model has none
    if name:
        from clouds.platform_lookup import find

        platform = find(cluster.provider, name)
        if platform is not None:
            return platform.note()
    queued, kms, flex = (getattr(cluster, key, None) for key in ("queued_resource", "kms_key_id", "flex_start"))
    return healing(cluster.provider, cluster.instance_type, bool(queued), cluster.purchase, kms, bool(flex)).summary


def job_summary(cluster: Any) -> dict[str, Any] | None:
    """The job's identity digest, node counts and platform (`vm` or the managed platform that
    runs it), or None (no job, or an older revision)."""
    try:
        from clouds.job_bootstrap import job_identity

        if cluster.job is None:
            return None
        return {
            "id": job_identity(cluster),
            "nodes": cluster.nodes,
            "min_nodes": cluster.job.min_nodes or cluster.nodes,
            "platform": getattr(cluster, "platform", None) or "vm",
        }
    except (AttributeError, ImportError, ValueError):
        return None


def runtime_line(cluster: Any) -> str:
    """`clouds.job_runtime.runtime_line`, or "" for an older revision (`plan --against` plans
    with that revision's `clouds/`, which may predate the module or the cluster's fields)."""
    try:
        from clouds.job_runtime import runtime_line

        return runtime_line(cluster) or ""
    except (AttributeError, ImportError):
        return ""


def requested_outside(cluster: Any, stack: str) -> tuple[str, ...]:
    """The ids of what the stack's own controller keeps requested outside the Pulumi state,
    which `pulumi up` never deletes: the slices of a `queued_resource: true` stack (GCP TPU
    queued resources `{stack}-tpu-0` ...), named by `queued_resource_ids` in the module of the
    cloud's `Cloud.queued_resource` rule (`clouds.gcp.queued`); () otherwise or for an older
    revision's cluster model."""
    try:
        from clouds.registry import CLOUDS

        rule = getattr(CLOUDS.get(cluster.provider), "queued_resource", None)  # an older `Cloud` may lack it
        if rule is None or not getattr(cluster, "queued_resource", False):
            return ()
        module = importlib.import_module(rule.split(":")[0])
        return tuple(module.queued_resource_ids(stack, cluster.nodes))
    except (AttributeError, ImportError, TypeError):  # an older revision's clouds/
        return ()


def requested_spec(cluster: Any, stack: str) -> str:
    """What the stack's controller requests each of `requested_outside`'s ids as: the type and
    purchase option (and the reservation it consumes), e.g. `tpu-v5p-32 spot`; "" when it
    requests nothing. A controller keeps a running request as it is (`nodeagent.gcp_queued`:
    ACTIVE is kept), so the review compares this to say a change does not reach them."""
    if not requested_outside(cluster, stack):
        return ""
    reservation = getattr(cluster, "reservation", None)
    held = f" on reservation {reservation.id}" if reservation is not None else ""
    return f"{cluster.instance_type} {cluster.purchase}{held}"
