"""GCP rows of the extract -> Offerings: GPU nodes (host VM + GPUs) and TPU slices.

GCP prices GPUs apart from the host VM (extract README, "GCP pricing"): a GPU node's price
is host `Price` + accelerator `Price` in the same zone, and the same for spot. A purchase
option is priced only when both halves are; no GPU offering is ever priced without its
GPUs, nor GPUs without a host. GPUs with no host rows in the extract (T4, V100, P100, P4
on N1; B200 on A4) are left out. A TPU row prices the whole slice; its placeholder price
700.0 ("no public price") loads as unknown.
"""

from __future__ import annotations

from pathlib import Path

from profiles.catalog.offering import Offering
from profiles.catalog.sources.common import memory_for, merge_duplicates, parse_number, parse_price, read_rows
from facts.accelerators import form_factor
from facts.gcp import ACCELERATOR_ALIASES, GPU_NETWORK, HOSTS, TPU_GENERATIONS, tpu_generation_and_chips

TPU_PLACEHOLDER_PRICE = 700.0


def _sum(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else round(a + b, 6)


def gpu_offerings(gpu: dict[str, str], hosts: dict[tuple[str, str], dict[str, str]], date: str) -> list[Offering]:
    """One GPU price row -> an Offering per host machine type that carries those GPUs."""
    name, count, zone = gpu["AcceleratorName"], int(gpu["AcceleratorCount"]), gpu["AvailabilityZone"]
    accelerator = ACCELERATOR_ALIASES.get(name, name)
    offerings = []
    for machine in HOSTS.get((name, count), ()):
        host = hosts.get((machine, zone))
        if host is None:
            continue
        on_demand = _sum(parse_price(host["Price"]), parse_price(gpu["Price"]))
        spot = _sum(parse_price(host["SpotPrice"]), parse_price(gpu["SpotPrice"]))
        if on_demand is None and spot is None:
            continue
        kind, gbps = GPU_NETWORK.get(machine, ("ethernet", None))
        offerings.append(Offering(
            provider="gcp", region=gpu["Region"], zone=zone, instance_type=machine,
            accelerator=accelerator, accelerator_count=count,
            accelerator_memory_gib=memory_for(accelerator, gpu["GpuInfo"]),
            form_factor=form_factor(accelerator, machine),
            vcpus=parse_number(host["vCPUs"]), memory_gib=parse_number(host["MemoryGiB"]),
            interconnect=kind, max_efa_interfaces=0, network_gbps=float(gbps) if gbps else None,
            on_demand_usd_per_hour=on_demand, spot_usd_per_hour=spot, catalog_date=date,
        ))
    return offerings


def tpu_offering(row: dict[str, str], date: str) -> Offering | None:
    """One TPU slice price row -> Offering (count = chips), or None when unpriced."""
    on_demand = parse_price(row["Price"], placeholder=TPU_PLACEHOLDER_PRICE)
    spot = parse_price(row["SpotPrice"], placeholder=TPU_PLACEHOLDER_PRICE)
    if on_demand is None and spot is None:
        return None
    generation, chips = tpu_generation_and_chips(row["AcceleratorName"])
    return Offering(
        provider="gcp", region=row["Region"], zone=row["AvailabilityZone"],
        instance_type=row["AcceleratorName"], accelerator=generation, accelerator_count=chips,
        accelerator_memory_gib=TPU_GENERATIONS[generation][1], form_factor="TPU",
        vcpus=None, memory_gib=None, interconnect="tpu-ici", max_efa_interfaces=0,
        network_gbps=None, on_demand_usd_per_hour=on_demand, spot_usd_per_hour=spot, catalog_date=date,
    )


def build_gcp(source: Path, date: str) -> list[Offering]:
    """All priceable GCP GPU nodes and TPU slices, deduplicated and sorted (type, zone)."""
    accelerators = merge_duplicates(
        read_rows(source / "gcp_gpu.csv"), ("AcceleratorName", "AcceleratorCount", "AvailabilityZone")
    )
    hosts = {(r["InstanceType"], r["AvailabilityZone"]): r for r in read_rows(source / "gcp_gpu_host_vms.csv")}
    offerings: list[Offering] = []
    for row in accelerators:
        if row["AcceleratorName"].startswith("tpu-"):
            offerings.extend(o for o in [tpu_offering(row, date)] if o)
        else:
            offerings.extend(gpu_offerings(row, hosts, date))
    return sorted(offerings, key=lambda o: (o.instance_type, o.region, o.zone))
