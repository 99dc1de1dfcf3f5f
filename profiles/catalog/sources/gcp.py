"""GCP rows of the extract -> Offerings: GPU nodes (host VM + GPUs) and TPU slices.

GCP prices GPUs apart from the host VM (extract README, "GCP pricing"): a GPU node's price
is host `Price` + accelerator `Price` in the same zone, and the same for spot. A purchase
option is priced only when both halves are; no GPU offering is ever priced without its
GPUs, nor GPUs without a host. The v8 snapshot adds N1 hosts (T4, V100, P100 and P4 nodes
are priced) and a4 hosts for B200 whose 0.0 prices are placeholders: they load as unknown,
so no B200 node is priced until `catalog refresh` fetches the host. A spot sum at or above
the on-demand sum is no discount on record and loads as unknown. A TPU row prices the whole
slice; its placeholder price 700.0 ("no public price") loads as unknown.

GPU rows that yield no offering are counted by reason in `catalog.json`
(`sources.gcp.left_out`): `no host row` (no host of the paired machine type in that zone),
`placeholder or no price` (a host or accelerator price that is empty or 0.0).
"""

from __future__ import annotations

from pathlib import Path

from facts.accelerators import form_factor
from facts.gcp import ACCELERATOR_ALIASES, GPU_NETWORK, HOSTS, TPU_GENERATIONS, tpu_generation_and_chips
from profiles.catalog.offering import Offering
from profiles.catalog.sources.common import (
    memory_for,
    merge_duplicates,
    no_discount_is_unknown,
    parse_number,
    parse_price,
    read_rows,
)

TPU_PLACEHOLDER_PRICE = 700.0


def _sum(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else round(a + b, 6)


def _count(left_out: dict[str, int] | None, reason: str) -> None:
    if left_out is not None:
        left_out[reason] = left_out.get(reason, 0) + 1


def gpu_offerings(
    gpu: dict[str, str], hosts: dict[tuple[str, str], dict[str, str]], date: str, left_out: dict[str, int] | None = None
) -> list[Offering]:
    """One GPU price row -> an Offering per host machine type that carries those GPUs.

    Args:
        gpu: the accelerator price row.
        hosts: host rows by (machine type, zone).
        date: every row's `catalog_date`.
        left_out: when given, host pairings that yield no offering are counted by reason.
    """
    name, count, zone = gpu["AcceleratorName"], int(gpu["AcceleratorCount"]), gpu["AvailabilityZone"]
    accelerator = ACCELERATOR_ALIASES.get(name, name)
    offerings = []
    if (name, count) not in HOSTS:
        _count(left_out, "no host pairing")
    for machine in HOSTS.get((name, count), ()):
        host = hosts.get((machine, zone))
        if host is None:
            _count(left_out, "no host row")
            continue
        on_demand = _sum(parse_price(host["Price"]), parse_price(gpu["Price"]))
        spot = no_discount_is_unknown(_sum(parse_price(host["SpotPrice"]), parse_price(gpu["SpotPrice"])), on_demand)
        if on_demand is None and spot is None:
            _count(left_out, "placeholder or no price")
            continue
        kind, gbps = GPU_NETWORK.get(machine, ("ethernet", None))
        offerings.append(
            Offering(
                provider="gcp",
                region=gpu["Region"],
                zone=zone,
                instance_type=machine,
                accelerator=accelerator,
                accelerator_count=count,
                accelerator_memory_gib=memory_for(accelerator, gpu["GpuInfo"]),
                form_factor=form_factor(accelerator, machine),
                vcpus=parse_number(host["vCPUs"]),
                memory_gib=parse_number(host["MemoryGiB"]),
                interconnect=kind,
                max_efa_interfaces=0,
                network_gbps=float(gbps) if gbps else None,
                on_demand_usd_per_hour=on_demand,
                spot_usd_per_hour=spot,
                catalog_date=date,
            )
        )
    return offerings


def tpu_offering(row: dict[str, str], date: str) -> Offering | None:
    """One TPU slice price row -> Offering (count = chips), or None when unpriced."""
    on_demand = parse_price(row["Price"], placeholder=TPU_PLACEHOLDER_PRICE)
    spot = no_discount_is_unknown(parse_price(row["SpotPrice"], placeholder=TPU_PLACEHOLDER_PRICE), on_demand)
    if on_demand is None and spot is None:
        return None
    generation, chips = tpu_generation_and_chips(row["AcceleratorName"])
    return Offering(
        provider="gcp",
        region=row["Region"],
        zone=row["AvailabilityZone"],
        instance_type=row["AcceleratorName"],
        accelerator=generation,
        accelerator_count=chips,
        accelerator_memory_gib=TPU_GENERATIONS[generation][1],
        form_factor="TPU",
        vcpus=None,
        memory_gib=None,
        interconnect="tpu-ici",
        max_efa_interfaces=0,
        network_gbps=None,
        on_demand_usd_per_hour=on_demand,
        spot_usd_per_hour=spot,
        catalog_date=date,
    )


def build_gcp(source: Path, date: str, left_out: dict[str, int] | None = None) -> list[Offering]:
    """All priceable GCP GPU nodes and TPU slices, deduplicated and sorted (type, zone).

    Args:
        source: folder holding `gcp_gpu.csv` and `gcp_gpu_host_vms.csv`.
        date: every row's `catalog_date` (the snapshot is undated: `unknown, extracted on D`).
        left_out: when given, rows that yield no offering are counted here by reason.
    """
    accelerators = merge_duplicates(
        read_rows(source / "gcp_gpu.csv"), ("AcceleratorName", "AcceleratorCount", "AvailabilityZone")
    )
    hosts = {(r["InstanceType"], r["AvailabilityZone"]): r for r in read_rows(source / "gcp_gpu_host_vms.csv")}
    offerings: list[Offering] = []
    for row in accelerators:
        if row["AcceleratorName"].startswith("tpu-"):
            tpu = tpu_offering(row, date)
            if tpu is None:
                _count(left_out, "placeholder or no price")
            else:
                offerings.append(tpu)
        else:
            offerings.extend(gpu_offerings(row, hosts, date, left_out))
    return sorted(offerings, key=lambda o: (o.instance_type, o.region, o.zone))


# What `profiles.catalog.build` reads for this cloud: SkyPilot extract files, snapshot sub-folder.
SKYPILOT_FILES = ("gcp_gpu.csv", "gcp_gpu_host_vms.csv")
SNAPSHOT_FOLDER = "v8"
BUILD = build_gcp
