"""Huawei Cloud ECS GPU flavors the price refresh asks about, and the catalog rows they make.

Hardware comes from `shared/reference-facts/china-clouds.md` section 1.3, which quotes the
Huawei Cloud ECS user guide "GPU-accelerated ECSs" (topic en-us_topic_0097289624, official):
the example flavors of the Pi2, P2s, P3, P5s and Pi5e families with vCPUs, GiB, GPUs and
max/assured bandwidth in Gbit/s. Only those nine flavors are priced: other sizes of the
families have no sourced specs. GPU memory is the marketed size from
`facts.accelerators`. Form factor: P2s is "V100 32 GiB (PCIe Gen3)" and P5s "H100
PCIe 80 GB" (section 1.3); T4 and L4 are PCIe cards (accelerators facts, S22); P3's A100
80 GB form factor is unsourced, so None. RDMA on Huawei ECS GPU flavors is unsourced
(section 1.3, section 3), so every flavor is `ethernet`. `network_gbps` is the max figure.

Regions: BSS prices one region per product. With no region list the refresh asks the
mainland-China ECS regions of the official SDK (`huaweicloudsdkecs` v2 `EcsRegion`:
cn-north-1/2/4/9, cn-east-2/3/5, cn-south-1/2/4, cn-southwest-2). A BSS price has no zone,
so `zone` repeats the region (as the Alibaba snapshot rows do).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from facts.accelerators import ACCELERATORS
from profiles.catalog.offering import Offering, priced_in_cny

SOURCE = "huaweicloud-bss-ListOnDemandResourceRatings"
DEFAULT_REGIONS: tuple[str, ...] = (
    "cn-north-1",
    "cn-north-2",
    "cn-north-4",
    "cn-north-9",
    "cn-east-2",
    "cn-east-3",
    "cn-east-5",
    "cn-south-1",
    "cn-south-2",
    "cn-south-4",
    "cn-southwest-2",
)
REGION_NAME = re.compile(r"^[a-z]{2}-[a-z]+-\d+$")


class Flavor(NamedTuple):
    """One ECS flavor with the hardware the catalog row needs.

    Attributes:
        name: ECS flavor name (`p3.16xlarge.8`); BSS prices it as `<name>.linux`.
        accelerator: normalized accelerator name (`A100-80GB`).
        gpus: accelerators per instance.
        vcpus: vCPUs per instance.
        memory_gib: host memory, GiB.
        network_gbps: max network bandwidth, Gbit/s.
        form_factor: `PCIe`, or None when unsourced.
    """

    name: str
    accelerator: str
    gpus: int
    vcpus: int
    memory_gib: int
    network_gbps: int
    form_factor: str | None


FLAVORS: tuple[Flavor, ...] = (
    Flavor("pi2.2xlarge.4", "T4", 1, 8, 32, 10, "PCIe"),
    Flavor("pi2.16xlarge.4", "T4", 8, 64, 256, 30, "PCIe"),
    Flavor("p2s.2xlarge.8", "V100-32GB", 1, 8, 64, 10, "PCIe"),
    Flavor("p2s.16xlarge.8", "V100-32GB", 8, 64, 512, 30, "PCIe"),
    Flavor("p3.2xlarge.8", "A100-80GB", 1, 8, 64, 10, None),
    Flavor("p3.16xlarge.8", "A100-80GB", 8, 64, 512, 36, None),
    Flavor("p5s.20xlarge.12", "H100", 4, 80, 960, 32, "PCIe"),
    Flavor("p5s.40xlarge.12", "H100", 8, 160, 1920, 40, "PCIe"),
    Flavor("pi5e.24xlarge.4", "L4", 6, 96, 384, 40, "PCIe"),
)


def to_offering(flavor: Flavor, region: str, cny_per_hour: float, date: str) -> Offering:
    """The catalog row of `flavor` in `region`, priced in CNY (USD columns stay empty; the
    loader converts with the recorded rate, `profiles.catalog.rates`)."""
    return priced_in_cny(
        cny_per_hour,
        provider="huaweicloud",
        region=region,
        zone=region,
        instance_type=flavor.name,
        accelerator=flavor.accelerator,
        accelerator_count=flavor.gpus,
        accelerator_memory_gib=float(ACCELERATORS[flavor.accelerator].memory_gib),
        form_factor=flavor.form_factor,
        vcpus=float(flavor.vcpus),
        memory_gib=float(flavor.memory_gib),
        interconnect="ethernet",
        network_gbps=float(flavor.network_gbps),
        catalog_date=date,
        source=SOURCE,
    )
