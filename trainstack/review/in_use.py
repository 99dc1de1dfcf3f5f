"""Deletions the cloud refuses because running nodes still use what is deleted.

A change that keeps the running nodes (a GCP instance template replaced under an OPPORTUNISTIC
group: `trainstack.review.node_effects`) leaves them on what the old template named. When the
new plan no longer has those networks (an instance type with fewer GPU interfaces), the engine
deletes them after updating the group, and the cloud refuses to delete a network a running VM
sits in (`IN_USE_UNDELETABLE`, each cloud's `replacements.yaml`): `pulumi up` fails there.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from trainstack.review.diff import Change, resource_ids, string_leaves
from trainstack.review.node_effects import node_effect
from trainstack.review.replacements import IN_USE_UNDELETABLE


def refuse_in_use_deletes(before: list[dict[str, Any]], changes: list[Change]) -> list[Change]:
    """`changes` with `refused` set on each delete the cloud refuses while running nodes use it.

    Args:
        before: the resource records of the compared revision's plan.
        changes: the planned changes (`diff_plans`).
    """
    keeping = {c.name for c in changes if (effect := node_effect(c)) is not None and not effect[0]}
    used = {value for r in before if r["name"] in keeping for _path, value in string_leaves(r["inputs"])}
    records = {r["name"]: r for r in before}
    return [
        dataclasses.replace(
            c,
            refused="the running nodes still use it (the change keeps them, see the node group's row): the cloud "
            "refuses to delete a network a running VM sits in, so `pulumi up` fails here",
        )
        if c.action == "delete"
        and c.type in IN_USE_UNDELETABLE
        and c.name in records
        and resource_ids(records[c.name]) & used
        else c
        for c in changes
    ]
