"""AWS rows of the extract (`aws_gpu.csv`, schema v7 or v8) -> Offerings (one per instance
type and AZ ID).

Schema v8 (`shared/reference-catalog/v8/README.md`) adds an `Arch` column and a longer
`GpuInfo` (Neuron devices use another layout; memory is read from `Gpus[0].MemoryInfo` in
both). Rows left out, each counted by reason in `catalog.json` (`sources.aws.left_out`):
- `fractional GPU`: g6f/gr6f list 0.125-0.5 of an L4 (`AcceleratorCount` < 1). A slice of
  a GPU cannot join a multi-GPU training job (no NVLink, no NCCL peer), and a whole-GPU
  count would read it as 0 or 1 L4.
- `arm64`: g5g (T4g, Graviton). The AWS component boots the x86_64 Deep Learning AMI
  (`components/aws/compute.py`), so an arm64 pick could not be deployed.
- `local zone`: AZ IDs of Local Zones (`use1-atl2-az1`, `usw2-lax1-az1`). A Local Zone
  needs an account opt-in (zone group) and offers a subset of the region's services; the
  component's FSx for Lustre, placement group and EFA set-up there is unverified (no source
  in `shared/reference-facts/`). trainstack's choice: not offered, so the cheapest pick is
  always one the component can build in a default account.
- `no price`: neither an on-demand nor a spot price (empty or 0.0).

A spot price at or above the on-demand price (68 v8 rows, often the on-demand price with more
decimals) is no discount on record and loads as unknown, as the v8 README advises.
"""

from __future__ import annotations

from pathlib import Path

from facts.accelerators import form_factor
from facts.aws import aws_network
from profiles.catalog.offering import Offering
from profiles.catalog.sources.common import (
    is_local_zone,
    memory_for,
    merge_duplicates,
    no_discount_is_unknown,
    parse_number,
    parse_price,
    read_rows,
)

# p4de carries A100 80GB (interconnect.md K1); the v7 extract has duplicate p4de rows whose
# GpuInfo names plain "A100" (v8 still does, with 81920 MiB), so the name is pinned here.
ACCELERATOR_BY_INSTANCE = {"p4de.24xlarge": "A100-80GB"}


def left_out_reason(row: dict[str, str]) -> str:
    """Why a merged extract row is not an offering ("" when it is one; see the module doc)."""
    count = parse_number(row["AcceleratorCount"])
    if count is None or count < 1 or count != int(count):
        return "fractional GPU"
    if row.get("Arch", "x86_64") not in ("", "x86_64"):
        return row["Arch"]
    if is_local_zone(row["AvailabilityZone"]):
        return "local zone"
    if parse_price(row["Price"]) is None and parse_price(row["SpotPrice"]) is None:
        return "no price"
    return ""


def to_offering(row: dict[str, str], date: str) -> Offering | None:
    """One merged extract row -> Offering, or None when it is left out (`left_out_reason`).

    Args:
        row: the extract row (header keys).
        date: the row's `catalog_date`: when its price was observed, or
            `unknown, extracted on D` (`freshness.unknown_date`).
    """
    if left_out_reason(row):
        return None
    instance_type = row["InstanceType"]
    on_demand, spot = (
        parse_price(row["Price"]),
        no_discount_is_unknown(parse_price(row["SpotPrice"]), parse_price(row["Price"])),
    )
    accelerator = ACCELERATOR_BY_INSTANCE.get(instance_type, row["AcceleratorName"])
    network = aws_network(instance_type)
    efa = network.max_efa_interfaces if network else 0
    return Offering(
        provider="aws",
        region=row["Region"],
        zone=row["AvailabilityZone"],
        instance_type=instance_type,
        accelerator=accelerator,
        accelerator_count=int(float(row["AcceleratorCount"])),
        accelerator_memory_gib=memory_for(accelerator, row["GpuInfo"]),
        form_factor=form_factor(accelerator, instance_type),
        vcpus=parse_number(row["vCPUs"]),
        memory_gib=parse_number(row["MemoryGiB"]),
        interconnect="efa" if efa else "ethernet",
        max_efa_interfaces=efa,
        network_gbps=float(network.gbps) if network else None,
        on_demand_usd_per_hour=on_demand,
        spot_usd_per_hour=spot,
        catalog_date=date,
    )


def build_aws(source: Path, date: str, left_out: dict[str, int] | None = None) -> list[Offering]:
    """All AWS offerings of the extract, deduplicated and sorted (type, region, zone).

    Args:
        source: folder holding `aws_gpu.csv`.
        date: every row's `catalog_date` (the snapshot is undated: `unknown, extracted on D`).
        left_out: when given, rows left out are counted here by reason.
    """
    rows = merge_duplicates(read_rows(source / "aws_gpu.csv"), ("InstanceType", "AvailabilityZone"))
    offerings = []
    for row in rows:
        reason = left_out_reason(row)
        if reason and left_out is not None:
            left_out[reason] = left_out.get(reason, 0) + 1
        elif (offering := to_offering(row, date)) is not None:
            offerings.append(offering)
    return sorted(offerings, key=lambda o: (o.instance_type, o.region, o.zone))


# What `profiles.catalog.build` reads for this cloud: SkyPilot extract files, snapshot sub-folder.
SKYPILOT_FILES = ("aws_gpu.csv",)
SNAPSHOT_FOLDER = "v8"
BUILD = build_aws
