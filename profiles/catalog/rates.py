"""Exchange rates recorded in the catalog, for offerings listed in another currency.

No official dated USD/CNY rate is in the project's reference facts (china-clouds.md 2.6),
so trainstack never assumes one: the user records it with its date and source
(`trainstack catalog set-rate CNY 7.12 --as-of 2026-11-27 --source "CFETS central parity"`),
and until then offerings priced in that currency are left out of USD comparisons.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

from profiles.files import write_atomically

MAX_AGE_DAYS = 31


class RateError(ValueError):
    """A rate cannot be recorded (one-line message naming the field and the fix)."""


def set_rate(data_dir: Path, currency: str, per_usd: float, as_of: str, source: str,
             today: dt.date | None = None) -> dict:
    """Record `per_usd` units of `currency` per USD in `catalog.json` (atomic write).

    Args:
        data_dir: the catalog folder holding `catalog.json`.
        currency: ISO 4217 code, e.g. `CNY`.
        per_usd: units of `currency` per 1 USD, e.g. 7.12.
        as_of: ISO date the rate applies to; not in the future, at most 31 days old.
        source: where the rate comes from, e.g. `CFETS central parity`.

    Returns:
        The recorded entry.

    Raises:
        RateError: a bad currency code, rate, date or source, or unreadable metadata.
    """
    if not re.fullmatch(r"[A-Z]{3}", currency) or currency == "USD":
        raise RateError(f"currency: '{currency}' is not a 3-letter ISO code other than USD, e.g. CNY")
    if not per_usd > 0:
        raise RateError(f"rate: {per_usd} must be a positive number of {currency} per USD, e.g. 7.12")
    try:
        day = dt.date.fromisoformat(as_of)
    except ValueError:
        raise RateError(f"--as-of: '{as_of}' is not a date; write YYYY-MM-DD") from None
    age = ((today or dt.date.today()) - day).days
    if age < 0 or age > MAX_AGE_DAYS:
        raise RateError(f"--as-of: {as_of} must be within the last {MAX_AGE_DAYS} days; record a current rate")
    if not source.strip():
        raise RateError("--source: say where the rate comes from, e.g. 'CFETS central parity'")
    path = data_dir / "catalog.json"
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RateError(f"{path}: cannot read catalog metadata ({exc}); rebuild with `make catalog`") from None
    entry = {"per_usd": per_usd, "as_of": as_of, "source": source.strip()}
    meta.setdefault("exchange_rates", {})[currency] = entry
    write_atomically(path, json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return entry
