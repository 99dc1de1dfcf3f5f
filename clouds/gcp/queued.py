"""TPU slices as queued resources, kept requested by a controller in the cluster: the request
body of each slice and the controller's rules (identity, role, machine, back-off).

Why a controller and not a Pulumi resource: pulumi-gcp's `tpu.V2QueuedResource` (checked in
the installed pulumi-gcp 10.2: `tpu.node_specs[].node` takes only `runtime_version`,
`accelerator_type`, `description` and `network_config`) cannot carry the node's service
account, labels, metadata or spot tier; and a Pulumi resource is only re-created by the next
`pulumi up`, so a preempted spot slice (its queued resource goes SUSPENDING -> SUSPENDED)
would stay lost. With `queued_resource: true` the GCP component creates a small on-demand
controller VM that creates each slice's queued resource through the TPU v2 REST API
(`projects.locations.queuedResources` create / get / delete, Google's "Cloud TPU API v2"
reference) and deletes and re-creates one that a preemption or a failure left SUSPENDED or
FAILED, with back-off (`nodeagent.queued`).

Request body (TPU v2 `QueuedResource`): `tpu.nodeSpec[{parent, nodeId, node}]` where `node`
is a v2 `Node` (`acceleratorType`, `runtimeVersion`, `networkConfig`, `serviceAccount
{email, scope}`, `labels`, `metadata`, `schedulingConfig {reserved}`); the tier is `spot: {}`
for spot; a reservation is `reservationName` (`projects/P/locations/ZONE/reservations/NAME`)
with `schedulingConfig.reserved`; on-demand sets no tier. v2's `guaranteed` tier carries only
`minDuration`, so it is not used.

Least privilege: IAM Conditions' resource attributes are not available for
`tpu.googleapis.com` (Google's "Resource attributes for IAM Conditions" lists the services
that have them; Cloud TPU is not among them) and Cloud TPU has no per-resource IAM policy, so
no grant can name this cluster's queued resources: the controller's custom role is granted on
the project. What it may do there is cut to what cannot stop another team's running TPU:
`CONTROLLER_PERMISSIONS` holds the three calls the controller makes (queued resources get,
create, delete) and the node permissions a create needs, but not `tpu.nodes.delete`, nor
`list`. The controller deletes without `force`, which the API refuses while a queued
resource's node runs ("If set to true, all running nodes belonging to this queued resource will
be deleted first ... Otherwise ... only deleted if its nodes have already been deleted or the
queued resource is in the ACCEPTED, FAILED, or SUSPENDED state", TPU v2 REST reference,
`queuedResources.delete`); without `tpu.nodes.delete` a `force` delete of another node, or a
direct node delete, is refused too (that a forced delete needs the caller's `tpu.nodes.delete`
is an assumption: Google does not list the permissions a forced delete checks). So within the
project the controller can request slices and remove requests that hold no running node, and
nothing else; it may act as the node service account only (`roles/iam.serviceAccountUser` on
that one account), and it only ever names the ids `queued_resource_ids` gives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from clouds.gcp.tpu import is_tpu

# TPU v2 permissions the controller needs: its three calls (`nodeagent.gcp_queued.TpuApi`), and
# the node creation the service performs for a queued resource on the caller's behalf. Never
# `tpu.nodes.delete` (it would let the controller stop any running TPU in the project) or
# `list`; the controller follows each slice by id and waits on its state, not on operations.
CONTROLLER_PERMISSIONS = (
    "tpu.queuedResources.create",
    "tpu.queuedResources.get",
    "tpu.queuedResources.delete",
    "tpu.nodes.create",
    "tpu.nodes.get",
)
# Permissions the controller's role must never hold (checked by the tests against the role).
NEVER_GRANTED = ("tpu.nodes.delete", "tpu.nodes.update", "tpu.queuedResources.reset")
CONTROLLER_SCOPES = ("https://www.googleapis.com/auth/cloud-platform",)  # the TPU API's scope
# A choice, not a sourced figure: e2-small (2 shared vCPU, 2 GiB) runs one polling loop.
CONTROLLER_MACHINE_TYPE = "e2-small"
CONTROLLER_IMAGE = "projects/debian-cloud/global/images/family/debian-12"  # has python3
# Choices, not sourced figures: poll every 30 s; re-request after 30 s, doubling to 10 min.
POLL_SECONDS = 30
BACKOFF_SECONDS = (30.0, 600.0)

# The spot estimate's hours per interruption are the manual restart (`clouds.lost_node.
# MANUAL_RESTART_HOURS`, clouds/gcp/cloud.yaml): the controller brings the slice back, but
# training on it is restarted by hand (TPU slices get no node agent).


def requests_queued(instance_type: str, purchase: str) -> bool:
    """Whether `resolve` writes `queued_resource: true` for this pick: spot TPU slices, the
    ones a preemption takes away (on-demand slices are not preempted; a stack may still set it)."""
    return is_tpu(instance_type) and purchase == "spot"


def queued_resource_ids(name: str, nodes: int) -> list[str]:
    """Queued resource (and node) ids of the slices: `{name}-tpu-0` ... `{name}-tpu-{n-1}`."""
    return [f"{name}-tpu-{i}" for i in range(nodes)]


def controller_role_id(name: str) -> str:
    """The custom role id of the cluster's controller (letters, digits, `_`, 3-64 chars)."""
    clean = "".join(c if c.isalnum() else "_" for c in name)
    return f"trainstack_{clean}_queued"[:64]


def queued_resource_body(
    resource_id: str,
    project: str,
    zone: str,
    accelerator_type: str,
    runtime_version: str,
    network: str,
    subnetwork: str,
    service_account: str,
    scopes: Sequence[str],
    labels: Mapping[str, str],
    metadata: Mapping[str, str],
    purchase: str,
    reservation: str | None,
) -> dict[str, Any]:
    """The TPU v2 `QueuedResource` body of one slice (`queuedResources.create`).

    The queued resource and its one node share `resource_id`.

    Args:
        resource_id: queued resource id and node id (`train-tpu-0`).
        project: project id; zone: the slice's zone (`us-east5-a`).
        accelerator_type: TPU API type (`v5p-8`); runtime_version: `v2-alpha-tpuv5`.
        network: VPC network name; subnetwork: its subnet name (internal IPs only).
        service_account: the node service account's email; scopes: its OAuth scopes.
        labels: the cluster's labels; metadata: the node's metadata.
        purchase: `spot` (the spot tier) or `on-demand`.
        reservation: a reservation name to consume, or None.

    Raises:
        ValueError: a reservation with `purchase: spot` (a reservation holds on-demand capacity).
    """
    if reservation and purchase == "spot":
        raise ValueError("reservation: a reservation holds on-demand capacity, never spot; set purchase: on-demand")
    node: dict[str, Any] = {
        "acceleratorType": accelerator_type,
        "runtimeVersion": runtime_version,
        "networkConfig": {"network": network, "subnetwork": subnetwork, "enableExternalIps": False},
        "serviceAccount": {"email": service_account, "scope": list(scopes)},
        "labels": dict(labels),
        "metadata": dict(metadata),
    }
    parent = f"projects/{project}/locations/{zone}"
    body: dict[str, Any] = {"tpu": {"nodeSpec": [{"parent": parent, "nodeId": resource_id, "node": node}]}}
    if purchase == "spot":
        body["spot"] = {}
    elif reservation:
        node["schedulingConfig"] = {"reserved": True}
        body["reservationName"] = f"{parent}/reservations/{reservation}"
    return body


def controller_config(
    project: str, zone: str, bodies: Mapping[str, Mapping[str, Any]], api: str = "https://tpu.googleapis.com/v2"
) -> dict[str, Any]:
    """The controller's config file (`nodeagent.queued.ControllerConfig` fields, JSON-ready).

    Args:
        project: project id; zone: the slices' zone.
        bodies: queued resource id -> its `queued_resource_body`.
        api: the TPU API's base URL.
    """
    return {
        "api": api,
        "parent": f"projects/{project}/locations/{zone}",
        "resources": {key: dict(value) for key, value in bodies.items()},
        "poll_seconds": POLL_SECONDS,
        "backoff_seconds": list(BACKOFF_SECONDS),
    }
