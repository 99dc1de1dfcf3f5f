"""List prices of the parallel file systems trainstack creates, with source and date.

One row per (provider, MB/s per TiB tier). A cloud or tier with no row has no price
trainstack could source; the resolver then ranks it with an explicit estimate
(`profiles.cost.storage`), never as free.

Sources (ids from `shared/reference-facts/storage.md` and `china-clouds.md`):
  F5   c3x.dev aws_fsx_lustre_file_system cost estimator (third-party, undated page read for
       storage.md by 2026-11-29): FSx for Lustre SSD, 125 MB/s/TiB, ~$0.145 per GB-month,
       us-east-1.
  FJ1  DevelopersIO (Classmethod) "FSx for Lustre Persistent 2 のスペック別利用料金", dated
       2022-09-03 (third-party): PERSISTENT_2 prices per hour in ap-northeast-1 for 9.6 TiB:
       125 -> $2.48, 250 -> $3.71, 500 -> $6.19, 1000 -> $11.16. Only the ratios between
       tiers are used here: 250, 500 and 1000 MB/s/TiB in us-east-1 are F5's 125 price x
       (3.71, 6.19, 11.16) / 2.48, an estimate (storage.md's own unsourced guesses,
       0.210 / 0.340 / 0.600, are lower; the higher figure is kept so no row is cheaper for
       a guess).
  H1   china-clouds.md section 4: Huawei SFS Turbo HPC, third-party citing the official
       price page (2026-07, cn-north-4, per month): 40 MB/s/TiB 0.40 CNY/GB, 125 -> 0.90,
       250 -> 1.31.
  AL1  Alibaba Cloud, CPFS "计费案例" (billing examples), help.aliyun.com/zh/cpfs/cpfsonecs/
       product-overview/billing-examples (official; "for reference, the purchase page is
       authoritative"): a 200 MB/s/TiB-baseline CPFS in 华东1 (cn-hangzhou), pay-as-you-go,
       "3600 GiB x 1.4 元/GiB/月" for October 2021. The page shows no update date, so the
       example's own month (2021-10) is the observation date. No figure for the 100 MB/s/TiB
       baseline was found.
Not found (no row, priced by estimate), after searching the stored pricing pages and docs on
2026-12-01: Azure Managed Lustre (storage.md: "unsourced" for every SKU; the pricing page
renders its prices with JavaScript), GCP Filestore ZONAL and Managed Lustre (only Basic HDD is
priced, C3, which trainstack never creates), Alibaba CPFS at 100 MB/s/TiB, Tencent CFS Turbo
(its billing pages state the basis, purchased capacity per hour, not the unit price),
Volcengine vePFS, FSx 500/1000 in any region as a provider figure.
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


_FSX = "FSx for Lustre PERSISTENT_2 SSD"
_FSX_125 = 0.145
_FJ1_HOURLY = {125: 2.48, 250: 3.71, 500: 6.19, 1000: 11.16}


def _fsx(tier: int) -> StoragePrice:
    if tier == 125:
        basis = "a third-party cost estimator's price, undated"
        return StoragePrice(_FSX, _FSX_125, "USD", "GB", "us-east-1", "F5", "undated", True, basis)
    derived = _FSX_125 * _FJ1_HOURLY[tier] / _FJ1_HOURLY[125]
    basis = f"the undated 125 MB/s/TiB price x the {tier}/125 ratio of a third-party tier table dated 2022-09-03"
    return StoragePrice(_FSX, derived, "USD", "GB", "us-east-1", "F5, FJ1", "2022-09-03", True, basis)


def _huawei(per_gb: float) -> StoragePrice:
    basis = "a third-party copy of the official price page, 2026-07"
    return StoragePrice("SFS Turbo HPC", per_gb, "CNY", "GB", "cn-north-4", "H1", "2026-07", True, basis)


STORAGE_PRICES: dict[tuple[str, int], StoragePrice] = {
    ("alicloud", 200): StoragePrice(
        "CPFS advance_200",
        1.4,
        "CNY",
        "GiB",
        "cn-hangzhou",
        "AL1",
        "2021-10",
        False,
        "Alibaba's official billing example for 2021-10",
    ),
    **{("aws", tier): _fsx(tier) for tier in (125, 250, 500, 1000)},
    ("huaweicloud", 40): _huawei(0.40),
    ("huaweicloud", 125): _huawei(0.90),
    ("huaweicloud", 250): _huawei(1.31),
}


def storage_price(provider: str, mbps_per_tib: int) -> StoragePrice | None:
    """The list price of `provider`'s file system at `mbps_per_tib`, or None when unsourced."""
    return STORAGE_PRICES.get((provider, mbps_per_tib))
