"""What a change to a node-holding resource does to the nodes running in it, for the review.

A node group's "update" can mean very different things to a running job: an AWS instance
refresh replaces every node, a new launch-template version replaces none. Each cloud states
it per type in its own `replacements.yaml` (`Replacements.node_effects`, `clouds.replacement_rules.NodeEffect`);
this module applies those rules to a planned change (`trainstack.review.diff.Change`).
"""

from __future__ import annotations

from clouds.base import load
from clouds.registry import CLOUDS
from clouds.replacement_rules import NodeEffect
from trainstack.review.diff import Change
from trainstack.review.replacements import related_path

EFFECTS: dict[str, NodeEffect] = {
    kind: effect for c in CLOUDS.values() for kind, effect in load(c.replacements).node_effects.items()
}


def node_effect(change: Change) -> tuple[bool, str] | None:
    """Whether `change` replaces running nodes, and what it does to them, in one line.

    Args:
        change: one resource's planned change.

    Returns:
        `(replaces_nodes, line)` for an update or replacement of a node-holding type; None
        for any other type or action (a created group makes nodes, a deleted one removes them).
    """
    effect = EFFECTS.get(change.type)
    if effect is None or change.action not in ("update", "replace"):
        return None
    if change.action == "replace":
        return (False, effect.kept) if effect.replace_keeps_nodes else (True, effect.rolled)
    if any(related_path(path, entry) for path in change.changed for entry in effect.moves):
        return True, effect.moved
    if any(related_path(path, entry) for path in change.changed for entry in effect.rolls):
        return True, effect.rolled
    if change.changed and all(any(related_path(p, e) for e in effect.resizes) for p in change.changed):
        return False, resized_line(change.node_counts) or effect.resized
    return False, effect.kept


def resized_line(counts: tuple[int, int] | None) -> str:
    """What a node-count change does to the running nodes, with the counts; "" when unknown.

    A group that shrinks terminates running nodes (the cloud's scale-in picks which) and
    whatever runs on them; one that grows only adds nodes.
    """
    if counts is None:
        return ""
    before, after = counts
    if after > before:
        kept = "the running one keeps" if before == 1 else f"the {before} running ones keep"
        return f"{before} -> {after} nodes: {after - before} added; {kept} running"
    gone = before - after
    return (
        f"{before} -> {after} nodes: the group terminates {gone} running node{'s' if gone > 1 else ''} "
        f"(the cloud picks which) and whatever runs on {'them' if gone > 1 else 'it'}; "
        f"the other {after} keep{'s' if after == 1 else ''} running"
    )


def removes_nodes(change: Change) -> bool:
    """True when `change` shrinks a node group without replacing its nodes: it terminates
    running nodes (the review warns), though it replaces none."""
    effect = node_effect(change)
    counts = change.node_counts
    return effect is not None and not effect[0] and counts is not None and counts[1] < counts[0]
