"""SFS Turbo HPC list prices by MB/s per TiB tier (`FileSystemRule.prices`).

Source (id from `shared/reference-facts/china-clouds.md`):
  H1   china-clouds.md section 4: Huawei SFS Turbo HPC, third-party citing the official
       price page (2026-07, cn-north-4, per month): 40 MB/s/TiB 0.40 CNY/GB, 125 -> 0.90,
       250 -> 1.31.
"""

from __future__ import annotations

from facts.storage_prices import StoragePrice


def _turbo(per_gb: float) -> StoragePrice:
    basis = "a third-party copy of the official price page, 2026-07"
    return StoragePrice("SFS Turbo HPC", per_gb, "CNY", "GB", "cn-north-4", "H1", "2026-07", True, basis)


PRICES: dict[int, StoragePrice] = {40: _turbo(0.40), 125: _turbo(0.90), 250: _turbo(1.31)}
