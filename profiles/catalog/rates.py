"""Exchange rates recorded in the catalog, for offerings listed in another currency.

No official dated USD/CNY rate is in the project's reference facts (china-clouds.md 2.6),
so trainstack never assumes one: the user records it with its date and source
(`trainstack catalog set-rate CNY 7.12 --as-of 2026-11-27 --source "CFETS central parity"`),
and until then offerings priced in that currency are left out of USD comparisons. A rate
older than 31 days is not used (`profiles.catalog.loader.usable_rates`).

Recording a rate changes the catalog version (`<base>+CNY7.12@2026-11-27`), so a stack
resolved before the rate shows as priced with an older catalog.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import math
import re
from pathlib import Path

from profiles.catalog.loader import RATE_MAX_AGE_DAYS as MAX_AGE_DAYS
from profiles.files import write_atomically
# Plausible units of any currency per USD (KWD about 0.3, IDR about 16,000); a rate outside
# is a typo, and an infinite one would price every offering at $0.
MIN_PER_USD, MAX_PER_USD = 0.001, 1_000_000


class RateError(ValueError):
    """A rate cannot be recorded (one-line message naming the field and the fix)."""


def set_rate(data_dir: Path, currency: str, per_usd: float, as_of: str, source: str,
             today: dt.date | None = None) -> dict:
    """Record `per_usd` units of `currency` per USD in `catalog.json` (atomic write), and
    mark the catalog `version` with it (see `versioned`).

    Args:
        data_dir: the catalog folder holding `catalog.json`.
        currency: ISO 4217 code, e.g. `CNY`.
        per_usd: units of `currency` per 1 USD, e.g. 7.12.
        as_of: ISO date the rate applies to; not in the future, at most 31 days old.
        source: where the rate comes from, e.g. `CFETS central parity`.

    Returns:
        The recorded entry.

    Raises:
        RateError: a bad currency code or one no catalog row is listed in, a rate that is not
            finite, positive and plausible, a bad date or source, or unreadable metadata.
    """
    _check_rate(data_dir, currency, per_usd)
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
    meta["version"] = versioned(str(meta.get("version", "unknown")), currency, entry)
    write_atomically(path, json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return entry


def _check_rate(data_dir: Path, currency: str, per_usd: float) -> None:
    """Refuse a currency no catalog row is listed in, and a rate that is not finite, not
    positive or not plausible (`MIN_PER_USD` to `MAX_PER_USD`)."""
    if not re.fullmatch(r"[A-Z]{3}", currency) or currency == "USD":
        raise RateError(f"currency: '{currency}' is not a 3-letter ISO code other than USD, e.g. CNY")
    try:
        listed = catalog_currencies(data_dir)
    except (OSError, ValueError, csv.Error) as exc:
        raise RateError(f"{data_dir}: cannot read the catalog files ({exc}); rebuild with `make catalog`") from None
    if currency not in listed:
        raise RateError(f"currency: no catalog offerings are listed in {currency}; currencies in the catalog: "
                        f"{', '.join(sorted(listed)) or 'none besides USD'}")
    if not math.isfinite(per_usd):
        raise RateError(f"rate: {per_usd} is not a finite number; give units of {currency} per 1 USD, e.g. 7.12")
    if not per_usd > 0:
        raise RateError(f"rate: {per_usd} must be a positive number of {currency} per USD, e.g. 7.12")
    if not MIN_PER_USD <= per_usd <= MAX_PER_USD:
        raise RateError(f"rate: {per_usd:g} {currency} per USD is not plausible (allowed {MIN_PER_USD:g} to "
                        f"{MAX_PER_USD:,}); give units of {currency} per 1 USD, e.g. 7.12")


def versioned(version: str, currency: str, entry: dict) -> str:
    """`version` with `+CUR<rate>@<date>` for `currency`, replacing an earlier suffix for it.

    >>> versioned("2026-11-29-a778555dbc+CNY7@2026-11-01", "CNY", {"per_usd": 7.12, "as_of": "2026-11-27"})
    '2026-11-29-a778555dbc+CNY7.12@2026-11-27'
    """
    base, *suffixes = version.split("+")
    kept = [s for s in suffixes if not s.startswith(currency)]
    return "+".join([base, *sorted([*kept, f"{currency}{entry['per_usd']:g}@{entry['as_of']}"])])


def catalog_currencies(data_dir: Path) -> set[str]:
    """Currencies other than USD that rows of the catalog files (`data_dir/*.csv`) are listed in."""
    found: set[str] = set()
    for path in sorted(data_dir.glob("*.csv")):
        with path.open(newline="", encoding="utf-8") as handle:
            reader = csv.reader(handle)
            header = next(reader, [])
            if "currency" in header:
                column = header.index("currency")
                found.update(row[column] for row in reader if len(row) > column)
    return found - {"", "USD"}


def refresh_rate(data_dir: Path, currency: str = "CNY", session=None, today: dt.date | None = None) -> dict:
    """Fetch the latest CFETS central parity for `currency` and record it (see `set_rate`).

    Args:
        data_dir: the catalog folder holding `catalog.json`.
        currency: `CNY` (CFETS quotes USD against CNY only).
        session: a `requests.Session` for the fetch, or None for a new one.
        today: the date the rate's age is measured from (default: today).

    Returns:
        The recorded entry, `{"per_usd", "as_of", "source"}`.

    Raises:
        FetchError: the CFETS answer could not be had or read (catalog unchanged).
        RateError: the fetched rate cannot be recorded, e.g. it is too old (catalog unchanged).
    """
    from profiles.catalog.fetchers.cfets import SOURCE, fetch_rate

    per_usd, as_of = fetch_rate(currency, session)
    age = ((today or dt.date.today()) - dt.date.fromisoformat(as_of)).days
    if age > MAX_AGE_DAYS:
        raise RateError(f"CFETS's latest central parity ({per_usd:g} {currency} per USD) is dated {as_of}, more than "
                        f"{MAX_AGE_DAYS} days ago; not recorded; record a current rate with `trainstack catalog set-rate`")
    try:
        return set_rate(data_dir, currency, per_usd, as_of, SOURCE, today=today)
    except RateError as exc:
        raise RateError(f"CFETS gave {per_usd:g} {currency} per USD as of {as_of}, not recorded: {exc}") from None
