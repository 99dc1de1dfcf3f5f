"""The small always-on VMs a cluster has beside its GPU nodes, which no cost counts.

A `job:` adds an on-demand head node keeping the rendezvous (AWS, Azure, GCP), a GCP stack
with `queued_resource: true` a controller VM re-requesting its TPU slices, and a Volcengine
file system the three ECS instances of its vePFS mount service; each cloud names them in its
`cloud.yaml` (`Cloud.helper_vms`). The price catalog holds GPU types only, so
neither is priced: `resolve`'s rows, the stack header, `plan`, the review and the budget all
leave them out, and each says so with the same line (`helper_lines`). The same goes for the
other resources that bill by the hour (`Cloud.hourly_resources`: NAT gateways, public
addresses), named from the planned resource tree (`unpriced_hourly`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from clouds.registry import CLOUDS

_ROLES = {
    "job": "the job's head node",
    "queued_resource": "the queued-resource controller VM",
    "file_system": "the file system's mount service",
}


def helper_lines(
    provider: str, region: str, job: bool, queued_resource: bool = False, file_system: bool = False
) -> tuple[str, ...]:
    """One line per helper VM the cluster has, naming it as left out of every price.

    Args:
        provider: the cloud.
        region: the cluster's region (where its on-demand price would be looked up).
        job: the cluster runs a `job:` (a head node).
        queued_resource: the stack requests its TPU slices as queued resources (a controller).
        file_system: the cluster has a file system (whose service may run VMs of its own).
    """
    cloud = CLOUDS.get(provider)
    helpers = cloud.helper_vms if cloud is not None else {}
    used = {"job": job, "queued_resource": queued_resource, "file_system": file_system}
    return tuple(
        f"{_ROLES[role]} ({what}, on-demand, always on) is not in USD/hour or USD/job: the catalog "
        f"holds GPU types only; add its on-demand price in {region}"
        for role, what in helpers.items()
        if used.get(role)
    )


def head_tracking_line(data_source: str | None) -> str:
    """What `job.tracking: {mlflow: managed}` on a VM stack adds to the cost (`clouds.mlflow_head`):
    the server runs on the head node the job already has, so no VM; its artifacts bill at the
    bucket's rates, which no cost counts (their volume is the job's, unknown here)."""
    bucket = re.match(r"[a-z0-9]+://[^/]+", data_source or "")
    where = bucket.group(0) if bucket else "the team's bucket"
    return (
        "the MLflow tracking server (job.tracking: managed) runs on the job's head node: it adds no VM and no "
        f"USD/hour; its artifacts (in {where}, prefix trainstack/mlflow/) bill at the bucket's storage and request "
        "rates and are not in USD/job: their volume is the job's"
    )


def _named(kind: str, name: str, token: str) -> str:
    """`NAT gateway s-nat (aws:ec2/natGateway:NatGateway; also billed per GB processed)`: the
    kind's own note (`Cloud.hourly_resources`, in parentheses) after the resource's type."""
    base, _, note = kind.partition(" (")
    return f"{base} {name} ({token}; {note.rstrip(')')})" if note else f"{base} {name} ({token})"


def unpriced_hourly(provider: str, region: str, resources: Iterable[dict]) -> tuple[str, ...]:
    """One line naming the planned resources that bill by the hour but have no recorded price
    (`Cloud.hourly_resources`), or none when the tree has none.

    Args:
        provider: the cloud.
        region: the cluster's region.
        resources: the plan's resources (`type` and `name` read).
    """
    cloud = CLOUDS.get(provider)
    kinds = cloud.hourly_resources if cloud is not None else {}
    order = list(kinds)
    found = sorted((r for r in resources if r.get("type") in kinds), key=lambda r: (order.index(r["type"]), r["name"]))
    named = [_named(kinds[r["type"]], r["name"], r["type"]) for r in found]
    if not named:
        return ()
    return (
        f"{'; '.join(named)} {'bills' if len(named) == 1 else 'bill'} by the hour and "
        f"{'is' if len(named) == 1 else 'are'} not in USD/hour or USD/job: unpriced, no sourced and dated price "
        f"is recorded; add {'its' if len(named) == 1 else 'their'} {region} price from the cloud's pricing page",
    )
