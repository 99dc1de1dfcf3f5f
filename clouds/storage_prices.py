"""File-system list prices by (provider, MB/s per TiB tier), gathered from each cloud's own
facts (`FileSystemRule.prices`; record and units in `facts.storage_prices`).

A cloud or tier with no row has no price trainstack could source; `profiles.cost.storage`
then ranks it with an explicit estimate, never as free.
"""

from __future__ import annotations

from clouds.base import load
from clouds.registry import CLOUDS
from facts.storage_prices import StoragePrice

STORAGE_PRICES: dict[tuple[str, int], StoragePrice] = {
    (name, tier): price
    for name, found in CLOUDS.items()
    if found.file_system is not None and found.file_system.prices is not None
    for tier, price in load(found.file_system.prices).items()
}


def storage_price(provider: str, mbps_per_tib: int) -> StoragePrice | None:
    """The list price of `provider`'s file system at `mbps_per_tib`, or None when unsourced."""
    return STORAGE_PRICES.get((provider, mbps_per_tib))
