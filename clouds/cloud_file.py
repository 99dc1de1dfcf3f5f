"""Read one cloud's `Cloud` and `Replacements` (`clouds.base`) from the data files beside its code.

Each cloud declares what trainstack knows about it in `clouds/<name>/cloud.yaml`; its
`__init__.py` is `CLOUD = read_cloud(__file__)`. The keys are `Cloud`'s attributes, as data:

- `mainland`: a regular expression (compiled here);
- `file_system`: the `FileSystemRule` fields;
- `healing`: the `Healing` fields, with `restart_hours: group` or `manual` naming
  `GROUP_RESTART_HOURS` / `MANUAL_RESTART_HOURS` (or a `module:attribute` target naming the
  cloud's own figure) and `{restart_hours:g}` in `summary` filled with that figure; `queued`
  a nested `healing` mapping; `per_node` a `module:function` target (`Healing.per_node`); or `{manual: <the cloud's auto-scaling service that could>}` for
  `manual_healing`; absent: `manual_healing` without a hint;
- `missing`: `Feature` member name -> the reason;
- `stateful`, `untaggable`: lists of Pulumi type tokens;
- `reservation_kinds`: a list of `clouds.reservation.KINDS`.
- `access`: the `clouds.access.NodeAccess` fields (`ssh_cidrs` a list).
- `platforms`: platform name -> the `clouds.platforms.Platform` fields (`adds`, `types` and
  `rows` lists).

Its replace-on-change inputs are `clouds/<name>/replacements.yaml` (`read_replacements`), with
`Replacements`' attributes as keys: `replace_on_change` and `replace_on_decrease` (type token ->
list of input paths), `name_in_place` (type tokens), `cascades` (lists of four: dependent type,
input path, referenced type, id path), `every_type` (pairs of type prefix and paths) and
`node_effects` (type token -> `NodeEffect` fields) and `fixed_ranges` (type token -> input path ->
list of `[low, high]` ranges the cloud never moves a value between) and `fixed_when` (type token ->
input path -> the boolean input that, while true, makes the cloud refuse a change of it) and
`grows_only` (type token -> numeric input paths the cloud refuses to decrease) and
`in_use_undeletable` (type tokens the cloud does not delete while a running node uses them).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

from clouds.access import NodeAccess
from clouds.base import (
    Cloud,
    Feature,
    FileSystemRule,
    load,
)
from clouds.input_file import parse_yaml, read_text
from clouds.lost_node import GROUP_RESTART_HOURS, MANUAL_RESTART_HOURS, Healing, manual_healing
from clouds.platforms import read_platforms
from clouds.replacement_rules import NodeEffect, Replacements

FILE_NAME = "cloud.yaml"
_RESTART_HOURS = {"group": GROUP_RESTART_HOURS, "manual": MANUAL_RESTART_HOURS}


def read_cloud(package_file: str | Path) -> Cloud:
    """The `Cloud` declared in the `cloud.yaml` beside `package_file` (a cloud's `__init__.py`).

    Raises:
        ValueError: `<path>: ...` for a file that is not a mapping, an unknown or missing
            key, an unknown `Feature`, or a `restart_hours` other than `group` / `manual`.
    """
    path = Path(package_file).with_name(FILE_NAME)
    raw = parse_yaml(read_text(path, "cloud file"), str(path))
    if not isinstance(raw, dict):
        raise ValueError(f"{path}: not a mapping of Cloud fields")
    try:
        return Cloud(**_fields(raw))
    except KeyError as exc:
        raise ValueError(f"{path}: no {exc} key") from None
    except (TypeError, ValueError, re.error) as exc:
        raise ValueError(f"{path}: {exc}") from None


def read_replacements(module_file: str | Path) -> Replacements:
    """The `Replacements` declared in the `replacements.yaml` beside `module_file`.

    Raises:
        ValueError: `<path>: ...` for a file that is not a mapping, or an unknown key of it
            or of a `NodeEffect`.
    """
    path = Path(module_file).with_name("replacements.yaml")
    raw = parse_yaml(read_text(path, "cloud file"), str(path))
    if not isinstance(raw, dict):
        raise ValueError(f"{path}: not a mapping of Replacements fields")
    known = [f.name for f in dataclasses.fields(Replacements)]
    unknown = [key for key in raw if key not in known]
    if unknown:
        raise ValueError(f"{path}: unknown key '{unknown[0]}'; Replacements has {', '.join(known)}")
    try:
        return Replacements(
            replace_on_change=_paths(raw.get("replace_on_change", {})),
            name_in_place=frozenset(raw.get("name_in_place", ())),
            replace_on_decrease=_paths(raw.get("replace_on_decrease", {})),
            cascades=tuple((a, b, c, d) for a, b, c, d in raw.get("cascades", ())),
            every_type=tuple((prefix, tuple(paths)) for prefix, paths in raw.get("every_type", ())),
            node_effects={token: _node_effect(fields) for token, fields in raw.get("node_effects", {}).items()},
            fixed_ranges={
                token: {path: tuple((float(lo), float(hi)) for lo, hi in ranges) for path, ranges in paths.items()}
                for token, paths in raw.get("fixed_ranges", {}).items()
            },
            fixed_when={token: dict(paths) for token, paths in raw.get("fixed_when", {}).items()},
            grows_only=_paths(raw.get("grows_only", {})),
            in_use_undeletable=frozenset(raw.get("in_use_undeletable", ())),
        )
    except TypeError as exc:
        raise ValueError(f"{path}: {exc}") from None


def _paths(table: dict[str, list[str]]) -> dict[str, tuple[str, ...]]:
    return {token: tuple(paths) for token, paths in table.items()}


def _node_effect(fields: dict[str, Any]) -> NodeEffect:
    read: dict[str, Any] = {key: tuple(value) if isinstance(value, list) else value for key, value in fields.items()}
    return NodeEffect(**read)


def _fields(raw: dict[str, Any]) -> dict[str, Any]:
    known = [f.name for f in dataclasses.fields(Cloud)]
    unknown = [key for key in raw if key not in known]
    if unknown:
        raise ValueError(f"unknown key '{unknown[0]}'; a Cloud has {', '.join(known)}")
    fields = dict(raw)
    for key in ("mainland", "subnet_id"):
        if key in fields:
            fields[key] = re.compile(fields[key])
    if "file_system" in fields:
        fields["file_system"] = FileSystemRule(**fields["file_system"])
    if "healing" in fields:
        fields["healing"] = _healing(fields["healing"], raw["display_name"])
    if "missing" in fields:
        fields["missing"] = {_feature(name): why for name, why in fields["missing"].items()}
    if "access" in fields:
        fields["access"] = NodeAccess(**{**fields["access"], "ssh_cidrs": tuple(fields["access"].get("ssh_cidrs", ()))})
    for key in ("stateful", "untaggable"):
        if key in fields:
            fields[key] = frozenset(fields[key])
    if "capacity_codes" in fields:
        fields["capacity_codes"] = {kind: tuple(codes) for kind, codes in fields["capacity_codes"].items()}
    if "platforms" in fields:
        fields["platforms"] = read_platforms(fields["platforms"])
    for key in ("reservation_kinds", "group_reservations"):
        if key in fields:
            fields[key] = tuple(fields[key])
    return fields


def _feature(name: str) -> Feature:
    if name not in Feature.__members__:
        raise ValueError(f"missing: '{name}' is not a Feature; use one of {', '.join(Feature.__members__)}")
    return Feature[name]


def _healing(raw: dict[str, Any], display_name: str) -> Healing:
    if set(raw) == {"manual"}:
        return manual_healing(display_name, raw["manual"])
    named = raw["restart_hours"]
    hours = load(named) if isinstance(named, str) and ":" in named else _RESTART_HOURS.get(named)
    if hours is None:
        raise ValueError(f"healing.restart_hours: '{raw['restart_hours']}' is not one of {', '.join(_RESTART_HOURS)}")
    return Healing(
        **{
            **raw,
            "restart_hours": hours,
            "summary": raw["summary"].format(restart_hours=hours),
            "on_demand_summary": raw.get("on_demand_summary", "").format(restart_hours=hours),
            "flex_start_summary": raw.get("flex_start_summary", "").format(manual_hours=MANUAL_RESTART_HOURS),
            "no_job_types": tuple(tuple(pair) for pair in raw.get("no_job_types", ())),
            "unreplaced_types": tuple(raw.get("unreplaced_types", ())),
            "queued": _healing(raw["queued"], display_name) if "queued" in raw else None,
        }
    )
