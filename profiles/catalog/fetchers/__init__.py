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

from collections.abc import Callable

from clouds.base import load
from clouds.registry import CLOUDS

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
