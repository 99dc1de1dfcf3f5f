"""Azure rows of the extract (`azure_gpu.csv`) -> Offerings (one per VM size and region).

The extract has no zones; `zone` repeats the region, and clusters are placed with a
proximity placement group instead. The extract is old (v6, US regions only, K80 and M60
sizes; `shared/reference-catalog/README.md`) and undated; no newer Azure file exists. A
spot price equal to the on-demand price (all H100 rows) is no discount on record and loads
as unknown, as the extract's README advises.
"""

from __future__ import annotations

from pathlib import Path

from facts.accelerators import form_factor
from facts.azure import ACCELERATOR_COUNT_FIX, MEMORY_GIB_BY_SIZE, infiniband_gbps
from profiles.catalog.offering import Offering
from profiles.catalog.sources.common import memory_for, merge_duplicates, parse_number, parse_price, read_rows


def to_offering(row: dict[str, str], date: str) -> Offering | None:
    """One extract row -> Offering, or None when it has no usable price."""
    size = row["InstanceType"]
    on_demand, spot = parse_price(row["Price"]), parse_price(row["SpotPrice"])
    if spot is not None and on_demand is not None and spot >= on_demand:
        spot = None
    if on_demand is None and spot is None:
        return None
    accelerator = row["AcceleratorName"]
    infiniband = infiniband_gbps(size)
    return Offering(
        provider="azure",
        region=row["Region"],
        zone=row["Region"],
        instance_type=size,
        accelerator=accelerator,
        accelerator_count=ACCELERATOR_COUNT_FIX.get(size, int(float(row["AcceleratorCount"]))),
        accelerator_memory_gib=MEMORY_GIB_BY_SIZE.get(size, memory_for(accelerator)),
        form_factor=form_factor(accelerator, size),
        vcpus=parse_number(row["vCPUs"]),
        memory_gib=parse_number(row["MemoryGiB"]),
        interconnect="infiniband" if infiniband else "ethernet",
        max_efa_interfaces=0,
        network_gbps=float(infiniband) if infiniband else None,
        on_demand_usd_per_hour=on_demand,
        spot_usd_per_hour=spot,
        catalog_date=date,
    )


def build_azure(source: Path, date: str, left_out: dict[str, int] | None = None) -> list[Offering]:
    """All Azure offerings of the extract, deduplicated and sorted (size, region).

    Args:
        source: folder holding `azure_gpu.csv`.
        date: every row's `catalog_date` (the extract is undated: `unknown, extracted on D`).
        left_out: when given, rows without a price are counted here (`no price`).
    """
    rows = merge_duplicates(read_rows(source / "azure_gpu.csv"), ("InstanceType", "Region"))
    offerings = [o for row in rows if (o := to_offering(row, date)) is not None]
    if left_out is not None and len(rows) > len(offerings):
        left_out["no price"] = len(rows) - len(offerings)
    return sorted(offerings, key=lambda o: (o.instance_type, o.region))


# What `profiles.catalog.build` reads for this cloud: SkyPilot extract files, snapshot sub-folder.
SKYPILOT_FILES = ("azure_gpu.csv",)
SNAPSHOT_FOLDER = "."  # no newer file than the v6 extract in the parent folder (v8/README.md)
BUILD = build_azure
