"""Tencent Cloud GPU offerings from Tencent's own undated list-price table
(`data/tencentcloud_payg_cny.csv`, china-prices.md section 2.1, CP-T1..T17).

The table is official but shows no date (probably 2021 or earlier) and one price for all of
mainland China, so every row is an estimate: priced in CNY (converted at load time with the
catalog's recorded USD/CNY rate), dated `unknown, extracted on EXTRACTED` (the day
china-prices.md was collected), and listed in each mainland region the CVM price API serves
(`REGIONS`, as the Tencent fetcher asks) with `zone` repeating the region: which zones sell
a type is not in the table (a stack keeps its own zone; `trainstack check` confirms it). No
spot prices (china-prices.md section 8: not found).
"""

from __future__ import annotations

import csv
from pathlib import Path

from facts.accelerators import form_factor
from profiles.catalog.freshness import unknown_date
from profiles.catalog.offering import Offering

SNAPSHOT = Path(__file__).parent / "data" / "tencentcloud_payg_cny.csv"
EXTRACTED = "2026-12-01"  # china-prices.md: "Collected 2026-12-01"
REGIONS = ("ap-beijing", "ap-chengdu", "ap-chongqing", "ap-guangzhou", "ap-nanjing", "ap-shanghai")
SOURCE = "tencentyun/qcloud-documents@8ec0729 (official list-price table, undated)"
META = {
    "repository": "github.com/tencentyun/qcloud-documents",
    "files": {
        "product/计算与网络/GPU 云服务器/购买指导/价格总览.md": {
            "commit": "8ec0729",
            "date": "unknown",
            "extracted": EXTRACTED,
        }
    },
    "facts": "shared/reference-facts/china-prices.md section 2.1 (CP-T1..T17)",
    "currency": "CNY",
}


def note(price_id: str) -> str:
    """The estimate flag of one row."""
    return (
        f"estimate: Tencent's undated official list price for mainland China (china-prices.md {price_id}), "
        "not per region; re-check with `trainstack catalog refresh --provider tencentcloud`"
    )


def _number(text: str) -> float | None:
    return float(text) if text else None


def build_tencentcloud(source: Path, date: str, snapshot: Path = SNAPSHOT) -> list[Offering]:
    """Tencent offerings, one per (instance type, region), sorted; `source`/`date` unused."""
    with snapshot.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(line for line in handle if not line.startswith("#")))
    offerings = []
    for row in rows:
        name = row["instance_type"]
        for region in REGIONS:
            offerings.append(
                Offering(
                    provider="tencentcloud",
                    region=region,
                    zone=region,
                    instance_type=name,
                    accelerator=row["accelerator"],
                    accelerator_count=int(row["accelerator_count"]),
                    accelerator_memory_gib=float(row["accelerator_memory_gib"]),
                    form_factor=form_factor(row["accelerator"], name),
                    vcpus=_number(row["vcpus"]),
                    memory_gib=float(name.rsplit("XLARGE", 1)[1]),
                    interconnect="ethernet",
                    max_efa_interfaces=0,
                    network_gbps=_number(row["network_gbps"]),
                    on_demand_usd_per_hour=None,
                    spot_usd_per_hour=None,
                    catalog_date=unknown_date(EXTRACTED),
                    source=SOURCE,
                    currency="CNY",
                    on_demand_native=float(row["cny_per_hour"]),
                    price_note=note(row["price_id"]),
                )
            )
    return sorted(offerings, key=lambda o: (o.instance_type, o.region, o.zone))


# `profiles.catalog.build` writes this cloud from its own source (`META` says which).
BUILD = build_tencentcloud
