"""Alibaba Cloud GPU offerings from the in-repo price snapshot (`data/alicloud_payg_cny.csv`).

The snapshot is a transcription of `shared/reference-facts/china-clouds.md` section 2.1: a
THIRD-PARTY copy of Alibaba's CNY pay-as-you-go list prices (cloudpilot-ai/
karpenter-provider-alibabacloud, commit 5d2e077, 2024-12-31). Every row is therefore
flagged as an estimate, priced in CNY, and converted to USD only at load time with the
catalog's recorded USD/CNY rate. No zone is known per price, so `zone` repeats the region.
`ecs.ebmgn7e.32xlarge` is left out: the snapshot gives its price but no source names its GPU.
Spot prices are not in the snapshot (section 2.1: typical GPU spot discount unsourced).
"""

from __future__ import annotations

import csv
from pathlib import Path

from profiles.catalog.offering import Offering
from facts.accelerators import form_factor

SNAPSHOT = Path(__file__).parent / "data" / "alicloud_payg_cny.csv"
SOURCE = "cloudpilot-ai/karpenter-provider-alibabacloud@5d2e077 (third-party snapshot)"
NOTE = "estimate: third-party snapshot of CNY list prices, 2024-12-31; re-check with DescribePrice"
SNAPSHOT_DATE = "2024-12-31"
META = {
    "repository": "github.com/cloudpilot-ai/karpenter-provider-alibabacloud",
    "files": {"pkg/providers/pricing/initial-on-demand-prices.json": {"commit": "5d2e077", "date": SNAPSHOT_DATE}},
    "third_party": True,
    "currency": "CNY",
}


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(line for line in handle if not line.startswith("#")))


def build_alicloud(source: Path, date: str, snapshot: Path = SNAPSHOT) -> list[Offering]:
    """Alibaba offerings, one per (instance type, region), sorted; `source`/`date` unused
    (the snapshot carries its own date)."""
    offerings = []
    for row in _rows(snapshot):
        for region in row["regions"].split():
            offerings.append(Offering(
                provider="alicloud", region=region, zone=region, instance_type=row["instance_type"],
                accelerator=row["accelerator"], accelerator_count=int(row["accelerator_count"]),
                accelerator_memory_gib=float(row["accelerator_memory_gib"]),
                form_factor=form_factor(row["accelerator"], row["instance_type"]),
                vcpus=float(row["vcpus"]), memory_gib=float(row["memory_gib"]),
                interconnect=row["interconnect"], max_efa_interfaces=0,
                network_gbps=float(row["network_gbps"]), on_demand_usd_per_hour=None,
                spot_usd_per_hour=None, catalog_date=SNAPSHOT_DATE, source=SOURCE,
                currency="CNY", on_demand_native=float(row["cny_per_hour"]), price_note=NOTE,
            ))
    return sorted(offerings, key=lambda o: (o.instance_type, o.region, o.zone))
