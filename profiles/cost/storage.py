"""The file system's cost beside each offering, like for like across clouds.

Each cloud's component rounds the requested capacity up to a size its service accepts
(`clouds.filesystems.created_file_system`), and that capacity is what is billed.
It is priced at the cloud's list price where one is recorded
(`clouds.storage_prices`, each cloud's own facts). Where none is, the row is never made cheaper by the
gap: it is ranked with an explicit estimate, the dearest recorded USD price for the same
throughput tier (else for the nearest higher tier, else the dearest of all) applied to the
capacity that cloud creates, and the row says so.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from clouds.filesystems import FileSystemAsk, created_file_system
from clouds.storage_prices import STORAGE_PRICES, storage_price
from facts.storage_prices import HOURS_PER_MONTH, StoragePrice

LIST, THIRD_PARTY, ESTIMATE = "list price", "third-party price", "estimate"


@dataclass(frozen=True)
class StorageCost:
    """The file system one cloud creates for the spec, and its price.

    Attributes:
        service: service and tier/SKU created, e.g. `Azure Managed Lustre AMLFS-Durable-Premium-250`.
        capacity_gib: capacity created (billed), GiB.
        usd_per_hour: price of that capacity, USD/hour.
        basis: `list price` (read off the provider), `third-party price` (a recorded
            third-party or derived figure, see `reference`) or `estimate` (no recorded price
            for this cloud: the dearest recorded one for the tier, see `reference`).
        reference: the recorded price used: source, region and date.
    """

    service: str
    capacity_gib: float
    usd_per_hour: float
    basis: str
    reference: str

    def usd(self, hours: float) -> float:
        """Cost of keeping the file system for `hours`, USD."""
        return self.usd_per_hour * hours

    def describe(self) -> str:
        """One line for the row: what is created, its price, and on what basis."""
        return _describe(self)


@functools.lru_cache(maxsize=1024)
def _describe(cost: StorageCost) -> str:
    """`StorageCost.describe`, once per file system priced (a resolve asks again for every row)."""
    return (
        f"file system: {cost.service} {cost.capacity_gib:,.0f} GiB, ${cost.usd_per_hour:,.2f}/h "
        f"({cost.basis}: {cost.reference})"
    )


def _usd_per_gib_month(price: StoragePrice, usd_per_cny: float | None) -> float | None:
    if price.currency == "USD":
        return price.per_gib_month()
    return None if usd_per_cny is None else price.per_gib_month() * usd_per_cny


def dearest_usd_price(mbps_per_tib: int) -> tuple[int, StoragePrice]:
    """The dearest USD-listed price for `mbps_per_tib`, else for the nearest higher tier,
    else the dearest of all: (tier, price). The basis of every storage estimate."""
    usd = [(tier, p) for (_, tier), p in STORAGE_PRICES.items() if p.currency == "USD"]
    same = [(t, p) for t, p in usd if t == mbps_per_tib]
    higher = [(t, p) for t, p in usd if t > mbps_per_tib]
    if same:
        return max(same, key=lambda tp: tp[1].per_gib_month())
    if higher:
        nearest = min(t for t, _ in higher)
        return max(((t, p) for t, p in higher if t == nearest), key=lambda tp: tp[1].per_gib_month())
    return max(usd, key=lambda tp: tp[1].per_gib_month())


@functools.lru_cache(maxsize=256)
def storage_cost(
    provider: str, capacity_gib: float, mbps_per_tib: int, usd_per_cny: float | None = None
) -> StorageCost | None:
    """The file system `provider` creates for the request and its USD/hour, or None when
    that cloud cannot create it.

    Args:
        provider: cloud name.
        capacity_gib: requested capacity, GiB (rounded up by the cloud's own rule).
        mbps_per_tib: requested throughput tier, MB/s per TiB.
        usd_per_cny: the catalog's recorded USD per CNY, for prices listed in CNY; without
            it such a price counts as unknown (estimate).
    """
    import math

    created = created_file_system(provider, FileSystemAsk(math.ceil(capacity_gib), mbps_per_tib))
    if created is None:
        return None
    price = storage_price(provider, mbps_per_tib)
    per_gib = None if price is None else _usd_per_gib_month(price, usd_per_cny)
    if price is not None and per_gib is not None:
        reference = price.describe()
        return StorageCost(
            created.service,
            created.capacity_gib,
            created.capacity_gib * per_gib / HOURS_PER_MONTH,
            THIRD_PARTY if price.estimate else LIST,
            reference,
        )
    tier, dearest = dearest_usd_price(mbps_per_tib)
    why = "no USD/CNY rate" if price is not None else f"no {provider} price"
    reference = (
        f"{why}; at the dearest recorded {tier} MB/s/TiB price, ${dearest.per_unit_month:.3f}/{dearest.unit}-month"
    )
    return StorageCost(
        created.service,
        created.capacity_gib,
        created.capacity_gib * dearest.per_gib_month() / HOURS_PER_MONTH,
        ESTIMATE,
        reference,
    )
