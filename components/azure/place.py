"""Where every Azure child of one cluster goes and what it carries (`Place`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pulumi


@dataclass(frozen=True)
class Place:
    """What every Azure child of one cluster shares.

    Attributes:
        name: the cluster name; every child's logical name starts with it (`{name}-nsg`).
        region: the Azure region (each child's `location`).
        zones: `layout.placement_zones(...)`: the zone the zonal children go in (the file
            system's, when there is one), or None.
        resource_group_name: the cluster's resource group.
        tags: the cluster's tags (subnets and role assignments take none).
        opts: child options (`parent=` the component).
    """

    name: str
    region: str
    zones: list[str] | None
    resource_group_name: pulumi.Input[str]
    tags: dict[str, str]
    opts: pulumi.ResourceOptions

    def located(self) -> dict[str, Any]:
        """The inputs every tagged, regional child takes: resource group, location and tags."""
        return {"resource_group_name": self.resource_group_name, "location": self.region, "tags": self.tags}

    def options(self, **extra: Any) -> pulumi.ResourceOptions:
        """The child options with `extra` resource options merged in (`protect=True` ...)."""
        return pulumi.ResourceOptions.merge(self.opts, pulumi.ResourceOptions(**extra))
