"""The GCP side of `nodeagent.fill`: the cluster's two managed instance groups through the
Compute Engine API with the VM's service-account token from the metadata server
(`instanceGroupManagers.get` of each group by name: `currentActions.none` is the number of
running VMs with no action pending; `instanceGroupManagers.resize` of the on-demand one). No
`list`: the watcher's role holds `get` and `update` on these two groups only
(`components.gcp.fill`). Standard library only."""

from __future__ import annotations

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
    `zones/us-central1-a` or `regions/us-central1`): the spot group by its name (`spot_group`,
    Pulumi's auto-name, which the component writes into the fill config) and the on-demand group
    `<cluster>-nodes-on-demand`."""

    project: str
    location: str
    cluster: str
    spot_group: str
    token: Callable[[], str]
    call: Callable[..., Any] = _call

    def _url(self, group: str) -> str:
        return f"{COMPUTE}/projects/{self.project}/{self.location}/instanceGroupManagers/{group}"

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token()}"}

    @property
    def on_demand_group(self) -> str:
        return f"{self.cluster}-nodes-on-demand"

    def sizes(self) -> tuple[int, int]:
        spot = self.call(self._url(self.spot_group), headers=self._headers())
        on_demand = self.call(self._url(self.on_demand_group), headers=self._headers())
        for answer, name in ((spot, self.spot_group), (on_demand, self.on_demand_group)):
            if answer.get("name") != name:
                raise ApiError(404, f"instance group manager {name} not found")
        return gcp_running(spot)[0], gcp_running(on_demand)[1]

    def resize(self, size: int) -> None:
        self.call(f"{self._url(self.on_demand_group)}/resize?size={size}", method="POST", headers=self._headers())


def groups(config: dict) -> GcpGroups:
    """The cluster's groups named in the fill config (`project`, `location`, `cluster`, `spot_group`)."""
    return GcpGroups(config["project"], config["location"], config["cluster"], config["spot_group"], MetadataToken())
