"""Load the project's catalog files (`data/<provider>.csv`) into `Offering` records.

Loading never trusts the files blindly: prices that are empty, zero, negative or not
numbers load as None ("unknown"), rows with no price at all are skipped, and a repeated
(provider, instance type, zone, accelerator) keeps its first row, so no "$0" offering can
ever win. The accelerator is part of the key because one GCP N1 host type (`n1-standard-8`)
is a T4, V100, P100 or P4 node depending on the GPUs attached.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
from dataclasses import dataclass, field
from pathlib import Path

from clouds.registry import NAMES
from profiles.catalog import compact
from profiles.catalog.offering import COLUMNS, HEADERS, Offering
from profiles.catalog.platform_rows import own_rows
from profiles.catalog.rate_policy import catalog_meta, rate_age_warning, usable_rates, valid_per_usd

DATA_DIR = Path(__file__).parent / "data"
PROVIDERS: tuple[str, ...] = NAMES  # one catalog file per registered cloud


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
        stale_rates: currency -> the `as_of` date of a recorded rate not used for its date
            (in the future, or not a date), for the currencies of `left_out`.
        unusable_rates: currency -> why its recorded rate is not used, a phrase completing
            "the recorded USD/CNY rate ..." (see `rate_policy.rate_problem`).
        today: the date ages were judged on (rates and prices).
        platform_rows: the managed platforms' own rows (`clouds.platforms.Platform.rows`:
            hardware only a platform sells, ModelArts Ascend pools), priced at `rates`; not
            catalog-file rows, so kept apart from `offerings` (`resolve` ranks both).
    """

    offerings: tuple[Offering, ...]
    version: str
    built: str
    rates: dict = field(default_factory=dict)
    left_out: dict = field(default_factory=dict)
    stale_rates: dict = field(default_factory=dict)
    unusable_rates: dict = field(default_factory=dict)
    today: dt.date = field(default_factory=dt.date.today)
    platform_rows: tuple[Offering, ...] = ()

    def rate_warnings(self) -> list[str]:
        """One line per rate in use that is more than `RATE_WARN_AFTER_DAYS` old."""
        return [
            line
            for currency, entry in sorted(self.rates.items())
            if (line := rate_age_warning(currency, entry, self.today))
        ]

    def price_warnings(self, providers: tuple[str, ...] | None = None) -> list[str]:
        """One line per cloud (of `providers`, default all) whose prices are older than 90 days
        or of unknown age, then one per old exchange rate when a CNY cloud is among them."""
        from profiles.catalog.freshness import stale_warnings

        lines = stale_warnings(self.offerings, providers, self.today)
        wanted = set(providers) if providers is not None else None
        if any(o.currency in self.rates and (wanted is None or o.provider in wanted) for o in self.offerings):
            lines += self.rate_warnings()
        return lines

    def left_out_reason(self, currency: str) -> str:
        """Why offerings listed in `currency` are left out, and the command that fixes it."""
        fix = (
            f"record one with `trainstack catalog refresh-rate {currency}` or `trainstack catalog set-rate "
            f"{currency} RATE --as-of YYYY-MM-DD --source TEXT`"
        )
        if currency in self.unusable_rates:
            return f"the recorded USD/{currency} rate {self.unusable_rates[currency]}; {fix}"
        return f"no USD/{currency} rate is recorded; {fix}"


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
    (
        provider,
        region,
        zone,
        instance_type,
        accelerator,
        count,
        acc_mem,
        form,
        vcpus,
        mem,
        interconnect,
        efa,
        gbps,
        on_demand,
        spot,
        date,
        source,
        reserved_1y,
        reserved_3y,
        currency,
        on_demand_native,
        spot_native,
        price_note,
    ) = row
    on_demand_price, spot_price = _price(on_demand), _price(spot)
    native = (_price(on_demand_native), _price(spot_native))
    if currency and currency != "USD":
        per_usd = (rates or {}).get(currency, {}).get("per_usd")
        on_demand_price, spot_price = (None if p is None or not per_usd else round(p / per_usd, 6) for p in native)
    if on_demand_price is None and spot_price is None and (require_usd or native == (None, None)):
        return None
    return Offering(
        provider,
        region,
        zone,
        instance_type,
        accelerator,
        int(count),
        _optional_float(acc_mem),
        form or None,
        _optional_float(vcpus),
        _optional_float(mem),
        interconnect or "ethernet",
        int(efa or 0),
        _optional_float(gbps),
        on_demand_price,
        spot_price,
        date,
        source,
        _price(reserved_1y),
        _price(reserved_3y),
        currency or "USD",
        *native,
        price_note,
    )


_CURRENCY = COLUMNS.index("currency")


def load_provider(
    path: Path, rates: dict | None = None, left_out: dict[str, int] | None = None, require_usd: bool = True
) -> list[Offering]:
    """Offerings of one catalog CSV file.

    Every header in `HEADERS` loads (older files lack the reserved and native-currency
    columns, which then load as None). Rows priced in another currency are converted to
    USD at `rates` (`{"CNY": {"per_usd": ...}}`); without a rate they are left out and
    counted per currency in `left_out` when given (`require_usd=False` keeps them, with
    their native prices only, for comparing catalog files).

    Raises:
        CatalogError: an unknown header, or a malformed row.
    """
    return parse_provider(path.read_text(encoding="utf-8"), path, rates, left_out, require_usd)


def every_row(path: Path) -> tuple[Offering, ...]:
    """`load_provider(path, require_usd=False)`: every row, priced in USD or not, from the
    file's compact copy (kind `rows`) when it matches, once per process for an unchanged file.

    Raises:
        OSError: the file cannot be read. CatalogError: it is malformed.
    """
    return compact.load(path, None, {}, _any_currency, kind="rows")


def _any_currency(text: str, path: Path, rates: dict | None, left_out: dict[str, int]) -> list[Offering]:
    return parse_provider(text, path, require_usd=False)


def parse_provider(
    text: str, path: Path, rates: dict | None = None, left_out: dict[str, int] | None = None, require_usd: bool = True
) -> list[Offering]:
    """`load_provider` of a catalog file's `text` (`path` names it in errors).

    Raises:
        CatalogError: an unknown header, or a malformed row.
    """
    reader = csv.reader(io.StringIO(text, newline=""))
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
        key = offering and (offering.provider, offering.instance_type, offering.zone, offering.accelerator)
        if offering is not None and key not in seen:
            seen.add(key)
            offerings.append(offering)
    return offerings


def load_catalog(
    data_dir: Path | None = None,
    providers: tuple[str, ...] | None = None,
    today: dt.date | None = None,
    write_compact: bool = False,
) -> Catalog:
    """Load the catalog of `providers` (default: every provider with a file in `data_dir`).

    `data_dir` defaults to `DATA_DIR`, looked up at call time (so tests can point it elsewhere).
    Each file's offerings come from its compact copy when that matches the file
    (`profiles.catalog.compact`; `write_compact` rewrites the copies, as `make catalog` does).

    Offerings listed in another currency are converted to USD at the recorded rate when it
    can be used on `today` (default: today; see `rate_policy.rate_problem`: an old rate is
    used, with `Catalog.rate_warnings`); otherwise they are left out and counted in
    `left_out` (see `Catalog.left_out_reason`).

    Raises:
        CatalogError: `catalog.json` is missing or not a JSON object, or a file is malformed.
    """
    data_dir = data_dir or DATA_DIR
    today = today or dt.date.today()
    meta_path = data_dir / "catalog.json"
    meta = catalog_meta(meta_path, CatalogError)
    recorded = meta.get("exchange_rates")
    rates, unusable = usable_rates(recorded, today)
    offerings: list[Offering] = []
    left_out: dict[str, int] = {}
    for provider in providers or PROVIDERS:
        path = data_dir / f"{provider}.csv"
        if path.exists():
            try:
                offerings.extend(compact.load(path, rates, left_out, parse_provider, write_compact))
            except OSError as exc:
                raise CatalogError(f"{path}: cannot read ({exc}); rebuild with `make catalog`") from None
    entries = recorded if isinstance(recorded, dict) else {}  # `unusable` is empty when it is not a dict
    stale = {
        c: str(entries[c].get("as_of") or "no date") for c in unusable if c in left_out and valid_per_usd(entries[c])
    }
    return Catalog(
        tuple(offerings),
        meta.get("version", "unknown"),
        meta.get("built", "unknown"),
        rates,
        left_out,
        stale,
        unusable,
        today,
        tuple(own_rows(providers or PROVIDERS, rates)),  # ModelArts Ascend pools: clouds.platforms
    )
