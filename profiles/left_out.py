"""Which of the offerings left out of USD comparisons (listed in CNY with no usable rate)
could have fitted a spec: a "no offering matches" error mentions the missing rate only then.
"""

from __future__ import annotations

from collections.abc import Iterable

from profiles.catalog import loader
from profiles.catalog.offering import Offering
from profiles.resolver import static_failures
from profiles.spec import WorkloadSpec


def unpriced_rows(currencies: Iterable[str], providers: Iterable[str] = loader.PROVIDERS) -> list[Offering]:
    """Catalog rows listed in one of `currencies` with no USD price (the rows left out)."""
    wanted = set(currencies)
    rows: list[Offering] = []
    for provider in providers:
        path = loader.DATA_DIR / f"{provider}.csv"
        if wanted and path.is_file():
            rows += [
                o
                for o in loader.load_provider(path, require_usd=False)
                if o.currency in wanted and o.on_demand_usd_per_hour is None and o.spot_usd_per_hour is None
            ]
    return rows


def fitting(spec: WorkloadSpec, rows: Iterable[Offering]) -> dict[str, int]:
    """currency -> how many of `rows` fail nothing in `spec` but their missing USD price.

    A row fits when its provider, region, jurisdiction, accelerator, GPU count, GPU memory,
    fabric and file system all suit the spec (`profiles.resolver.static_failures`).
    """
    names = {n.casefold() for n in spec.accelerators}
    counts: dict[str, int] = {}
    for row in rows:
        if names and row.accelerator.casefold() not in names:
            continue
        if set(static_failures(spec, frozenset(), row)) <= {"price"}:
            counts[row.currency] = counts.get(row.currency, 0) + 1
    return counts
