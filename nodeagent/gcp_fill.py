"""The GCP side of `nodeagent.fill`: the cluster's two managed instance groups through the
Compute Engine API with the VM's service-account token from the metadata server
(`instanceGroupManagers.list`: `currentActions.none` is the number of running VMs with no action
pending; `instanceGroupManagers.resize`). Standard library only."""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from nodeagent.gcp_queued import ApiError, MetadataToken, _call

COMPUTE = "https://compute.googleapis.com/compute/v1"


def gcp_running(answer: dict) -> tuple[int, int]:
    """(running VMs with no action pending, target size) of an instanceGroupManagers answer."""
    return int(answer.get("currentActions", {}).get("none", 0)), int(answer.get("targetSize", 0))


@dataclass
class GcpGroups:
    """The cluster's two managed instance groups through the Compute Engine API (`location`:
    `zones/us-central1-a` or `regions/us-central1`): the on-demand group is named
    `<cluster>-nodes-on-demand`, the spot group `<cluster>-nodes-<suffix>` (Pulumi's auto-name)."""

    project: str
    location: str
    cluster: str
    token: Callable[[], str]
    call: Callable[..., Any] = _call

    def _base(self) -> str:
        return f"{COMPUTE}/projects/{self.project}/{self.location}/instanceGroupManagers"

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token()}"}

    def sizes(self) -> tuple[int, int]:
        query = urllib.parse.urlencode({"filter": f'name eq "{self.cluster}-nodes-.*"'})
        items = self.call(f"{self._base()}?{query}", headers=self._headers()).get("items", [])
        on_demand = [item for item in items if item.get("name") == f"{self.cluster}-nodes-on-demand"]
        spot = [item for item in items if item.get("name") != f"{self.cluster}-nodes-on-demand"]
        if len(on_demand) != 1 or len(spot) != 1:
            raise ApiError(404, f"the cluster's spot and on-demand groups were not both found ({len(items)} listed)")
        return gcp_running(spot[0])[0], gcp_running(on_demand[0])[1]

    def resize(self, size: int) -> None:
        url = f"{self._base()}/{self.cluster}-nodes-on-demand/resize?size={size}"
        self.call(url, method="POST", headers=self._headers())


def groups(config: dict) -> GcpGroups:
    """The cluster's groups named in the fill config (`project`, `location`, `cluster`)."""
    return GcpGroups(config["project"], config["location"], config["cluster"], MetadataToken())
