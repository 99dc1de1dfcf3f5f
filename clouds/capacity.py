"""When the cloud has no capacity: which types share a node group, and spot's on-demand fallback.

A stack may list `fallback_types`: further instance types its node group may launch, in rank
order, when the first has no capacity. Each cloud does this with its own multi-type group
feature (`Cloud.group_types` says which types can share the group: AWS mixed instances
policy, GCP instance flexibility, Alibaba's scaling configuration types, Tencent's launch
configuration types), never with a loop of ours; a cloud without one refuses the list.
`on_demand_after_minutes` asks that on-demand capacity of the same shape fill a spot group
that stays below size (`Cloud.spot_fallback` says how; a cloud without one refuses it).

This module imports no Pulumi code (the contract validates with it).
"""

from __future__ import annotations

from typing import Protocol

from clouds.base import load
from clouds.registry import CLOUDS


class StackFields(Protocol):
    """What `capacity_problem` reads of a `clouds.contract.ClusterConfig`, named by shape: the
    contract validates with this module, so this module does not import the contract back."""

    @property
    def provider(self) -> str: ...
    @property
    def instance_type(self) -> str: ...
    @property
    def interconnect(self) -> str: ...
    @property
    def purchase(self) -> str: ...
    @property
    def reservation(self) -> object | None: ...
    @property
    def fallback_types(self) -> tuple[str, ...]: ...
    @property
    def on_demand_after_minutes(self) -> int | None: ...
    @property
    def job(self) -> object | None: ...


# Most types one group lists: AWS takes up to 40 launch-template overrides (EC2 Auto Scaling
# API, LaunchTemplate.Overrides "maximum of 40 items"); a choice below every cloud's limit.
MAX_FALLBACK_TYPES = 9


def group_type_problem(provider: str, instance_type: str, other: str, interconnect: str) -> str | None:
    """Why `other` cannot share `provider`'s node group with `instance_type`, or None when it can."""
    cloud = CLOUDS.get(provider)
    if cloud is None or cloud.group_types is None:
        return f"{cloud.display_name if cloud else provider}'s node group launches one instance type"
    return load(cloud.group_types)(instance_type, other, interconnect)  # type: ignore[no-any-return]


def group_types(provider: str, instance_type: str, ranked: list[str], interconnect: str) -> tuple[str, ...]:
    """The types of `ranked` (rank order, best first) that can share the node group with
    `instance_type`: distinct, not `instance_type` itself, at most `MAX_FALLBACK_TYPES`."""
    kept: list[str] = []
    for other in ranked:
        if other == instance_type or other in kept:
            continue
        if group_type_problem(provider, instance_type, other, interconnect) is None:
            kept.append(other)
    return tuple(kept[:MAX_FALLBACK_TYPES])


def capacity_problem(config: StackFields) -> str | None:
    """Why the stack's `fallback_types` / `on_demand_after_minutes` cannot be built, or None."""
    types = config.fallback_types
    if types:
        if len(set(types)) != len(types) or config.instance_type in types:
            return "fallback_types: list each type once, without instance_type; e.g. fallback_types: [p4de.24xlarge]"
        if len(types) > MAX_FALLBACK_TYPES:
            return f"fallback_types: {len(types)} given; list at most {MAX_FALLBACK_TYPES}, best first"
        if config.reservation is not None:
            return (
                "fallback_types: nodes launched into a reservation take its one instance type; "
                "remove fallback_types or the reservation"
            )
        for other in types:
            problem = group_type_problem(config.provider, config.instance_type, other, config.interconnect)
            if problem:
                return f"fallback_types: {other} cannot share the node group with {config.instance_type}: {problem}; remove it"
    if config.on_demand_after_minutes is not None:
        if config.purchase != "spot":
            return (
                "on_demand_after_minutes: only a spot cluster falls back to on-demand; remove it or set purchase: spot"
            )
        cloud = CLOUDS.get(config.provider)
        if cloud is None or cloud.spot_fallback is None:
            name = cloud.display_name if cloud else config.provider
            return f"on_demand_after_minutes: {name}'s component has no on-demand fallback for spot; remove it"
        if cloud.fill_on_head and config.job is None:
            return (
                "on_demand_after_minutes: the watcher that fills spot from on-demand runs on the job's head node; "
                "add a job or remove on_demand_after_minutes"
            )
    return None
