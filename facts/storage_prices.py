"""List prices of the parallel file systems trainstack creates, with source and date.

One row per (provider, MB/s per TiB tier). A cloud or tier with no row has no price
trainstack could source; the resolver then ranks it with an explicit estimate
(`profiles.cost.storage`), never as free.

The rows are each cloud's own facts, `clouds/<cloud>/storage_prices.py` (named by its
`FileSystemRule.prices`), with their sources; `clouds.storage_prices` gathers them by
(provider, tier). This module holds the record and the units.

Not found (no row, priced by estimate), after searching the stored pricing pages and docs on
2026-12-01: Azure Managed Lustre (storage.md: "unsourced" for every SKU; the pricing page
renders its prices with JavaScript), GCP Filestore ZONAL and Managed Lustre (only Basic HDD is
priced, C3, which trainstack never creates), Alibaba CPFS at 100 MB/s/TiB, Tencent CFS Turbo
(its billing pages state the basis, purchased capacity per hour, not the unit price),
Volcengine vePFS, FSx 500/1000 in any region as a provider figure (see each cloud's module).
"""

from __future__ import annotations

from typing import NamedTuple

GB_PER_GIB = 2**30 / 1e9
HOURS_PER_MONTH = 730.0  # the clouds' billing month for monthly list prices


class StoragePrice(NamedTuple):
    """One file-system list price.

    Attributes:
        service: the service as the provider names it.
        per_unit_month: price per `unit` of provisioned capacity per month, in `currency`.
        currency: `USD` or `CNY`.
        unit: `GB` (10^9 bytes) or `GiB` (2^30 bytes), as the provider bills.
        region: the region the price was read for.
        source: source id(s), see the module docstring (a citation, shown as `[source F5]`).
        observed: when the price was observed (the source's own date), or `undated`.
        estimate: True when derived or third-party rather than read off the provider.
        basis: what the figure is and when it was seen, in words a user reads ("a
            third-party cost estimator's price, undated"); "" shows the date and the source id.
    """

    service: str
    per_unit_month: float
    currency: str
    unit: str
    region: str
    source: str
    observed: str
    estimate: bool
    basis: str = ""

    def describe(self) -> str:
        """`0.217 USD/GB-month in us-east-1: WHAT IT IS AND WHEN [source F5, FJ1]` (without a
        `basis`: `..., observed DATE [source ID]`)."""
        when = f": {self.basis}" if self.basis else f", observed {self.observed}"
        return (
            f"{self.per_unit_month:.3f} {self.currency}/{self.unit}-month in {self.region}{when} [source {self.source}]"
        )

    def per_gib_month(self) -> float:
        """Price per GiB-month in `currency`."""
        return self.per_unit_month * (GB_PER_GIB if self.unit == "GB" else 1.0)
