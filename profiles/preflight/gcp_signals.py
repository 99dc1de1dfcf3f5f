"""GCP capacity signals for `trainstack check` (`profiles.preflight.signals`): the project's
reservations of the stack's machine types in its zone, through the Compute Engine REST API
(`profiles.preflight.gcp_api`; `reservations.list`, whose `specificReservation` gives `count`
VMs of `instanceProperties.machineType`, `inUseCount` of them in use).

A reservation is capacity held for the project: free VMs in one (count - inUseCount, status
READY) can be had whatever the zone's stock. Flex-start (Dynamic Workload Scheduler) publishes
no availability answer before a request is made, so no signal is read for it; the Compute
Engine `advice.calendarMode` API advises future reservations in calendar mode, not flex-start.
A flex-start stack gets one line saying so; `trainstack status` reads its request's state.
Cloud TPU slices have their own reservations and are not read here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clouds.contract import ClusterConfig
from clouds.gcp.tpu import is_tpu
from profiles.preflight.finding import Finding, PreflightError

CHECK = "reservations"


def reservation_finding(cluster: ClusterConfig, items: list[dict[str, Any]]) -> Finding:
    """The reservations.list items read for the stack's machine types."""
    types = (cluster.instance_type, *cluster.fallback_types)
    free: list[str] = []
    for item in items:
        specific = item.get("specificReservation") or {}
        machine = (specific.get("instanceProperties") or {}).get("machineType", "")
        if machine not in types or item.get("status", "READY") != "READY":
            continue
        left = int(specific.get("count", 0)) - int(specific.get("inUseCount", 0))
        targeted = ", targeted only" if item.get("specificReservationRequired") else ""
        free.append(f"{item.get('name')} ({left} of {specific.get('count', 0)} {machine} free{targeted})")
    where = f"{', '.join(types)} in {cluster.zone}"
    if not free:
        return Finding(
            CHECK,
            "info",
            f"{where}: the project holds no reservation; the nodes take the zone's {cluster.purchase} stock",
            "to hold capacity, create a reservation (gcloud compute reservations create) and name it in reservation:",
        )
    return Finding(CHECK, "info", f"{where}: reservations {'; '.join(free)}")


FLEX = "flex-start"


def flex_finding(cluster: ClusterConfig) -> Finding:
    """What can be known of a flex-start stack's capacity before it is deployed: nothing the API
    answers (a flex-start request takes no reservation, so none is read); its state once made."""
    return Finding(
        FLEX,
        "info",
        f"{cluster.instance_type} x{cluster.nodes} in {cluster.zone}: Google publishes no flex-start availability "
        "before a request is made; the resize request waits (ACCEPTED) until every node can be created, with no "
        "documented limit",
        "after `pulumi up`, `trainstack status` reads the request's state and its last failed attempt",
    )


def reads(cluster: ClusterConfig) -> bool:
    """Whether `signals` calls GCP for `cluster`: VMs' reservations; not a TPU slice (its own
    reservations are not read) nor a flex-start stack (it takes none)."""
    return not is_tpu(cluster.instance_type) and not cluster.flex_start


def signals(cluster: ClusterConfig, settings: Mapping[str, Any], session: Any = None) -> list[Finding]:
    """The stack's reservation signal, with the default GCP credentials (`gcp_api`); for a
    flex-start stack, which takes no reservation, what can be known before it asks (`flex_finding`).

    Raises:
        PreflightError: no GCP credentials or project (the live check cannot run: `check`
            exits 1); a call Google refuses is an `unknown` finding instead.
    """
    if is_tpu(cluster.instance_type):
        return []
    if cluster.flex_start:
        return [flex_finding(cluster)]
    from profiles.preflight import gcp_api

    token, project = gcp_api.credentials(settings)
    try:
        items = gcp_api.listed(f"projects/{project}/zones/{cluster.zone}/reservations", token)
    except PreflightError as exc:
        return [Finding(CHECK, "unknown", f"not read: {exc}")]
    return [reservation_finding(cluster, items)]
