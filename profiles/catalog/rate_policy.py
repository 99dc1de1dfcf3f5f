"""When a recorded exchange rate can be used, and when it only earns a warning.

A rate is used like a price: with its date shown. An old rate still converts (the CNY list
prices it converts are older still: china-prices.md dates them 2021-2024), and `resolve` and
`catalog info` warn once it is more than `RATE_WARN_AFTER_DAYS` old. Only a rate that cannot
be true is refused: not a finite positive number, outside `MIN_PER_USD`..`MAX_PER_USD`, or
dated in the future (beyond `RATE_MAX_DAYS_AHEAD`) or not dated at all.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from pathlib import Path
from typing import Any

from profiles.short_text import cited

# A rate older than this is used with a warning (china-clouds.md 2.6 asks for a limit; 31
# days is trainstack's choice: USD/CNY moved ~6.5% in the 15 months to May 2026, CP-R1/R2).
RATE_WARN_AFTER_DAYS = 31
# A rate may be dated this many days after the local date. It was dated in a timezone ahead
# of yours: CFETS publishes in Beijing time (UTC+8), so on a US evening its newest central
# parity already carries tomorrow's date. Any later date is a typo and is not used.
RATE_MAX_DAYS_AHEAD = 1
# Plausible units of any currency per USD (KWD about 0.3, IDR about 16,000); a rate outside
# is a typo, and an infinite one would price every offering at $0. `catalog set-rate` refuses
# such a rate and the loader does not use one written by hand.
MIN_PER_USD, MAX_PER_USD = 0.001, 1_000_000


def shown(value: object, limit: int = 40) -> str:
    """`value` as JSON on one line, cut to `limit` characters (for one-line messages)."""
    text = json.dumps(value, default=str)
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


def catalog_meta(path: Path, error: type[Exception]) -> dict[str, Any]:
    """The catalog's metadata `path` (`catalog.json`, which also records the exchange rates).

    Raises:
        error: `<path>: cannot read catalog metadata (...)` or `<path>: not a JSON object (...)`,
            each ending `rebuild with `make catalog``.
    """
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise error(f"{path}: cannot read catalog metadata ({exc}); rebuild with `make catalog`") from None
    if not isinstance(meta, dict):
        raise error(f"{path}: not a JSON object ({shown(meta)}); rebuild with `make catalog`")
    return meta


def rate_problem(entry: object, today: dt.date) -> str | None:
    """Why a recorded rate entry cannot be used on `today`, or None when it can.

    The phrase completes "the recorded USD/CNY rate ...". Usable is a dict whose `per_usd` is
    a real number (not a bool), finite and from `MIN_PER_USD` to `MAX_PER_USD`, and whose
    `as_of` is an ISO date at most `RATE_MAX_DAYS_AHEAD` ahead of `today` (however old:
    see `rate_age_warning`).
    """
    if not isinstance(entry, dict):
        return f"is not an entry with per_usd, as_of and source ({shown(entry)})"
    value_problem = _per_usd_problem(entry)
    if value_problem:
        return value_problem
    as_of = entry.get("as_of")
    try:
        if not isinstance(as_of, str):
            raise TypeError(as_of)  # what fromisoformat raises for a non-string
        age = (today - dt.date.fromisoformat(as_of)).days
    except (TypeError, ValueError):
        return f"has no valid date (as_of: {shown(as_of) if 'as_of' in entry else 'missing'}; write YYYY-MM-DD)"
    if age < -RATE_MAX_DAYS_AHEAD:
        return f"is dated {as_of}, in the future (today is {today.isoformat()})"
    return None


def rate_age_days(entry: dict, today: dt.date) -> int:
    """Days from a usable entry's `as_of` to `today` (negative when dated ahead)."""
    return (today - dt.date.fromisoformat(entry["as_of"])).days


def rate_age_warning(currency: str, entry: dict, today: dt.date) -> str:
    """One warning line when a usable rate is more than `RATE_WARN_AFTER_DAYS` old, else ""."""
    age = rate_age_days(entry, today)
    if age <= RATE_WARN_AFTER_DAYS:
        return ""
    return cited(
        (
            f"warning: CNY prices are converted at 1 USD = {entry['per_usd']:g} {currency} as of {entry['as_of']} "
            f"({age} days old; {entry.get('source')}); record a current rate with "
            f"`trainstack catalog refresh-rate {currency}` or `trainstack catalog set-rate {currency} RATE "
            "--as-of YYYY-MM-DD --source TEXT`"
        ).replace("CNY prices", f"{currency} prices")
    )


def _per_usd_problem(entry: dict) -> str | None:
    per_usd = entry.get("per_usd")
    if (
        not isinstance(per_usd, (int, float))
        or isinstance(per_usd, bool)  # JSON true is no rate
        or (isinstance(per_usd, float) and not math.isfinite(per_usd))
        or per_usd <= 0
    ):
        return f"is not a valid number (per_usd: {shown(per_usd) if 'per_usd' in entry else 'missing'})"
    if not MIN_PER_USD <= per_usd <= MAX_PER_USD:
        return f"is not plausible (per_usd: {shown(per_usd)}; allowed {MIN_PER_USD:g} to {MAX_PER_USD:,} per USD)"
    return None


def valid_per_usd(entry: object) -> bool:
    """True when `entry` is a dict whose `per_usd` is a plausible rate (its date aside)."""
    return isinstance(entry, dict) and _per_usd_problem(entry) is None


def usable_rates(rates: object, today: dt.date | None = None) -> tuple[dict, dict]:
    """Split recorded rates into those that can be used and the others, with why.

    Args:
        rates: `{"CNY": {"per_usd", "as_of", "source"}}` from `catalog.json`; anything
            that is not a dict (a hand edit) counts as no rates at all.
        today: the date to measure age against (default: today).

    Returns:
        `(usable, unusable)`: usable is a sub-dict of `rates`; unusable maps currency ->
        the phrase of `rate_problem` (a bad entry or per_usd, or a date in the future or
        missing).
    """
    today = today or dt.date.today()
    usable, unusable = {}, {}
    for currency, entry in rates.items() if isinstance(rates, dict) else ():
        problem = rate_problem(entry, today)
        if problem is None:
            usable[currency] = entry
        else:
            unusable[currency] = problem
    return usable, unusable
