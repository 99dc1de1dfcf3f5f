"""Alibaba Cloud GPU offerings from the in-repo price snapshot (`data/alicloud_payg_cny.csv`).

The snapshot transcribes `shared/reference-facts/china-prices.md` section 1.2 (CP-A22..A41:
a THIRD-PARTY generated price file, jxs1211/karpenter-provider-alicloud commit 5d2e077,
2024-12-30) and one row of section 1.1 (CP-A14: a 2023 blog transcription of Alibaba's
purchase page, dated 2023-07-21). Every row is therefore flagged as an estimate, priced in
CNY, dated with the date its source shows, and converted to USD only at load time with the
catalog's recorded USD/CNY rate. No zone is known per price, so `zone` repeats the region.
Spot prices are not in either source (china-prices.md section 8: not found).
"""

from __future__ import annotations

import csv
from pathlib import Path

from facts.accelerators import form_factor
from profiles.catalog.offering import Offering

SNAPSHOT = Path(__file__).parent / "data" / "alicloud_payg_cny.csv"
SOURCES = {
    "2024-12-30": "jxs1211/karpenter-provider-alicloud@5d2e077 (third-party generated price file)",
    "2023-07-21": "ArthurChiao/arthurchiao.github.io@f234afc (third-party transcription)",
}
META = {
    "repository": "github.com/jxs1211/karpenter-provider-alicloud (fork of cloudpilot-ai/karpenter-provider-alicloud)",
    "files": {
        "pkg/providers/pricing/initial-on-demand-prices.json": {"commit": "5d2e077", "date": "2024-12-30"},
        "ArthurChiao/arthurchiao.github.io _posts/2023-06-17-gpu-prices.md": {
            "commit": "f234afc",
            "date": "2023-07-21",
        },
    },
    "facts": "shared/reference-facts/china-prices.md sections 1.1-1.2 (CP-A14, CP-A22..A41)",
    "third_party": True,
    "currency": "CNY",
}


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(line for line in handle if not line.startswith("#")))


def note(observed: str, price_id: str) -> str:
    """The estimate flag of one row: which source figure it is and when it was seen."""
    return (
        f"estimate: third-party CNY list price seen {observed} (china-prices.md {price_id}); "
        "re-check with DescribePrice (`trainstack catalog refresh --provider alicloud`)"
    )


def build_alicloud(source: Path, date: str, snapshot: Path = SNAPSHOT) -> list[Offering]:
    """Alibaba offerings, one per (instance type, region), sorted; `source`/`date` unused
    (each row carries the date its source shows)."""
    offerings = []
    for row in _rows(snapshot):
        for region in row["regions"].split():
            offerings.append(
                Offering(
                    provider="alicloud",
                    region=region,
                    zone=region,
                    instance_type=row["instance_type"],
                    accelerator=row["accelerator"],
                    accelerator_count=int(row["accelerator_count"]),
                    accelerator_memory_gib=float(row["accelerator_memory_gib"]),
                    form_factor=form_factor(row["accelerator"], row["instance_type"]),
                    vcpus=float(row["vcpus"]),
                    memory_gib=float(row["memory_gib"]),
                    interconnect=row["interconnect"],
                    max_efa_interfaces=0,
                    network_gbps=float(row["network_gbps"]),
                    on_demand_usd_per_hour=None,
                    spot_usd_per_hour=None,
                    catalog_date=row["observed"],
                    source=SOURCES[row["observed"]],
                    currency="CNY",
                    on_demand_native=float(row["cny_per_hour"]),
                    price_note=note(row["observed"], row["price_id"]),
                )
            )
    return sorted(offerings, key=lambda o: (o.instance_type, o.region, o.zone))


# `profiles.catalog.build` writes this cloud from its own source (`META` says which).
BUILD = build_alicloud
