"""CPFS list prices by MB/s per TiB tier (`FileSystemRule.prices`).

Source (id from `shared/reference-facts/china-clouds.md`):
  AL1  Alibaba Cloud, CPFS "计费案例" (billing examples), help.aliyun.com/zh/cpfs/cpfsonecs/
       product-overview/billing-examples (official; "for reference, the purchase page is
       authoritative"): a 200 MB/s/TiB-baseline CPFS in 华东1 (cn-hangzhou), pay-as-you-go,
       "3600 GiB x 1.4 元/GiB/月" for October 2021. The page shows no update date, so the
       example's own month (2021-10) is the observation date. No figure for the 100 MB/s/TiB
       baseline was found (no row: priced by estimate).
"""

from __future__ import annotations

from facts.storage_prices import StoragePrice

PRICES: dict[int, StoragePrice] = {
    200: StoragePrice(
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
}
