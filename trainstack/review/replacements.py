"""Which input changes make the provider replace a resource instead of updating it.

Pulumi's Python SDKs do not expose the providers' replace-on-change metadata, so each cloud
keeps a documented per-type list of input paths (`Cloud.replacements`, in the cloud's own
`replacements.yaml` or `replacements.py`, which cites its sources); the tables here are their union. Paths are
camelCase, dotted into nested objects, `[]` for any list element. A change at a listed path,
inside it, or to an object holding it means "replace". A path ending in `#` replaces only
when the list is added, removed or changes length (a Terraform `ForceNew` list whose
elements have their own, updatable fields).

Rule N (autonaming): a changed `name` of any resource means a new physical resource, except
on the types in `NAME_IN_PLACE`, whose provider renames in place.
"""

from __future__ import annotations

import re
from typing import Any

from clouds.base import load
from clouds.registry import CLOUDS
from clouds.replacement_rules import Replacements

_ALL: tuple[Replacements, ...] = tuple(load(c.replacements) for c in CLOUDS.values())

REPLACE_ON_CHANGE: dict[str, tuple[str, ...]] = {k: v for r in _ALL for k, v in r.replace_on_change.items()}
NAME_IN_PLACE: frozenset[str] = frozenset().union(*(r.name_in_place for r in _ALL))
# Replace only when the new number is smaller.
REPLACE_ON_DECREASE: dict[str, tuple[str, ...]] = {k: v for r in _ALL for k, v in r.replace_on_decrease.items()}
# (dependent type, input path, referenced type, id path): in a real deployment the input
# changes whenever the referenced resource is updated, though the mocks give it the same value.
CASCADES: tuple[tuple[str, str, str, str], ...] = tuple(c for r in _ALL for c in r.cascades)
# (type-token prefix, paths that replace on every type of that prefix).
EVERY_TYPE: tuple[tuple[str, tuple[str, ...]], ...] = tuple(e for r in _ALL for e in r.every_type)
# type token -> {input path: ranges}: an update moving the value to another range is refused.
FIXED_RANGES: dict[str, dict[str, tuple[tuple[float, float], ...]]] = {
    k: dict(v) for r in _ALL for k, v in r.fixed_ranges.items()
}
# type token -> {input path: boolean input}: a change of the path is refused while the input is true.
FIXED_WHEN: dict[str, dict[str, str]] = {k: dict(v) for r in _ALL for k, v in r.fixed_when.items()}
# type token -> numeric inputs the cloud only increases: a smaller value is refused.
GROWS_ONLY: dict[str, tuple[str, ...]] = {k: v for r in _ALL for k, v in r.grows_only.items()}
# types the cloud does not delete while a running node uses them.
IN_USE_UNDELETABLE: frozenset[str] = frozenset().union(*(r.in_use_undeletable for r in _ALL))
# Node-holding type token -> the input path of the node count it keeps running (`NodeEffect.count`).
NODE_COUNTS: dict[str, str] = {k: e.count for r in _ALL for k, e in r.node_effects.items() if e.count}
_ANY_INDEX = re.compile(r"\[\d+\]")


def replace_paths(kind: str) -> tuple[str, ...]:
    """Every replace-on-change input path of a resource type (see module docstring)."""
    generic = tuple(path for prefix, paths in EVERY_TYPE if kind.startswith(prefix) for path in paths)
    named = () if kind in NAME_IN_PLACE else ("name",)
    return (*named, *generic, *REPLACE_ON_CHANGE.get(kind, ()))


def replace_keys(kind: str, changed: list[str], old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """The changed input paths that force a replacement.

    Args:
        kind: the resource type token.
        changed: dotted paths whose value differs between `old` and `new`.
        old: the inputs before.
        new: the inputs after.
    """
    listed = replace_paths(kind)
    found = [path for path in changed if any(related_path(path, entry) for entry in listed)]
    for key in REPLACE_ON_DECREASE.get(kind, ()):
        before, after = _number(old.get(key)), _number(new.get(key))
        if before is not None and after is not None and after < before:
            found.append(key)
    return sorted(set(found))


def _number(value: Any) -> float | None:
    """A number, or a numeric string (pulumi-gcp takes Lustre's capacity as "36000"); else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    try:
        return float(value) if isinstance(value, str) else None
    except ValueError:
        return None


def related_path(path: str, entry: str) -> bool:
    """True when `path` is `entry`, lies inside it, or is an object that holds it (see above)."""
    path = _ANY_INDEX.sub("[]", path)
    if entry.endswith("#"):
        base = entry[:-1]
        return path == base or base.startswith(path + ".")
    for inner, outer in ((path, entry), (entry, path)):
        if inner == outer or inner.startswith((outer + ".", outer + "[")):
            return True
    return False


def refused_update(kind: str, old: dict[str, Any], new: dict[str, Any]) -> str:
    """Why the cloud refuses this update of `kind` (a value moved between the ranges it fixes at
    creation, `FIXED_RANGES`; one it fixes while another input is set, `FIXED_WHEN`; one it only
    grows, made smaller, `GROWS_ONLY`), in one clause; "" when it does not."""
    for path in GROWS_ONLY.get(kind, ()):
        before, after = _number(_value(old, path)), _number(_value(new, path))
        if before is not None and after is not None and after < before:
            return (
                f"{path} {before:,.0f} -> {after:,.0f}: the cloud only grows it and refuses a smaller value, "
                "so `pulumi up` fails here; only a new resource is smaller"
            )
    for path, condition in FIXED_WHEN.get(kind, {}).items():
        before, after = _value(old, path), _value(new, path)
        if before != after and _value(old, condition) is True:
            return (
                f"{path} {before} -> {after} cannot change while {condition} is set (fixed at creation): the cloud "
                "refuses the update, so `pulumi up` fails here; only a new resource has the new value"
            )
    for path, ranges in FIXED_RANGES.get(kind, {}).items():
        before, after = _number(_value(old, path)), _number(_value(new, path))
        if before is None or after is None or before == after:
            continue
        where = [next((i for i, (lo, hi) in enumerate(ranges) if lo <= v <= hi), None) for v in (before, after)]
        if where[0] != where[1]:
            spans = ", ".join(f"{lo:,.0f}-{hi:,.0f}" for lo, hi in ranges)
            return (
                f"{path} {before:,.0f} -> {after:,.0f} leaves the range the cloud fixed at creation ({spans}): "
                "it refuses the update, so `pulumi up` fails here; only a new resource has the new size"
            )
    return ""


def _value(inputs: dict[str, Any], path: str) -> Any:
    value: Any = inputs
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value
