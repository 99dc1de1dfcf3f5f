"""Where the nodes of an Alibaba cluster go, as a pure function.

The nodes are an ESS scaling group (`components/alicloud/scaling.py`), and neither
`ess.ScalingGroup` nor `ess.ScalingConfiguration` of pulumi-alicloud 4.0.0 takes a deployment
set, so no node joins one: they sit in the zone of the cluster's one vSwitch. Facts from
shared/reference-facts/china-clouds.md (official Alibaba deployment-set doc, alibabacloud.com
doc-detail/91258):
  section 0 item 2, section 3  spot (preemptible) instances cannot be created inside an ECS
      deployment set at all.
  section 3  a `LowLatency` set (one zone, one network topology range, at most 20 instances)
      lists no GPU family among the families it supports, so what on-demand GPU nodes lose
      without it is unverified.
An ESS group holds at most 2,000 instances (`GROUP_MAX_NODES`).

This module imports nothing from Pulumi, so the resolver can ask `placement_for(purchase)`.
"""

from __future__ import annotations

from typing import NamedTuple

from clouds.alicloud import CLOUD
from clouds.base import Feature
from clouds.common import check_group_size

# Source: china-clouds.md section 0 item 2 and the official deployment-set doc (cloud.yaml).
SPOT_NO_DEPLOYMENT_SET = CLOUD.missing[Feature.SPOT_PLACEMENT]
# Source: pulumi-alicloud 4.0.0 `ess.ScalingGroup` / `ess.ScalingConfiguration` (no input names one).
GROUP_NO_DEPLOYMENT_SET = (
    "the nodes are an ESS scaling group, and pulumi-alicloud 4.0.0's ESS scaling group and scaling "
    "configuration take no deployment set, so no node joins a LowLatency deployment set"
)

# ess.ScalingGroup min_size/max_size/desired_capacity IntBetween(0, 2000): terraform-provider-alicloud
# resource_alicloud_ess_scaling_group.go at 08e0c70 (bridged by pulumi-alicloud).
GROUP_MAX_NODES = 2000


class Placement(NamedTuple):
    """How the nodes of one cluster are placed.

    Attributes:
        deployment_set: True when the nodes join a deployment set (never, with the group).
        strategy: the deployment-set strategy, or None without one.
        max_nodes: most nodes the placement allows.
        reason: one sentence a resolver or a log can show.
    """

    deployment_set: bool
    strategy: str | None
    max_nodes: int
    reason: str


def placement_for(purchase: str) -> Placement:
    """The placement of an Alibaba cluster's node group for a purchase option.

    Args:
        purchase: `spot` or `on-demand` (`ClusterConfig.purchase`).

    Returns:
        No deployment set, at most 2,000 nodes, with the reason: spot instances cannot join
        one (section 0 item 2); the group takes none (pulumi-alicloud 4.0.0).

    Raises:
        ValueError: for any other purchase option.
    """
    if purchase == "on-demand":
        return Placement(False, None, GROUP_MAX_NODES, GROUP_NO_DEPLOYMENT_SET)
    if purchase == "spot":
        return Placement(False, None, GROUP_MAX_NODES, f"{SPOT_NO_DEPLOYMENT_SET}; {GROUP_NO_DEPLOYMENT_SET}")
    raise ValueError(f"purchase: '{purchase}' is not known; valid: spot, on-demand")


def placement_warning(purchase: str, nodes: int) -> str | None:
    """What the plan warns about the nodes' placement: `placement_for(purchase).reason` for a
    cluster of several nodes, None for one node (no node-to-node traffic that a LowLatency
    deployment set could shorten, so its absence costs nothing)."""
    return placement_for(purchase).reason if nodes > 1 else None


def check_nodes(nodes: int, purchase: str) -> None:
    """Refuse more nodes than the placement of `purchase` allows (`clouds.common.check_group_size`).

    Raises:
        ValueError: one line naming `nodes`, the ESS group's limit and the fix.
    """
    check_group_size(nodes, placement_for(purchase).max_nodes, "an ESS scaling group")
