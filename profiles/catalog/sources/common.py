"""Parsing helpers shared by the per-provider extract readers."""

from __future__ import annotations

import ast
import csv
import math
from pathlib import Path

from facts.accelerators import accelerator_facts


def read_rows(path: Path) -> list[dict[str, str]]:
    """Read a CSV file into a list of dicts (header keys, string values)."""
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def parse_price(text: str | None, placeholder: float | None = None) -> float | None:
    """A USD/hour price, or None when empty, unparseable, not positive or a placeholder."""
    try:
        value = float(text) if text else math.nan
    except ValueError:
        return None
    if not math.isfinite(value) or value <= 0 or value == placeholder:
        return None
    return value


def no_discount_is_unknown(spot: float | None, on_demand: float | None) -> float | None:
    """`spot`, or None when it is at or above `on_demand` (no discount on record)."""
    return None if spot is not None and on_demand is not None and spot >= on_demand else spot


def parse_number(text: str | None) -> float | None:
    """A float, or None when empty or unparseable."""
    try:
        return float(text) if text else None
    except ValueError:
        return None


def gpu_info_memory_gib(gpu_info: str) -> float | None:
    """Per-accelerator memory in GiB from a SkyPilot `GpuInfo` dict string, or None."""
    if not gpu_info.startswith("{"):
        return None
    try:
        info = ast.literal_eval(gpu_info)
        return info["Gpus"][0]["MemoryInfo"]["SizeInMiB"] / 1024
    except (ValueError, SyntaxError, KeyError, IndexError, TypeError):
        return None


def memory_for(accelerator: str, gpu_info: str = "") -> float | None:
    """Memory per accelerator, GiB: the facts table first, then the row's GpuInfo."""
    facts = accelerator_facts(accelerator)
    return facts.memory_gib if facts else gpu_info_memory_gib(gpu_info)


def is_local_zone(az_id: str) -> bool:
    """True for an AWS Local Zone or Wavelength Zone ID (`use1-atl2-az1`, `usw2-lax1-az1`),
    False for a regular AZ ID (`use1-az4`): the regular ID has two dash-separated parts."""
    return az_id.count("-") > 1


def merge_duplicates(rows: list[dict[str, str]], key_fields: tuple[str, ...]) -> list[dict[str, str]]:
    """Merge rows sharing `key_fields`: first non-empty value per field wins; order kept."""
    merged: dict[tuple, dict[str, str]] = {}
    for row in rows:
        key = tuple(row[f] for f in key_fields)
        if key not in merged:
            merged[key] = dict(row)
            continue
        kept = merged[key]
        for field, value in row.items():
            if not kept.get(field) and value:
                kept[field] = value
    return list(merged.values())
