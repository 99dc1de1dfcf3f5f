"""Move a stack to one of its fallback rows, through the same writer `resolve --write-stack` uses.

The row (`profiles.stack.fallbacks.fallback_rows`) replaces the fields that say what runs where
(instance type, zone, purchase, nodes, price, ...); every other setting of the stack stays,
and the file keeps its other keys. The rewritten file is rendered by
`profiles.stack.writer.render_stack`, so its header states the new cost, and the move reports
what changed and the cost before and after. A move to another zone or region of a stack with
a file system is refused: it would replace the file system and the data on it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, NamedTuple

from clouds.config import CONFIG_KEY, parse_cluster_config
from clouds.contract import ClusterConfig
from clouds.healing import writes_queued_resource
from profiles.cost.cluster_cost import cluster_cost
from profiles.stack.document import NO_WORKLOAD, workload_of
from profiles.stack.file import FALLBACKS_KEY, is_hand_edited, read_for_rewrite, write_stack
from profiles.stack.writer import kept_settings, render_stack

# The row fields a move writes into the cluster (the rest of a row describes it).
MOVED = (
    "region",
    "zone",
    "instance_type",
    "accelerator",
    "accelerator_count",
    "nodes",
    "purchase",
    "interconnect",
    "usd_per_hour",
    "hours",
    "fallback_types",
)
_BUILT = re.compile(r"\(built ([^)]+)\)")


class StackNow(NamedTuple):
    """A stack file as the walk reads it.

    Attributes:
        cluster: its cluster.
        fallbacks: its fallback rows, best first.
        hand_edited: its body no longer matches the checksum resolve wrote.
        text: the file's text.
    """

    cluster: ClusterConfig
    fallbacks: list[dict[str, Any]]
    hand_edited: bool
    text: str


def read_stack(path: Path) -> StackNow:
    """The stack at `path` (its cluster validated, its fallback rows as written).

    Raises:
        StackFileError: the file is missing or unreadable; ConfigError: its cluster is invalid.
    """
    found = read_for_rewrite(path)
    if found is None:
        from profiles.stack.file import StackFileError

        raise StackFileError(
            f"{path}: no such stack file; write it with `trainstack resolve WORKLOAD --write-stack NAME`"
        )
    text, document = found
    config = (document.get("config") or {}) if isinstance(document, dict) else {}
    rows = config.get(FALLBACKS_KEY) or []
    return StackNow(parse_cluster_config(config.get(CONFIG_KEY)), list(rows), is_hand_edited(text), text)


def offering(cluster: ClusterConfig | dict[str, Any]) -> str:
    """`aws p5.48xlarge x2 spot in us-east-1 (use1-az2)`: what the walk tries."""
    get = cluster.get if isinstance(cluster, dict) else lambda key: getattr(cluster, key)
    return f"{get('instance_type')} x{get('nodes')} {get('purchase')} in {get('region')} ({get('zone')})"


def offering_key(provider: str, cluster: ClusterConfig | dict[str, Any]) -> str:
    """The blocklist key of an offering: provider, region, zone, type and purchase."""
    get = cluster.get if isinstance(cluster, dict) else lambda key: getattr(cluster, key)
    return "/".join(str(get(key)) for key in ("region", "zone", "instance_type", "purchase")).join((f"{provider}/", ""))


def move_problem(cluster: ClusterConfig, row: dict[str, Any]) -> str | None:
    """Why the walk may not move `cluster` to `row` by itself, or None: a move that would
    replace the file system, or to a row whose run misses the deadline the stack's run meets
    (a stack written before resolve kept its fallbacks to the deadline, or edited by hand)."""
    hours, deadline = row.get("hours"), cluster.deadline_hours
    if isinstance(hours, int | float) and deadline is not None and hours > deadline >= cluster.hours:
        return (
            f"it takes {hours:,.1f} h, past the {deadline:g} h deadline this stack meets ({cluster.hours:,.1f} h); "
            "a slower run is your decision: move by hand (`trainstack resolve ... --write-stack`)"
        )
    if cluster.file_system is not None and (row.get("region"), row.get("zone")) != (cluster.region, cluster.zone):
        return (
            f"moving to {row.get('zone')} would replace the file system in {cluster.zone} and the data on it; "
            "move by hand if you mean to (`trainstack resolve ... --write-stack`, then `trainstack plan --against`)"
        )
    return None


def moved_config(cluster: ClusterConfig, row: dict[str, Any]) -> ClusterConfig:
    """`cluster` on `row`'s offering, validated (ConfigError names a field that does not fit)."""
    fields = cluster.model_dump(mode="json", exclude_none=True)
    fields.update({key: row[key] for key in MOVED if key in row})
    fields.setdefault("fallback_types", [])
    if "fallback_types" not in row:
        fields["fallback_types"] = []
    for key in ("reservation", "commitment_reuse", "fallback_zones"):
        fields.pop(key, None)  # held capacity, reserved terms and the zones spread over belong to the old offering
    fields["commitment"] = "none"
    if fields["purchase"] != "spot":
        fields.pop("on_demand_after_minutes", None)
    fields["queued_resource"] = writes_queued_resource(cluster.provider, fields["instance_type"], fields["purchase"])
    return parse_cluster_config(fields)


def rewrite(path: Path, now: StackNow, row: dict[str, Any]) -> tuple[ClusterConfig, list[str]]:
    """Rewrite the stack at `path` onto `row`, dropping `row` and the rows before it from its
    fallbacks. Returns the new cluster and the lines that say what changed (fields, cost)."""
    config = moved_config(now.cluster, row)
    rest = now.fallbacks[now.fallbacks.index(row) + 1 :]
    built = _BUILT.search(now.text)
    text = render_stack(
        config,
        workload_of(now.text) or NO_WORKLOAD,
        built.group(1) if built else "unknown",
        None,
        kept_settings(path),
        None,
        rest,
    )
    write_stack(path, text, force=True)
    return config, changes(now.cluster, config)


def changes(old: ClusterConfig, new: ClusterConfig) -> list[str]:
    """`field: old -> new` for each moved field that changed, then the cost before and after."""
    lines = []
    for key in MOVED:
        before, after = getattr(old, key), getattr(new, key)
        if before != after:
            lines.append(f"{key}: {_shown(before)} -> {_shown(after)}")
    if old.usd_per_hour is not None and new.usd_per_hour is not None:
        was, now = cluster_cost(old, old.usd_per_hour, None), cluster_cost(new, new.usd_per_hour, None)
        lines.append(f"cost: {was.job_text()} -> {now.job_text()}")
    return lines


def _shown(value: Any) -> str:
    return ", ".join(value) or "none" if isinstance(value, tuple) else str(value)
