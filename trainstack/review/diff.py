"""Compare two plans of one stack: what `pulumi up` would create, update, replace or delete.

Resources are matched by URN (stack, project, parent type chain, type, name), as the
engine matches them, or through an alias: a resource whose URN is new but one of whose
`aliases` (old logical names, see `trainstack.plan.mocks.RecordingMonitor`) names a URN of the
old plan is that resource, renamed (`trainstack.review.urn_match`). Inputs are diffed leaf by
leaf, leaving out the paths the resource's `ignore_changes` holds (the engine keeps them at their deployed values); a
change at a replace-on-change path (`trainstack.review.replacements`) makes the action "replace".
A resource whose URN disappears is "delete", a new one "create".
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any

from trainstack.review.replacements import CASCADES, NODE_COUNTS, refused_update, replace_keys
from trainstack.review.urn_match import kept_ids, mock_outputs, previous_urn, substituted, urns

_QUOTED_KEY = re.compile(r'\["([^"]+)"\]')
ACTIONS = ("create", "update", "replace", "delete", "same")


@dataclass(frozen=True)
class Change:
    """What one resource goes through.

    Attributes:
        action: `create`, `update`, `replace`, `delete` or `same`.
        type: the resource type token.
        name: the logical name.
        urn: the resource's URN.
        protect: whether the resource is protected (in the newer plan when it exists).
        changed: dotted input paths that differ (updates and replaces).
        replace_keys: the changed paths that force the replacement.
        delete_first: a replacement deletes the old resource before creating the new one (its
            `delete_before_replace`: a fixed path or name the cloud keeps unique).
        node_counts: `(before, after)` nodes of a node group whose node count changes (its
            `NodeEffect.count` input), else None.
        refused: why the cloud refuses this update (`replacements.refused_update`), or "".
    """

    action: str
    type: str
    name: str
    urn: str
    protect: bool = False
    changed: tuple[str, ...] = field(default=())
    replace_keys: tuple[str, ...] = field(default=())
    delete_first: bool = False
    node_counts: tuple[int, int] | None = None
    refused: str = ""


def changed_paths(old: Any, new: Any, prefix: str = "") -> list[str]:
    """Dotted paths (`a.b`, `a[0].c`) where two input values differ."""
    if isinstance(old, dict) and isinstance(new, dict):
        found = []
        for key in sorted(set(old) | set(new)):
            path = f"{prefix}.{key}" if prefix else key
            if key not in old or key not in new:
                found.append(path)
            else:
                found += changed_paths(old[key], new[key], path)
        return found
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [
            p for i, (a, b) in enumerate(zip(old, new, strict=False)) for p in changed_paths(a, b, f"{prefix}[{i}]")
        ]
    return [] if old == new else [prefix]


def diff_plans(before: list[dict[str, Any]], after: list[dict[str, Any]], stack: str) -> list[Change]:
    """Classify every resource of two plans of one stack.

    Args:
        before: records of the plan now deployed (empty for a new stack).
        after: records of the proposed plan.
        stack: the stack name (part of every URN).

    Returns:
        One change per URN, in the order of `after` then the deleted ones.
    """
    old, new = urns(before, stack), urns(after, stack)
    matched = {urn: previous_urn(urn, record, old) for urn, record in new.items()}
    renamed_ids = kept_ids(old, new, matched)
    if renamed_ids:
        new = {urn: {**record, "inputs": substituted(record["inputs"], renamed_ids)} for urn, record in new.items()}
    changes = {urn: _compare(urn, old.get(matched[urn]), record) for urn, record in new.items()}
    while _follow_replacements(changes, new) | _cascade(changes, new):
        pass
    kept = set(matched.values())
    deleted = [
        Change("delete", r["type"], r["name"], urn, bool(r["protect"])) for urn, r in old.items() if urn not in kept
    ]
    return [*changes.values(), *deleted]


def moved_region(changes: list[Change], before: str | None, after: str | None) -> list[Change]:
    """A cluster moved to another region is rebuilt there: every resource it keeps is
    replaced (a region is provider configuration, so no input shows the move; listing the
    global ones too, such as AWS IAM roles, errs toward warning). Unchanged when either
    region is unknown or both are the same."""
    if before is None or after is None or before == after:
        return changes
    return [
        dataclasses.replace(
            c,
            action="replace",
            changed=tuple(sorted({*c.changed, "region"})),
            replace_keys=tuple(sorted({*c.replace_keys, "region"})),
        )
        if c.action in ("same", "update", "replace")
        else c
        for c in changes
    ]


def _compare(urn: str, old: dict[str, Any] | None, new: dict[str, Any]) -> Change:
    if old is None:
        return Change("create", new["type"], new["name"], urn, bool(new["protect"]))
    ignored = new.get("ignore_changes", ())
    paths = [p for p in changed_paths(old["inputs"], new["inputs"]) if not ignored_path(p, ignored)]
    keys = replace_keys(new["type"], paths, old["inputs"], new["inputs"])
    # the resource's own `replace_on_changes` option replaces too (the GCP queued-resource controller)
    keys = sorted({*keys, *(p for p in paths if ignored_path(p, new.get("replace_on_changes", ())))})
    action = "replace" if keys else "update" if paths else "same"
    first = action == "replace" and bool(new.get("delete_before_replace"))
    counts = _node_counts(new["type"], old["inputs"], new["inputs"])
    refused = refused_update(new["type"], old["inputs"], new["inputs"]) if action == "update" else ""
    return Change(
        action, new["type"], new["name"], urn, bool(new["protect"]), tuple(paths), tuple(keys), first, counts, refused
    )


def _node_counts(kind: str, old: dict[str, Any], new: dict[str, Any]) -> tuple[int, int] | None:
    """`(before, after)` node counts of a node group whose count input changed, else None."""
    path = NODE_COUNTS.get(kind)
    if path is None:
        return None
    before, after = _get(old, path), _get(new, path)
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in (before, after)) or before == after:
        return None
    return before, after


def ignored_path(path: str, ignore_changes: Any) -> bool:
    """True when `path` (`a.b`, `a[0].c`) lies at or inside an `ignore_changes` entry.

    Entries use Pulumi's property-path syntax: `a.b`, `a[0]`, `a[*].b` (any element),
    `tags["team"]`, and `*` for every input.
    """
    for entry in ignore_changes:
        if entry == "*":
            return True
        pattern = re.escape(_QUOTED_KEY.sub(r".\1", entry)).replace(r"\[\*\]", r"\[\d+\]")
        if re.fullmatch(pattern + r"([.\[].*)?", path):
            return True
    return False


def _follow_replacements(changes: dict[str, Change], records: dict[str, dict[str, Any]]) -> bool:
    """A replaced resource gets a new id: every resource whose inputs hold the old id
    changes too, and is replaced when that input is replace-on-change (a replaced subnet
    replaces the file system in it). Under the mocks an id is `<logical name>-id` or, for
    the clouds with their own id shapes, whatever `TrainstackMocks` gives that resource.

    Returns:
        True when any change was added.
    """
    replaced = {rid: c.name for urn, c in changes.items() if c.action == "replace" for rid in _ids(records[urn])}
    grew = False
    for urn, change in changes.items():
        if change.action in ("create", "replace"):
            continue
        inputs = records[urn]["inputs"]
        hits = sorted({path for path, value in _leaves(inputs) if value in replaced})
        if not hits:
            continue
        forcing = [path for path in hits if replace_keys(change.type, [path], inputs, inputs)]
        action = "replace" if forcing else "update"
        if action != change.action or not set(hits) <= set(change.changed):
            changed = tuple(sorted({*change.changed, *hits}))
            keys = tuple(sorted({*change.replace_keys, *forcing}))
            first = action == "replace" and bool(records[urn].get("delete_before_replace"))
            refused = change.refused if action == "update" else ""  # a new resource takes any value
            changes[urn] = dataclasses.replace(
                change, action=action, changed=changed, replace_keys=keys, delete_first=first, refused=refused
            )
            grew = True
    return grew


def _ids(record: dict[str, Any]) -> set[str]:
    """The ids a planned resource goes by under the mocks (see `_follow_replacements`)."""
    ids = set()
    for name in (record["name"], *record.get("aliases", ())):  # a renamed resource keeps its old id
        ids.add(f"{name}-id")
        outputs = mock_outputs({**record, "name": name})
        # the id, and a unique self link, which a replaced resource changes too (an instance
        # template's `selfLinkUnique`, which its group references)
        ids.update(value for value in (outputs.get("id"), outputs.get("selfLinkUnique")) if value)
    return ids


def _leaves(value: Any, path: str = "") -> list[tuple[str, str]]:
    """(dotted path, string) for every string leaf; list items share their list's path."""
    if isinstance(value, dict):
        return [leaf for key, item in value.items() for leaf in _leaves(item, f"{path}.{key}" if path else key)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in _leaves(item, path)]
    return [(path, value)] if isinstance(value, str) and path else []


def _cascade(changes: dict[str, Change], records: dict[str, dict[str, Any]]) -> bool:
    """Apply `CASCADES`: an updated referenced resource changes its dependents' pinned input.

    Returns:
        True when any change was added.
    """
    grew = False
    for dependent, path, referenced, id_path in CASCADES:
        updated_ids = {
            rid
            for urn, c in changes.items()
            if c.type == referenced and c.action in ("update", "replace")
            for rid in _ids(records[urn])
        }
        for urn, change in changes.items():
            if change.type != dependent or change.action in ("create", "replace"):
                continue
            if _get(records[urn]["inputs"], id_path) in updated_ids:
                changed = tuple(sorted({*change.changed, path}))
                changes[urn] = dataclasses.replace(
                    change, action="replace", changed=changed, replace_keys=(path,), delete_first=False, refused=""
                )
                grew = True
    return grew


def _get(inputs: dict[str, Any], path: str) -> Any:
    """The value at a dotted path; through a list, the first item's value that is set."""
    value: Any = inputs
    for part in path.split("."):
        if isinstance(value, list):
            value = next((v.get(part) for v in value if isinstance(v, dict) and v.get(part) is not None), None)
        else:
            value = value.get(part) if isinstance(value, dict) else None
    return value


def summary(changes: list[Change]) -> dict[str, int]:
    """How many resources take each action, every action listed."""
    return {action: sum(c.action == action for c in changes) for action in ACTIONS}


def resource_ids(record: dict[str, Any]) -> set[str]:
    """The ids a planned resource goes by under the mocks (`_ids`)."""
    return _ids(record)


def string_leaves(value: Any) -> list[tuple[str, str]]:
    """(dotted path, string) for every string leaf of an input tree (`_leaves`)."""
    return _leaves(value)
