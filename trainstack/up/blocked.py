"""Offerings `trainstack up` found without capacity, blocked for a while
(`.trainstack/blocked.json` in the project: offering key -> until when, seconds since the epoch,
and why), so the next walk passes over them until the time is up."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from profiles.files import write_atomically

FILE = Path(".trainstack") / "blocked.json"


class Blocklist:
    """The project's blocked offerings (expired entries are dropped when read)."""

    def __init__(self, folder: Path, clock: Callable[[], float]) -> None:
        self.path, self.clock = folder / FILE, clock
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raw = {}
        now = clock()
        self.entries: dict[str, dict] = {
            key: value
            for key, value in (raw.items() if isinstance(raw, dict) else ())
            if isinstance(value, dict) and isinstance(value.get("until"), int | float) and value["until"] > now
        }

    def add(self, key: str, minutes: float, why: str) -> None:
        """Block `key` for `minutes` (saved at once)."""
        self.entries[key] = {"until": self.clock() + minutes * 60, "why": why}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(self.path, json.dumps(self.entries, indent=2, sort_keys=True) + "\n")

    def until(self, key: str) -> float | None:
        """When `key`'s block ends (seconds since the epoch), or None when it is not blocked."""
        entry = self.entries.get(key)
        return entry["until"] if entry and entry["until"] > self.clock() else None

    def why(self, key: str) -> str:
        """`blocked for 12 more minutes: InsufficientInstanceCapacity (...)`."""
        until = self.until(key)
        left = 0 if until is None else max(1, round((until - self.clock()) / 60))
        return f"blocked for {left} more minutes: {self.entries.get(key, {}).get('why', '')}"
