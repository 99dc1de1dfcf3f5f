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
    def region(self) -> str: ...
    @property
    def interconnect(self) -> str: ...
    @property
    def purchase(self) -> str: ...
    @property
    def reservation(self) -> object | None: ...
    @property
    def fallback_types(self) -> tuple[str, ...]: ...
    @property
    def fallback_zones(self) -> tuple[str, ...]: ...
    @property
    def zone(self) -> str: ...
    @property
    def file_system(self) -> object | None: ...
    @property
    def subnet_id(self) -> str | None: ...
    @property
    def on_demand_after_minutes(self) -> int | None: ...
    @property
    def on_demand_nodes(self) -> int | None: ...
    @property
    def block_nodes(self) -> int | None: ...
    @property
    def flex_start(self) -> bool: ...
    @property
    def hours(self) -> float: ...
    @property
    def nodes(self) -> int: ...
    @property
    def job(self) -> object | None: ...


# Most types one group lists: AWS takes up to 40 launch-template overrides (EC2 Auto Scaling
# API, LaunchTemplate.Overrides "maximum of 40 items"); a choice below every cloud's limit.
MAX_FALLBACK_TYPES = 9
# Most further zones a group spans: a choice (a region has 3 to 6 zones).
MAX_FALLBACK_ZONES = 5


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
        if config.reservation is not None and config.block_nodes is None:  # beside a block: the mixed group's
            kind = getattr(config.reservation, "kind", "")
            cloud = CLOUDS.get(config.provider)
            if cloud is None or kind not in cloud.group_reservations:
                return (
                    f"fallback_types: nodes launched into a {kind.replace('-', ' ')} take its one instance type in "
                    "this cloud's group; remove fallback_types or the reservation"
                )
        for other in types:
            problem = group_type_problem(config.provider, config.instance_type, other, config.interconnect)
            if problem:
                return f"fallback_types: {other} cannot share the node group with {config.instance_type}: {problem}; remove it"
    if config.block_nodes is not None and (problem := block_problem(config)):
        return problem
    if config.fallback_zones and (problem := zones_problem(config)):
        return problem
    if config.on_demand_nodes is not None and (problem := mix_problem(config)):
        return problem
    if config.flex_start:
        cloud = CLOUDS.get(config.provider)
        if cloud is None or cloud.flex_start is None:
            return f"flex_start: {cloud.display_name if cloud else config.provider} has no flex-start; remove it"
        return load(cloud.flex_start)(config)  # type: ignore[no-any-return]
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


def zones_problem(config: StackFields) -> str | None:
    """Why the node group cannot span the stack's `fallback_zones`, or None.

    Only a cluster that needs no placement group spreads over zones: no RDMA fabric (a cluster
    placement group, InfiniBand or GPUDirect network keeps nodes in one zone), no file system
    (every cloud's is zonal: nodes in another zone would cross zones for every read), no
    reservation (held in one zone) and no existing subnet (in one zone)."""
    zones = config.fallback_zones
    cloud = CLOUDS.get(config.provider)
    if cloud is None or not cloud.zone_group:
        name = cloud.display_name if cloud else config.provider
        return f"fallback_zones: {name}'s node group stays in one zone; remove fallback_zones"
    from clouds.healing import per_node_reason  # the same rule the component asks

    if why := per_node_reason(config.provider, config.instance_type, config.purchase):
        return (
            f"fallback_zones: the nodes are per-node instances in one zone, not a group ({why}); remove fallback_zones"
        )
    if len(set(zones)) != len(zones) or config.zone in zones:
        return f"fallback_zones: list each zone once, without zone ({config.zone})"
    if len(zones) > MAX_FALLBACK_ZONES:
        return f"fallback_zones: {len(zones)} given; list at most {MAX_FALLBACK_ZONES}, best first"
    for field, why in (
        ("interconnect", "an RDMA cluster stays in one placement group, in one zone"),
        ("file_system", "the file system is in one zone"),
        ("reservation", "the reservation is in one zone"),
        ("subnet_id", "the existing subnet is in one zone"),
    ):
        value = getattr(config, field)
        if value is not None and value != "none":
            fix = "set interconnect: none" if field == "interconnect" else f"remove {field}"
            return f"fallback_zones: {why}; remove fallback_zones or {fix}"
    return None


def mix_problem(config: StackFields) -> str | None:
    """Why the node group cannot keep the stack's `on_demand_nodes` on-demand beside spot, or None."""
    kept = config.on_demand_nodes
    if config.purchase != "spot":
        return "on_demand_nodes: only a spot cluster keeps some nodes on-demand; remove it or set purchase: spot"
    if kept is not None and kept >= config.nodes:
        return f"on_demand_nodes: {kept} of {config.nodes} nodes is every node; set purchase: on-demand instead"
    cloud = CLOUDS.get(config.provider)
    if cloud is None or cloud.on_demand_base is None:
        name = cloud.display_name if cloud else config.provider
        return f"on_demand_nodes: {name}'s node group holds one purchase option; remove on_demand_nodes"
    problem = load(cloud.on_demand_base)(config.instance_type, config.interconnect)
    return f"on_demand_nodes: {problem}; remove on_demand_nodes" if problem else None


def block_problem(config: StackFields) -> str | None:
    """Why `block_nodes` cannot split the cluster into a Capacity Block's own group and a mixed
    group beside it (an Auto Scaling group on a block takes no mixed instances policy: EC2 Auto
    Scaling, "Use Capacity Blocks for ML workloads"), or None."""
    reservation = config.reservation
    if reservation is None or getattr(reservation, "kind", "") != "capacity-block":
        return (
            "block_nodes: only a Capacity Block gets a node group of its own beside the mixed one; "
            "set reservation: {kind: capacity-block, id: cr-...} or remove block_nodes"
        )
    blocks, nodes = config.block_nodes or 0, config.nodes
    if blocks >= nodes:
        return (
            f"block_nodes: {blocks} of {nodes} nodes leaves none for the group beside the block; set block_nodes "
            "below nodes, or remove it to run every node in the block"
        )
    held = getattr(reservation, "nodes", None)
    if held is not None and blocks > held:
        return f"block_nodes: {blocks} is more than the {held} instances the block holds (reservation.nodes); set block_nodes: {held} or less"
    return None


def flex_note(config: StackFields) -> str | None:
    """The price line of a flex-start stack (the cloud's `flex_caveat`, beside its
    `Cloud.flex_start` check), or None."""
    module = _flex_module(config.provider)
    if not config.flex_start or module is None:
        return None
    return load(f"{module}:flex_caveat")(config)  # type: ignore[no-any-return]


def _flex_module(provider: str) -> str | None:
    """The module of the cloud's flex-start rules (`Cloud.flex_start`), or None without one."""
    cloud = CLOUDS.get(provider)
    return None if cloud is None or cloud.flex_start is None else cloud.flex_start.split(":", 1)[0]


def flex_offer(
    provider: str,
    instance_type: str,
    region: str,
    gpus: int,
    vcpus: float | None,
    memory_gib: float | None,
    on_demand: float | None,
    hours: float,
) -> tuple[float, str] | str | None:
    """A flex-start row for one node type and a run of `hours`: (USD/hour per node, the row's
    note) from the cloud's `flex_row`; a string saying why the run cannot be bought that way
    (longer than one request runs); None where the cloud or type has no flex-start."""
    module = _flex_module(provider)
    if module is None:
        return None
    return load(f"{module}:flex_row")(  # type: ignore[no-any-return]
        instance_type, region, gpus, vcpus, memory_gib, on_demand, hours
    )


def flex_node_price(
    provider: str,
    instance_type: str,
    region: str,
    gpus: int,
    vcpus: float | None,
    memory_gib: float | None,
    on_demand: float | None,
) -> float | None:
    """One flex-start node's USD/hour (the cloud's `flex_price`), or None without flex-start."""
    module = _flex_module(provider)
    found = (
        None
        if module is None
        else load(f"{module}:flex_price")(instance_type, region, gpus, vcpus, memory_gib, on_demand)
    )
    return None if found is None else found[0]
