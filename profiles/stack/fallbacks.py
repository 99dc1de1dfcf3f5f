"""What a stack can fall back to when its cloud has no capacity for the pick.

Two lists come from the resolver's ranked candidates, both in rank order:

- `group_fallback_types`: further instance types the pick's node group itself may launch
  (the stack's `fallback_types`): the same cloud, region, zone, purchase, node count,
  accelerator count and fabric, and types the cloud's group can hold together
  (`clouds.capacity.group_types`). The cloud switches between them with no `pulumi up`.
- `fallback_rows`: the next offerings the stack can move to (the stack's
  `trainstack:fallbacks`, walked by `trainstack up`): the same cloud and region by default,
  each priced like the pick (compute USD/hour and the job's USD at its own hours). A stack with
  a file system keeps to its zone: a move to another zone would replace the file system and
  the data on it (every cloud's file system is zonal), which no fallback does.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from clouds.capacity import MAX_FALLBACK_ZONES, StackFields, group_types, zones_problem
from clouds.platforms import VM
from profiles.candidate import Candidate

# How many fallback rows a stack records: a choice (the walk is bounded by it).
MAX_FALLBACK_ROWS = 4
# A further zone of the group costs at most this much more per hour than the pick's: EC2 Auto
# Scaling balances a group's nodes across its zones, so the zones' prices mix (a choice).
ZONE_PRICE_MARGIN = 0.05


def _group_key(c: Candidate) -> tuple:
    o = c.offering
    return (o.provider, o.region, o.zone, c.purchase, c.nodes, o.accelerator_count, bool(o.rdma))


def group_fallback_types(choice: Candidate, ranked: Iterable[Candidate], interconnect: str) -> tuple[str, ...]:
    """The types of `ranked` (rank order) the pick's node group may also launch, best first; none
    for a flex-start pick (one resize request creates one machine type: `clouds.capacity`) or a
    managed platform's row (an AmlCompute size, a HyperPod instance group, a training job's
    instance type: one type, no node group of ours)."""
    if choice.purchase == "flex-start" or choice.offering.platform != VM:
        return ()
    key = _group_key(choice)
    same = [c.offering.instance_type for c in ranked if _group_key(c) == key]
    o = choice.offering
    return group_types(o.provider, o.instance_type, same, interconnect if o.rdma else "none")


def fallback_rows(
    choice: Candidate,
    ranked: Iterable[Candidate],
    interconnect: str,
    has_file_system: bool,
    any_region: bool = False,
    most: int = MAX_FALLBACK_ROWS,
) -> list[dict[str, Any]]:
    """The next distinct offerings after `choice`, as the stack's `trainstack:fallbacks` rows.

    Args:
        choice: the pick.
        ranked: every candidate, rank order.
        interconnect: the workload's fabric (`rdma` or `none`).
        has_file_system: the stack has a file system: only rows in the pick's zone (a zone move
            would replace it).
        any_region: also rows in other regions of the same cloud.
        most: rows kept.

    Returns:
        Dicts of the cluster fields a move changes (`instance_type`, `zone`, `purchase`,
        `nodes`, `accelerator`, `accelerator_count`, `interconnect`, `usd_per_hour`, `hours`,
        `fallback_types`) plus `region` and `usd_job`.
    """
    o = choice.offering
    seen = {(o.region, o.zone, o.instance_type, choice.purchase)}
    kept_types = set(group_fallback_types(choice, ranked, interconnect))
    rows: list[dict[str, Any]] = []
    listed = list(ranked)
    for c in listed:
        r = c.offering
        key = (r.region, r.zone, r.instance_type, c.purchase)
        if r.provider != o.provider or (r.region != o.region and not any_region) or key in seen:
            continue
        if has_file_system and (r.region, r.zone) != (o.region, o.zone):
            continue
        seen.add(key)
        # a type the pick's own group already falls back to, in the same zone and purchase, is no move
        if r.zone == o.zone and c.purchase == choice.purchase and r.instance_type in kept_types:
            continue
        if c.purchase not in ("spot", "on-demand"):
            continue  # reserved terms and held capacity are decisions, not fallbacks
        types = list(group_fallback_types(c, listed, interconnect))
        rows.append(
            {
                "region": r.region,
                "zone": r.zone,
                "instance_type": r.instance_type,
                "accelerator": r.accelerator,
                "accelerator_count": r.accelerator_count,
                "nodes": c.nodes,
                "purchase": c.purchase,
                "interconnect": interconnect if r.rdma else "none",
                "usd_per_hour": round(c.usd_per_hour, 6),
                "hours": c.hours,
                "usd_job": round(c.usd_total, 2),
                **({"fallback_types": types} if types else {}),
            }
        )
        if len(rows) >= most:
            break
    return rows


def roomiest_copy(
    choice: Candidate, also_zones: tuple[str, ...], ranked: tuple[Candidate, ...], interconnect: str
) -> Candidate:
    """Of the pick and its zone copies (the same offering at the same cost in `also_zones`),
    the one whose node group can fall back to the most types (the first such in rank order):
    at equal cost, the zone with more capacity to draw on."""
    copies = [choice] + [
        c
        for c in ranked
        if c.offering.zone in also_zones
        and (c.offering.instance_type, c.offering.region, c.purchase, c.nodes, round(c.usd_total, 2))
        == (
            choice.offering.instance_type,
            choice.offering.region,
            choice.purchase,
            choice.nodes,
            round(choice.usd_total, 2),
        )
    ]
    return max(copies, key=lambda c: len(group_fallback_types(c, ranked, interconnect)))


def group_fallback_zones(choice: Candidate, ranked: Iterable[Candidate], config: StackFields) -> tuple[str, ...]:
    """The further zones (rank order) the pick's group may also launch in: zones of its region
    selling the same type, purchase and node count within `ZONE_PRICE_MARGIN` of the pick's
    USD/hour, for a stack whose group may span zones (`clouds.capacity.zones_problem`: no
    placement group, file system or reservation); () otherwise."""
    o = choice.offering
    same = (o.provider, o.region, o.instance_type, choice.purchase, choice.nodes)
    zones: list[str] = []
    for c in ranked:
        r = c.offering
        if (r.provider, r.region, r.instance_type, c.purchase, c.nodes) != same or r.zone in (o.zone, *zones):
            continue
        if c.usd_per_hour <= choice.usd_per_hour * (1 + ZONE_PRICE_MARGIN):
            zones.append(r.zone)
    kept = tuple(zones[:MAX_FALLBACK_ZONES])
    if not kept or zones_problem(_with_zones(config, kept)) is not None:
        return ()
    return kept


def _with_zones(config: Any, zones: tuple[str, ...]) -> Any:
    return config.model_copy(update={"fallback_zones": zones})


def fallback_reason(choice: Candidate, ranked: Iterable[Candidate], interconnect: str) -> str:
    """`; its group also launches p5en.48xlarge ($X per job in Y h on the last)` for a row whose
    node group has fallback types (`group_fallback_types` of `ranked`: pass only the rows a
    fallback may take, `Resolution.movable`), the job's cost and hours on the last of them being
    that type's own row; "" without any."""
    listed = list(ranked)
    types = group_fallback_types(choice, listed, interconnect)
    if not types:
        return ""
    key = _group_key(choice)
    last = next((c for c in listed if _group_key(c) == key and c.offering.instance_type == types[-1]), None)
    cost = f" (${last.usd_total:,.2f} per job in {last.hours:,.1f} h on the last)" if last is not None else ""
    return f"; its group also launches {', '.join(types)}{cost}"
