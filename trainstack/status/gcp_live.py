"""The live answers `trainstack status` reads on GCP, through the Compute Engine REST API
(`profiles.preflight.gcp_api`): the cluster's managed instance groups and each one's
`listErrors` (the instance errors the group records while it keeps trying to create VMs;
"Viewing errors in MIGs", Compute Engine API v1 `instanceGroupManagers.listErrors`).

The groups are found by name: Pulumi names the node group `{cluster}-nodes-<7 random
characters>` and the spot cluster's on-demand side `{cluster}-nodes-on-demand`
(`components.gcp.nodes`); a MIG carries no labels to filter on. A cluster with
`fallback_types` has regional groups (kept to its zone), the others zonal ones. A flex-start
group (`flex_start: true`) starts empty and gets its nodes from one MIG resize request
(`clouds.gcp.flex_start`): its requests are read too (`instanceGroupManagerResizeRequests.list`),
each one's state saying whether it still waits for capacity.

TPU slices kept as queued resources (`queued_resource: true`) are read one by one by their ids
(`clouds.gcp.queued.queued_resource_ids`) from the Cloud TPU API v2 (`queuedResources.get`):
each is one node, running when ACTIVE, waiting for capacity in WAITING_FOR_RESOURCES.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from clouds.contract import ClusterConfig
from clouds.gcp.queued import queued_resource_ids
from clouds.gcp.tpu import is_tpu
from trainstack.status.read import GroupStatus, gcp_group, gcp_resize_request, tpu_slice


def is_node_group(cluster: str, group: str) -> bool:
    """Whether `group` is a node group name of `cluster` (not `cluster2-nodes-...`)."""
    return re.fullmatch(rf"{re.escape(cluster)}-nodes(-on-demand)?(-[a-z0-9]{{7}})?", group) is not None


def scope(cluster: ClusterConfig, project: str) -> str:
    """`projects/P/zones/Z` for zonal groups, `projects/P/regions/R` for regional ones."""
    if cluster.fallback_types:
        return f"projects/{project}/regions/{cluster.region}"
    return f"projects/{project}/zones/{cluster.zone}"


def groups_status(get: Any, where: str, name: str, provider: str, flex_start: bool = False) -> list[GroupStatus]:
    """The cluster's groups in `where` (a `scope`), in name order, each followed by its resize
    requests when the cluster is a flex-start one.

    Args:
        get: `(path) -> JSON answer` (a list's items on every page: `gcp_api.listed`).
    """
    managers = [m for m in get(f"{where}/instanceGroupManagers") if is_node_group(name, m.get("name", ""))]
    found = []
    for manager in sorted(managers, key=lambda m: m["name"]):
        path = f"{where}/instanceGroupManagers/{manager['name']}"
        found.append(gcp_group(manager, {"items": get(f"{path}/listErrors")}, provider))
        if flex_start:
            requests = sorted(get(f"{path}/resizeRequests"), key=lambda r: r.get("creationTimestamp", ""))
            found += [gcp_resize_request(request, provider) for request in requests]
    return found


def slices_status(get: Any, project: str, cluster: ClusterConfig, name: str) -> list[GroupStatus]:
    """The cluster's TPU slices (queued resources), in id order.

    Args:
        get: `(path) -> JSON answer or None when not found`, on the Cloud TPU API v2.
    """
    where = f"projects/{project}/locations/{cluster.zone}/queuedResources"
    return [
        tpu_slice(resource_id, get(f"{where}/{resource_id}"), cluster.provider)
        for resource_id in queued_resource_ids(name, cluster.nodes)
    ]


def status(cluster: ClusterConfig, name: str, settings: Mapping[str, Any]) -> list[GroupStatus]:
    """The stack `name`'s groups (or TPU slices), with the default credentials (`gcp_api.credentials`)."""
    from profiles.preflight import gcp_api
    from profiles.preflight.finding import PreflightError

    token, project = gcp_api.credentials(settings)
    if is_tpu(cluster.instance_type):
        if not cluster.queued_resource:
            raise PreflightError("TPU nodes without queued_resource are not read live yet")

        def tpu(path: str) -> Any:
            try:
                return gcp_api.get(path, token, base=gcp_api.TPU)
            except PreflightError as exc:
                if "(404)" in str(exc):
                    return None
                raise

        return slices_status(tpu, project, cluster, name)
    where = scope(cluster, project)
    return groups_status(lambda path: gcp_api.listed(path, token), where, name, cluster.provider, cluster.flex_start)
