"""Exchange rates recorded in the catalog, for offerings listed in another currency.

A rate is recorded like a price, with its date and source. The committed catalog carries the
sourced, dated rate of china-prices.md (CP-R1: ECB cross rate 6.8012 as of 2026-05-08; see
`build.DEFAULT_RATE`); the user replaces it with a current one (`trainstack catalog
refresh-rate CNY`, or `trainstack catalog set-rate CNY 7.12 --as-of 2026-11-27 --source
"CFETS central parity"`). Without any rate, offerings priced in that currency are left out of
USD comparisons. An old rate is still used, with a warning (`rate_policy`); only an
implausible or future-dated one is refused.

Recording a rate changes the catalog version (`<base>+CNY7.12@2026-11-27`), so a stack
resolved before the rate shows as priced with an older catalog. A recorded rate is never
replaced by an older one unless asked (`force`).
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import math
import re
from pathlib import Path

from profiles.catalog.rate_policy import MAX_PER_USD, MIN_PER_USD, catalog_meta, rate_problem, shown, valid_per_usd
from profiles.catalog.rate_policy import RATE_MAX_DAYS_AHEAD as MAX_DAYS_AHEAD
from profiles.files import write_atomically


class RateError(ValueError):
    """A rate cannot be recorded (one-line message naming the field and the fix)."""


def set_rate(
    data_dir: Path,
    currency: str,
    per_usd: float,
    as_of: str,
    source: str,
    today: dt.date | None = None,
    force: bool = False,
) -> dict:
    """Record `per_usd` units of `currency` per USD in `catalog.json` (atomic write), and
    mark the catalog `version` with it (see `versioned`).

    A recorded entry that cannot be used (hand-edited: not a number, say) is replaced, and
    so is an `exchange_rates` value that is not a map.

    Args:
        data_dir: the catalog folder holding `catalog.json`.
        currency: ISO 4217 code in capitals, e.g. `CNY`.
        per_usd: units of `currency` per 1 USD, e.g. 7.12.
        as_of: ISO date the rate applies to; at most 1 day after `today` (a rate dated in a
            timezone ahead of yours, see `RATE_MAX_DAYS_AHEAD`). An old date is accepted: the
            rate is then used with a warning showing its age.
        source: where the rate comes from, e.g. `CFETS central parity`.
        today: the local date `as_of` is measured from (default: today).
        force: replace a usable recorded rate dated after `as_of`.

    Returns:
        The recorded entry.

    Raises:
        RateError: no `catalog.json` in `data_dir` or unreadable metadata, a bad currency
            code or one no catalog row is listed in, a rate that is not finite, positive and
            plausible, a bad or future date or source, or (without `force`) a recorded rate
            dated later than `as_of`.
    """
    meta = _read_meta(data_dir)
    _check_rate(data_dir, currency, per_usd)
    today = today or dt.date.today()
    day = _check_date(as_of, today)
    if not source.strip():
        raise RateError("--source: say where the rate comes from, e.g. 'CFETS central parity'")
    rates = meta.get("exchange_rates")
    if not isinstance(rates, dict):
        rates = meta["exchange_rates"] = {}  # missing, or a hand edit that is not a map
    recorded = rates.get(currency)
    # rate_problem is None only for a dict; the isinstance says so to the type checker
    if (
        not force
        and isinstance(recorded, dict)
        and rate_problem(recorded, today) is None
        and dt.date.fromisoformat(recorded["as_of"]) > day
    ):
        raise RateError(
            f"--as-of: {as_of} is older than the recorded rate ({describe(currency, recorded)}); "
            "keep that one, or pass --force to replace it"
        )
    entry = {"per_usd": per_usd, "as_of": as_of, "source": source.strip()}
    rates[currency] = entry
    meta["version"] = versioned(str(meta.get("version", "unknown")), currency, entry)
    write_atomically(data_dir / "catalog.json", json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return entry


def _read_meta(data_dir: Path) -> dict:
    """The metadata of the catalog folder `data_dir`, checked to be there and a JSON object."""
    path = data_dir / "catalog.json"
    if not path.is_file():
        raise RateError(
            f"--data-dir: {data_dir} holds no catalog.json; give the catalog folder (default profiles/catalog/data)"
        )
    return catalog_meta(path, RateError)


def _check_date(as_of: str, today: dt.date) -> dt.date:
    """`as_of` as a date, refused when not a date or in the future (an old date is fine)."""
    try:
        day = dt.date.fromisoformat(as_of)
    except ValueError:
        raise RateError(f"--as-of: '{as_of}' is not a date; write YYYY-MM-DD") from None
    age = (today - day).days
    if age < -MAX_DAYS_AHEAD:
        raise RateError(
            f"--as-of: {as_of} is in the future (today is {today.isoformat()}; a rate may be dated at "
            f"most {MAX_DAYS_AHEAD} day ahead); give the date the rate applies to"
        )
    return day


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
        raise RateError(
            f"currency: no catalog offerings are listed in {currency}; currencies in the catalog: "
            f"{', '.join(sorted(listed)) or 'none besides USD'}"
        )
    if isinstance(per_usd, bool) or not isinstance(per_usd, (int, float)):
        raise RateError(f"rate: {per_usd!r} is not a number; give units of {currency} per 1 USD, e.g. 7.12")
    if not math.isfinite(per_usd):
        raise RateError(f"rate: {per_usd} is not a finite number; give units of {currency} per 1 USD, e.g. 7.12")
    if not per_usd > 0:
        raise RateError(f"rate: {per_usd} must be a positive number of {currency} per USD, e.g. 7.12")
    if not MIN_PER_USD <= per_usd <= MAX_PER_USD:
        raise RateError(
            f"rate: {per_usd:g} {currency} per USD is not plausible (allowed {MIN_PER_USD:g} to "
            f"{MAX_PER_USD:,}); give units of {currency} per 1 USD, e.g. 7.12"
        )


def versioned(version: str, currency: str, entry: dict) -> str:
    """`version` with `+CUR<rate>@<date>` for `currency`, replacing an earlier suffix for it.

    >>> versioned("2026-11-29-a778555dbc+CNY7@2026-11-01", "CNY", {"per_usd": 7.12, "as_of": "2026-11-27"})
    '2026-11-29-a778555dbc+CNY7.12@2026-11-27'
    """
    base, *suffixes = version.split("+")
    kept = [s for s in suffixes if not s.startswith(currency)]
    return "+".join([base, *sorted([*kept, f"{currency}{entry['per_usd']:g}@{entry['as_of']}"])])


def versioned_with(version: str, rates: object) -> str:
    """`version` with a `+CUR<rate>@<date>` suffix for every rate in `rates` (catalog.json's
    `exchange_rates`) that holds a plausible number, used or not, so that two catalogs
    pricing a currency differently never share a version (`make catalog`, `catalog refresh`).

    >>> versioned_with("2026-11-29-a778555dbc", {"CNY": {"per_usd": 7.12, "as_of": "2026-11-29"}, "JPY": "x"})
    '2026-11-29-a778555dbc+CNY7.12@2026-11-29'
    """
    for currency, entry in sorted(rates.items()) if isinstance(rates, dict) else ():
        if valid_per_usd(entry):
            version = versioned(version, currency, {**entry, "as_of": str(entry.get("as_of") or "undated")})
    return version


def describe(currency: str, entry: object) -> str:
    """`1 USD = 7.12 CNY as of 2026-11-27 (SOURCE)`, or what a broken entry holds."""
    if isinstance(entry, dict) and valid_per_usd(entry):
        return f"1 USD = {entry['per_usd']} {currency} as of {entry.get('as_of')} ({entry.get('source')})"
    return f"an unusable {currency} entry ({shown(entry)})"


def previous_rate(data_dir: Path, currency: str) -> str:
    """What `catalog.json` records for `currency` now (see `describe`); "" for nothing."""
    try:
        rates = json.loads((data_dir / "catalog.json").read_text(encoding="utf-8")).get("exchange_rates")
    except (OSError, ValueError, AttributeError):
        return ""
    if rates is None or (isinstance(rates, dict) and currency not in rates):
        return ""
    if not isinstance(rates, dict):
        return f"exchange_rates {shown(rates)}, which is not a map of currencies"
    return describe(currency, rates[currency])


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


class KeptRate(dict):
    """The recorded entry `refresh_rate` kept because it is newer than CFETS's latest.

    Equal to the entry in `catalog.json`; `latest` and `latest_per_usd` are CFETS's date and rate.
    """

    def __init__(self, entry: dict, latest: str, latest_per_usd: float) -> None:
        super().__init__(entry)
        self.latest, self.latest_per_usd = latest, latest_per_usd


def refresh_rate(data_dir: Path, currency: str = "CNY", session=None, today: dt.date | None = None) -> dict:
    """Fetch the latest CFETS central parity for `currency` and record it (see `set_rate`).

    A usable recorded rate dated after CFETS's latest (recorded by hand, say) is kept.

    Args:
        data_dir: the catalog folder holding `catalog.json` (checked before the fetch).
        currency: `CNY` (CFETS quotes USD against CNY only).
        session: a `requests.Session` for the fetch, or None for a new one.
        today: the date the rate's age is measured from (default: today).

    Returns:
        The recorded entry, `{"per_usd", "as_of", "source"}`, or a `KeptRate` when the
        recorded rate is newer than CFETS's (the catalog is then unchanged).

    Raises:
        FetchError: the CFETS answer could not be had or read (catalog unchanged).
        RateError: no catalog in `data_dir`, or the fetched rate cannot be recorded, e.g. it
            is implausible or dated in the future (catalog unchanged).
    """
    from profiles.catalog.fetchers.cfets import SOURCE, fetch_rate

    _read_meta(data_dir)  # a wrong --data-dir is said before any request
    today = today or dt.date.today()
    per_usd, as_of = fetch_rate(currency, session)
    day = dt.date.fromisoformat(as_of)
    rates = _read_meta(data_dir).get("exchange_rates")
    recorded = rates.get(currency) if isinstance(rates, dict) else None
    if (
        isinstance(recorded, dict)
        and rate_problem(recorded, today) is None
        and dt.date.fromisoformat(recorded["as_of"]) > day
    ):
        return KeptRate(recorded, as_of, per_usd)
    try:
        return set_rate(data_dir, currency, per_usd, as_of, SOURCE, today=today)
    except RateError as exc:
        raise RateError(f"CFETS gave {per_usd:g} {currency} per USD as of {as_of}, not recorded: {exc}") from None
