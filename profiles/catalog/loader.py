"""Load the project's catalog files (`data/<provider>.csv`) into `Offering` records.

Loading never trusts the files blindly: prices that are empty, zero, negative or not
numbers load as None ("unknown"), rows with no price at all are skipped, and a repeated
(provider, instance type, zone) keeps its first row, so no "$0" offering can ever win.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from profiles.catalog.offering import COLUMNS, HEADERS, Offering

DATA_DIR = Path(__file__).parent / "data"
PROVIDERS: tuple[str, ...] = (
    "aws", "azure", "gcp", "alicloud", "tencentcloud", "huaweicloud", "volcengine", "baiducloud",
)


class CatalogError(ValueError):
    """The catalog files are missing or malformed (message says which file and why)."""


@dataclass(frozen=True)
class Catalog:
    """Loaded offerings plus the catalog's identity.

    Attributes:
        offerings: every priced offering of the loaded providers.
        version: catalog version string (build date and content hash).
        built: ISO date the catalog was built.
        rates: recorded exchange rates in use, `{"CNY": {"per_usd", "as_of", "source"}}`.
        left_out: currency -> rows left out because no usable USD rate is recorded for it.
        stale_rates: currency -> the `as_of` date of a recorded rate too old to use
            (older than `RATE_MAX_AGE_DAYS`, or not a date).
    """

    offerings: tuple[Offering, ...]
    version: str
    built: str
    rates: dict = field(default_factory=dict)
    left_out: dict = field(default_factory=dict)
    stale_rates: dict = field(default_factory=dict)

    def left_out_reason(self, currency: str) -> str:
        """Why offerings listed in `currency` are left out, and the command that fixes it."""
        fix = (f"record one with `trainstack catalog refresh-rate {currency}` or `trainstack catalog set-rate "
               f"{currency} RATE --as-of YYYY-MM-DD --source TEXT`")
        if currency in self.stale_rates:
            return (f"the recorded USD/{currency} rate (as of {self.stale_rates[currency]}) is more than "
                    f"{RATE_MAX_AGE_DAYS} days old; {fix}")
        return f"no USD/{currency} rate is recorded; {fix}"


# A recorded exchange rate older than this is not used: prices in its currency are left out
# rather than converted at a rate that may have moved (china-clouds.md 2.6 asks for a limit;
# 31 days is trainstack's choice, the same window `catalog set-rate` accepts).
RATE_MAX_AGE_DAYS = 31


def usable_rates(rates: dict, today: dt.date | None = None) -> tuple[dict, dict]:
    """Split recorded rates into those young enough to use and the stale ones.

    Args:
        rates: `{"CNY": {"per_usd", "as_of", "source"}}` from `catalog.json`.
        today: the date to measure age against (default: today).

    Returns:
        `(usable, stale)`: usable is a sub-dict of `rates`; stale maps currency -> `as_of`
        for rates older than `RATE_MAX_AGE_DAYS` days, dated in the future, or undated.
    """
    today = today or dt.date.today()
    usable, stale = {}, {}
    for currency, entry in rates.items():
        as_of = str(entry.get("as_of", ""))
        try:
            age = (today - dt.date.fromisoformat(as_of)).days
        except ValueError:
            age = -1
        if 0 <= age <= RATE_MAX_AGE_DAYS:
            usable[currency] = entry
        else:
            stale[currency] = as_of or "no date"
    return usable, stale


def _price(text: str) -> float | None:
    try:
        value = float(text) if text else math.nan
    except ValueError:
        return None
    return value if math.isfinite(value) and value > 0 else None


def _optional_float(text: str) -> float | None:
    try:
        return float(text) if text else None
    except ValueError:
        return None


def _row_to_offering(row: list[str], rates: dict | None = None, require_usd: bool = True) -> Offering | None:
    """One CSV row -> Offering; None when it has no price in USD (after conversion), or,
    with `require_usd=False`, no price in any currency."""
    if len(row) > len(COLUMNS):
        raise ValueError(f"{len(row)} fields, expected at most {len(COLUMNS)}")
    row = row + [""] * (len(COLUMNS) - len(row))  # older files lack the later columns
    (provider, region, zone, instance_type, accelerator, count, acc_mem, form, vcpus, mem,
     interconnect, efa, gbps, on_demand, spot, date, source, reserved_1y, reserved_3y,
     currency, on_demand_native, spot_native, price_note) = row
    on_demand_price, spot_price = _price(on_demand), _price(spot)
    native = (_price(on_demand_native), _price(spot_native))
    if currency and currency != "USD":
        per_usd = (rates or {}).get(currency, {}).get("per_usd")
        on_demand_price, spot_price = (None if p is None or not per_usd else round(p / per_usd, 6) for p in native)
    if on_demand_price is None and spot_price is None and (require_usd or native == (None, None)):
        return None
    return Offering(
        provider, region, zone, instance_type, accelerator, int(count),
        _optional_float(acc_mem), form or None, _optional_float(vcpus), _optional_float(mem),
        interconnect or "ethernet", int(efa or 0), _optional_float(gbps),
        on_demand_price, spot_price, date, source, _price(reserved_1y), _price(reserved_3y),
        currency or "USD", *native, price_note,
    )


_CURRENCY = COLUMNS.index("currency")


def load_provider(path: Path, rates: dict | None = None, left_out: dict[str, int] | None = None,
                  require_usd: bool = True) -> list[Offering]:
    """Offerings of one catalog CSV file.

    Every header in `HEADERS` loads (older files lack the reserved and native-currency
    columns, which then load as None). Rows priced in another currency are converted to
    USD at `rates` (`{"CNY": {"per_usd": ...}}`); without a rate they are left out and
    counted per currency in `left_out` when given (`require_usd=False` keeps them, with
    their native prices only, for comparing catalog files).

    Raises:
        CatalogError: an unknown header, or a malformed row.
    """
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        if tuple(next(reader, ())) not in HEADERS:
            raise CatalogError(f"{path}: unexpected header; rebuild with `make catalog`")
        offerings, seen = [], set()
        for line, row in enumerate(reader, start=2):
            try:
                offering = _row_to_offering(row, rates, require_usd)
            except (ValueError, TypeError) as exc:
                raise CatalogError(f"{path}:{line}: malformed row ({exc}); rebuild with `make catalog`") from None
            if offering is None and left_out is not None and len(row) > _CURRENCY:
                currency = row[_CURRENCY]
                if currency not in ("", "USD") and not (rates or {}).get(currency, {}).get("per_usd"):
                    left_out[currency] = left_out.get(currency, 0) + 1
            key = offering and (offering.provider, offering.instance_type, offering.zone)
            if offering is not None and key not in seen:
                seen.add(key)
                offerings.append(offering)
    return offerings


def load_catalog(data_dir: Path = DATA_DIR, providers: tuple[str, ...] | None = None,
                 today: dt.date | None = None) -> Catalog:
    """Load the catalog of `providers` (default: every provider with a file in `data_dir`).

    Offerings listed in another currency are converted to USD at the recorded rate when it
    is at most `RATE_MAX_AGE_DAYS` old on `today` (default: today); otherwise they are left
    out and counted in `left_out` (see `Catalog.left_out_reason`).

    Raises:
        CatalogError: `catalog.json` is missing, or a file is malformed.
    """
    meta_path = data_dir / "catalog.json"
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CatalogError(f"{meta_path}: cannot read catalog metadata ({exc}); rebuild with `make catalog`") from None
    rates, stale = usable_rates(meta.get("exchange_rates", {}), today)
    offerings: list[Offering] = []
    left_out: dict[str, int] = {}
    for provider in providers or PROVIDERS:
        path = data_dir / f"{provider}.csv"
        if path.exists():
            offerings.extend(load_provider(path, rates, left_out))
    return Catalog(tuple(offerings), meta.get("version", "unknown"), meta.get("built", "unknown"), rates, left_out,
                   {c: d for c, d in stale.items() if c in left_out})
