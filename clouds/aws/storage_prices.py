"""FSx for Lustre list prices by MB/s per TiB tier (`FileSystemRule.prices`).

Sources (ids from `shared/reference-facts/storage.md`):
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
Not found: FSx 500/1000 MB/s/TiB in any region as a provider figure.
"""

from __future__ import annotations

from facts.storage_prices import StoragePrice

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


PRICES: dict[int, StoragePrice] = {tier: _fsx(tier) for tier in (125, 250, 500, 1000)}
