"""Live price fetchers, one module per cloud, used by `trainstack catalog refresh`.

Contract: each module `profiles.catalog.fetchers.<provider>` exposes

    fetch(regions: Sequence[str] | None, progress: Callable[[str], None], **clients) -> list[Offering]

returning complete, priced `Offering` rows for GPU/accelerator instance types (prices for the
whole instance in USD/hour, reserved 1y/3y terms as amortized USD/hour where the API gives
them; `catalog_date` = today, `source` = the API, e.g. `aws-pricing-api`). A refresh
replaces, in the refreshed regions, only the rows of instance types the fetch returned. A fetcher raises `FetchError` with a one-line message on throttling,
partial or malformed answers, empty results and missing credentials; it never writes files.
Loading is separate (`profiles.catalog.loader`), and writing is `profiles.catalog.refresh`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from clouds.base import load
from clouds.registry import CLOUDS
from profiles.catalog.offering import Offering

# provider -> "module:function" (`Cloud.fetcher`)
FETCHERS: dict[str, str] = {name: c.fetcher for name, c in CLOUDS.items()}


class FetchError(RuntimeError):
    """A price API could not give a complete, valid answer (one-line message with the fix)."""


class FetchInputError(FetchError):
    """The request itself is wrong (an unknown `--regions` name): the command line needs fixing,
    not the network or the credentials (`trainstack catalog refresh` exits 2, not 1)."""


def fetcher_for(provider: str) -> Callable:
    """The `fetch` function of a provider's fetcher module (imported on first use).

    Raises:
        FetchError: unknown provider (the message lists the valid names).
    """
    target = FETCHERS.get(provider)
    if target is None:
        raise FetchError(f"unknown provider '{provider}'; valid: {', '.join(sorted(FETCHERS))}")
    return load(target)


def distinct_regions(
    regions: Sequence[str] | None, shape: re.Pattern[str], defaults: Sequence[str], wrong: str
) -> list[str]:
    """The region ids to ask, in order, each once: `regions`, or `defaults` when None or empty.

    Args:
        regions: the ids asked for (`--regions`).
        shape: the cloud's region-id pattern.
        defaults: the ids asked when none are given.
        wrong: the rest of the error for a bad id, after `'<id>' is not ` (`a Baidu region id;
            write it like bj`).

    Raises:
        FetchError: `'<id>' is not <wrong>` for the first id `shape` does not match.
    """
    for region in regions or ():
        if not shape.match(region):
            raise FetchError(f"'{region}' is not {wrong}")
    return list(dict.fromkeys(regions or defaults))


def priced(offerings: list[Offering], provider: str, progress: Callable[[str], None], empty: str) -> list[Offering]:
    """A fetch's result: `offerings` sorted by (type, region, zone), after the progress line
    `<provider>: N offerings priced`.

    Raises:
        FetchError: `empty` (one line with the fix) when there is no offering.
    """
    if not offerings:
        raise FetchError(empty)
    progress(f"{provider}: {len(offerings)} offerings priced")
    return sorted(offerings, key=lambda o: (o.instance_type, o.region, o.zone))


def positive_number(value: Any) -> float | None:
    """`value` as a finite number above 0 (a number, or a number sent as text; never a bool),
    else None."""
    try:
        number = math.nan if isinstance(value, bool) else float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) and number > 0 else None


def answer_list(answer: dict[str, Any], key: str, where: str, empty: str) -> list[dict[str, Any]]:
    """`answer[key]`, a non-empty list of objects.

    Raises:
        FetchError: `<where>: no '<key>' list (malformed answer); retry`, or `<where>: <empty>`
            for an empty list.
    """
    items = answer.get(key)
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise FetchError(f"{where}: no '{key}' list (malformed answer); retry")
    if not items:
        raise FetchError(f"{where}: {empty}")
    return items
