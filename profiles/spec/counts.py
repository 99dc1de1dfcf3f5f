"""Per-node GPU counts in `accelerators` (`NAME:N`) and shares (`node_margin: 5%`): reading
rules of the workload spec (`profiles.spec.rules` re-exports them). No pydantic import here."""

from __future__ import annotations

import re
from typing import Any

from profiles.spec.units import not_bool


def share(value: object) -> object:
    """A share as a fraction (`0.05`) or a percentage (`5%`); anything else is left for the type check."""
    if isinstance(value, str) and value.strip().endswith("%"):
        try:
            return float(value.strip()[:-1]) / 100
        except ValueError:
            raise ValueError(f"'{value}' is not a percentage; write it like 5% or 0.05") from None
    return not_bool(value)


def split_counts(data: object) -> object:
    """Turn `NAME:N` accelerator entries into names plus per-node GPU counts: one count shared
    by every entry sets `gpus_per_node`; otherwise each count binds its own entry only
    (`accelerator_counts`, `NAME:N` strings), and an entry without one takes any count, so
    `[tpu-v6e, H100:8]` keeps every TPU slice beside 8-GPU H100 nodes."""
    if not isinstance(data, dict) or "accelerators" not in data:
        return data
    raw = data["accelerators"]
    if raw is not None and not isinstance(raw, (str, list, tuple)):
        raise ValueError("accelerators: expected a name or a list such as [A100:8, A100-80GB:8]")
    names: list[str] = []
    counts: dict[str, int] = {}
    for token in [raw] if isinstance(raw, str) else (raw or []):
        match = re.fullmatch(r"\s*([A-Za-z0-9][\w.\- ]*?)\s*(?::\s*(\d+))?\s*", str(token))
        if not match:
            raise ValueError(f"accelerators: cannot read '{token}'; write NAME or NAME:COUNT, e.g. A100-80GB:8")
        name, count = match.group(1), match.group(2)
        names.append(name)
        if count and counts.get(name, int(count)) != int(count):
            raise ValueError(
                f"accelerators: '{name}' asks for two GPU counts ({counts[name]} and {count}); give it once"
            )
        if count:
            counts[name] = int(count)
    given = data.get("gpus_per_node")
    if given is not None and any(c != given for c in counts.values()):
        raise ValueError("accelerators: entries ask for other GPU counts than gpus_per_node; drop one of them")
    if counts and len(counts) == len(names) and len(set(counts.values())) == 1:
        return {**data, "accelerators": names, "gpus_per_node": next(iter(counts.values()))}
    per_entry = [f"{name}:{count}" for name, count in counts.items()] if given is None else []
    return {**data, "accelerators": names, **({"accelerator_counts": per_entry} if per_entry else {})}


def count_of(spec: Any, accelerator: str) -> int | None:
    """The per-node GPU count the spec asks of `accelerator` (catalog spelling): `gpus_per_node`,
    else its own entry's `NAME:N` (`accelerator_counts`), else None (any count)."""
    if spec.gpus_per_node:
        return spec.gpus_per_node
    for entry in spec.accelerator_counts:
        name, _, count = entry.rpartition(":")
        if name.casefold() == accelerator.casefold():
            return int(count)
    return None
