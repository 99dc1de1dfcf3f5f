"""Which resource of the deployed plan a planned one is (`trainstack.review.diff`).

Resources are matched by URN (stack, project, parent type chain, type, name), as the engine
matches them, or through an alias: a resource whose URN is new but one of whose `aliases` (old
logical names, see `trainstack.plan.mocks.RecordingMonitor`) names a URN of the old plan is that
resource, renamed, and keeps the old one's id, ARN and other computed values.
"""

from __future__ import annotations

from typing import Any

from pulumi.runtime.mocks import MockResourceArgs

from trainstack.plan.mocks import TrainstackMocks

PROJECT = "trainstack"
_MOCKS = TrainstackMocks()


def urns(records: list[dict[str, Any]], stack: str, project: str = PROJECT) -> dict[str, dict[str, Any]]:
    """URN -> record, with URNs built the way the Pulumi engine builds them.

    `urn:pulumi:<stack>::<project>::<parent types>$<type>::<name>`; a parent is found by
    its logical name among the records.
    """
    by_name = {r["name"]: r for r in records}

    def qualified(record: dict[str, Any], seen: int = 0) -> str:
        parent = by_name.get(record["parent"]) if record["parent"] else None
        if parent is None or parent is record or seen > 50:
            return record["type"]
        return f"{qualified(parent, seen + 1)}${record['type']}"

    return {f"urn:pulumi:{stack}::{project}::{qualified(r)}::{r['name']}": r for r in records}


def kept_ids(old: dict[str, dict[str, Any]], new: dict[str, dict[str, Any]], matched: dict[str, str]) -> dict[str, str]:
    """A resource matched through an alias keeps its id, ARN and other computed values: new
    mock value -> the old resource's, for every string output the mocks compute."""
    kept: dict[str, str] = {}
    for urn, record in new.items():
        before = old.get(matched[urn])
        if before is None or before["name"] == record["name"]:
            continue
        kept[f"{record['name']}-id"] = f"{before['name']}-id"
        now, then = mock_outputs(record), mock_outputs(before)
        kept.update(
            {
                value: then[key]
                for key, value in now.items()
                if isinstance(value, str) and isinstance(then.get(key), str) and value != then[key]
            }
        )
    return kept


def mock_outputs(record: dict[str, Any]) -> dict[str, Any]:
    """The id (`id`) and outputs the mocks give a planned resource; {} when they cannot."""
    try:
        rid, outputs = _MOCKS.new_resource(MockResourceArgs(record["type"], record["name"], dict(record["inputs"])))
    except (KeyError, TypeError):  # a hand-built record without the inputs its mock reads
        return {}
    return {**outputs, "id": rid}


def substituted(value: Any, kept: dict[str, str]) -> Any:
    """`value` with every string `kept` maps (a new mock id or ARN) replaced by the old one's."""
    if isinstance(value, dict):
        return {key: substituted(item, kept) for key, item in value.items()}
    if isinstance(value, list):
        return [substituted(item, kept) for item in value]
    return kept.get(value, value) if isinstance(value, str) else value


def previous_urn(urn: str, record: dict[str, Any], old: dict[str, dict[str, Any]]) -> str:
    """The URN this resource had in the old plan: its own, else the first alias found there."""
    if urn in old:
        return urn
    head = urn[: -len(record["name"])]
    return next((head + alias for alias in record.get("aliases", ()) if head + alias in old), urn)
