"""AWS rows of the extract (`aws_gpu.csv`) -> Offerings (one per instance type and AZ ID)."""

from __future__ import annotations

from pathlib import Path

from profiles.catalog.offering import Offering
from profiles.catalog.sources.common import (
    memory_for,
    merge_duplicates,
    parse_number,
    parse_price,
    read_rows,
)
from facts.accelerators import form_factor
from facts.aws import aws_network

# p4de carries A100 80GB (interconnect.md K1); the extract has duplicate p4de rows whose
# GpuInfo names plain "A100", so the name is pinned here.
ACCELERATOR_BY_INSTANCE = {"p4de.24xlarge": "A100-80GB"}


def to_offering(row: dict[str, str], date: str) -> Offering | None:
    """One merged extract row -> Offering, or None when it has no usable price."""
    instance_type = row["InstanceType"]
    on_demand, spot = parse_price(row["Price"]), parse_price(row["SpotPrice"])
    if on_demand is None and spot is None:
        return None
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


def build_aws(source: Path, date: str) -> list[Offering]:
    """All AWS offerings of the extract, deduplicated and sorted (type, region, zone)."""
    rows = merge_duplicates(read_rows(source / "aws_gpu.csv"), ("InstanceType", "AvailabilityZone"))
    offerings = [o for row in rows if (o := to_offering(row, date)) is not None]
    return sorted(offerings, key=lambda o: (o.instance_type, o.region, o.zone))
