"""Where the nodes of an Alibaba cluster go: the deployment-set rule, as a pure function.

Facts from shared/reference-facts/china-clouds.md (official Alibaba deployment-set doc,
alibabacloud.com doc-detail/91258, and the pulumi-alicloud `EcsDeploymentSet` docs):
  section 0 item 2, section 3  **Spot (preemptible) instances cannot be created inside an
      ECS deployment set.** A spot cluster therefore gets no deployment set.
  section 3  strategy `LowLatency`: all instances in one zone inside one network topology
      range, may share a physical host, no high availability, at most 20 instances. Valid
      strategies in pulumi-alicloud 4.0.0: `Availability`, `AvailabilityGroup`, `LowLatency`.
  section 3  the doc's list of families that LowLatency supports shows only g8a/g8y/c8a/c8y/
      r8a/r8y (no GPU family); GPU support must be checked at run time
      (`DescribeDeploymentSetSupportedInstanceTypeFamily`). Unverified here: the first
      `pulumi up` with a GPU type is where Alibaba accepts or rejects it.

This module imports nothing from Pulumi, so the resolver can ask `placement_for(purchase)`.
"""

from __future__ import annotations

from typing import NamedTuple

from clouds.alicloud import CLOUD
from clouds.base import Feature

# Source: china-clouds.md section 0 item 2 and the official deployment-set doc (cloud.yaml).
SPOT_NO_DEPLOYMENT_SET = CLOUD.missing[Feature.SPOT_PLACEMENT]

DEPLOYMENT_SET_STRATEGY = "LowLatency"
LOW_LATENCY_MAX_INSTANCES = 20  # section 3


class Placement(NamedTuple):
    """How the nodes of one cluster are placed.

    Attributes:
        deployment_set: True when the nodes join a deployment set.
        strategy: the deployment-set strategy (`LowLatency`), or None without one.
        max_nodes: most nodes the placement allows, or None for no placement limit.
        reason: one sentence a resolver or a log can show.
    """

    deployment_set: bool
    strategy: str | None
    max_nodes: int | None
    reason: str


def placement_for(purchase: str) -> Placement:
    """The placement of an Alibaba cluster for a purchase option.

    On-demand (pay-as-you-go) nodes join one `LowLatency` deployment set of at most 20
    instances; spot nodes cannot join a deployment set at all (section 0 item 2), so they
    get none and no placement limit.

    Args:
        purchase: `spot` or `on-demand` (`ClusterConfig.purchase`).

    Returns:
        The placement, with a one-sentence reason.

    Raises:
        ValueError: for any other purchase option.
    """
    if purchase == "on-demand":
        return Placement(
            True,
            DEPLOYMENT_SET_STRATEGY,
            LOW_LATENCY_MAX_INSTANCES,
            f"nodes join one {DEPLOYMENT_SET_STRATEGY} deployment set (one zone, one network "
            f"topology range, at most {LOW_LATENCY_MAX_INSTANCES} instances)",
        )
    if purchase == "spot":
        return Placement(False, None, None, SPOT_NO_DEPLOYMENT_SET)
    raise ValueError(f"purchase: '{purchase}' is not known; valid: spot, on-demand")
