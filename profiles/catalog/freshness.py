"""How old a cloud's prices are, and the one warning line per cloud when they are too old.

Each catalog row carries the date its price was observed in `Offering.catalog_date`: an ISO
date (the live API's answer, or a dated source such as a third-party snapshot's commit), or
`unknown, extracted on YYYY-MM-DD` when the source records no date (the SkyPilot snapshots:
their commit dates are not known, `shared/reference-catalog/v8/README.md`). The extraction
date says when trainstack read the snapshot, never when the price was true.

`resolve`, `plan` and `catalog info` warn once per cloud whose prices are older than
`STALE_AFTER_DAYS` or of unknown age, with the command that refreshes them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import NamedTuple

# Prices older than this are warned about (trainstack's choice: list prices move within a
# quarter, e.g. AWS cut P5 on-demand prices by up to ~45% in mid-2025).
STALE_AFTER_DAYS = 90
UNKNOWN_PREFIX = "unknown, extracted on "


def unknown_date(extracted: str) -> str:
    """The `catalog_date` of a row whose source has no date: `unknown, extracted on D`.

    Args:
        extracted: ISO date the source was read (extracted), e.g. `2026-12-01`.
    """
    return f"{UNKNOWN_PREFIX}{extracted}"


def observed_on(catalog_date: str) -> dt.date | None:
    """The date a row's price was observed, or None when unknown or unreadable."""
    try:
        return dt.date.fromisoformat(catalog_date)
    except (TypeError, ValueError):
        return None


class CloudAge(NamedTuple):
    """How old one cloud's prices are.

    Attributes:
        provider: cloud registry name.
        oldest: the oldest known observation date among the rows, or None when no row has one.
        unknown: rows whose date is unknown (`unknown, extracted on D` or unreadable).
        extracted: the latest extraction date of the unknown-date rows ("" when none says).
        rows: rows counted.
    """

    provider: str
    oldest: dt.date | None
    unknown: int
    extracted: str
    rows: int

    def age_days(self, today: dt.date) -> int | None:
        """Days since the oldest known observation; None when no row has a date."""
        return None if self.oldest is None else (today - self.oldest).days

    def stale(self, today: dt.date) -> bool:
        """True when any row is of unknown age or older than `STALE_AFTER_DAYS`."""
        age = self.age_days(today)
        return bool(self.unknown) or (age is not None and age > STALE_AFTER_DAYS)

    def warning(self, today: dt.date) -> str:
        """One line: how old the prices are and the refresh command ("" when fresh)."""
        if not self.stale(today):
            return ""
        parts = []
        if self.unknown:
            when = f", extracted on {self.extracted}" if self.extracted else ""
            parts.append(f"of unknown date ({self.unknown} of {self.rows} rows; source snapshot undated{when})")
        age = self.age_days(today)
        if self.oldest is not None and age is not None and age > STALE_AFTER_DAYS:
            parts.append(f"observed as early as {self.oldest.isoformat()} ({age} days ago)")
        return (
            f"warning: {self.provider} prices are {' and '.join(parts)}, older than {STALE_AFTER_DAYS} days "
            f"or of unknown age; refresh with `trainstack catalog refresh --provider {self.provider}`"
        )


def cloud_ages(offerings: Iterable, providers: Iterable[str] | None = None) -> dict[str, CloudAge]:
    """Per cloud, the oldest observation date and the count of rows of unknown date.

    Args:
        offerings: `Offering`s (only `provider` and `catalog_date` are read).
        providers: count only these clouds (default: every cloud in `offerings`).

    Returns:
        provider -> `CloudAge`, sorted by provider.
    """
    wanted = None if providers is None else set(providers)
    dates: dict[str, dict[str, int]] = {}
    for offering in offerings:
        if wanted is None or offering.provider in wanted:
            per = dates.setdefault(offering.provider, {})
            per[offering.catalog_date] = per.get(offering.catalog_date, 0) + 1
    return {provider: _age(provider, dates[provider]) for provider in sorted(dates)}


def _age(provider: str, counts: dict[str, int]) -> CloudAge:
    known = [d for d in map(observed_on, counts) if d is not None]
    unknown = {text: n for text, n in counts.items() if observed_on(text) is None}
    extracted = max((t[len(UNKNOWN_PREFIX) :] for t in unknown if t.startswith(UNKNOWN_PREFIX)), default="")
    return CloudAge(provider, min(known) if known else None, sum(unknown.values()), extracted, sum(counts.values()))


def stale_warnings(
    offerings: Iterable, providers: Iterable[str] | None = None, today: dt.date | None = None
) -> list[str]:
    """One warning line per cloud whose prices are stale or of unknown age (see `CloudAge`).

    Args:
        offerings: the rows to judge (e.g. every row of the clouds a command shows).
        providers: judge only these clouds (default: all in `offerings`).
        today: the date ages are measured from (default: today).
    """
    today = today or dt.date.today()
    return [line for age in cloud_ages(offerings, providers).values() if (line := age.warning(today))]
