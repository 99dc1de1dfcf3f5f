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
        return False, effect.resized
    return False, effect.kept
