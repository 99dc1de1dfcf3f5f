"""Tencent Cloud CVM GPU prices from the official CVM API, in CNY (no conversion here).

Which types: the GPU families of china-clouds.md 1.2 (`FAMILIES`): GT4 (A100 40 GB), GN10X /
GN10Xp (V100 32 GB), GN7 (T4) and the HCC families HCCPNV4h / HCCPNV4s (8 x A100) and
HCCG5v (8 x V100). Every size of those families that a zone sells is priced.

Per region, `DescribeZoneInstanceConfigInfos` (CVM 2017-03-12, through the official SDK in
`tencentcloud_api`), filtered
by `instance-family` and `instance-charge-type`, is asked twice:
- `POSTPAID_BY_HOUR`: `InstanceTypeQuotaSet[]` of `{Zone, InstanceType, Status, Cpu,
  Memory, Gpu, GpuCount, InstanceBandwidth, Price: ItemPrice}`; `Price.UnitPrice` is the
  list price of the instance per `ChargeUnit` HOUR ("后续合计费用的原价", ItemPrice model of
  the CVM SDK); `UnitPriceDiscount` is the account's discounted price and is not used.
- `SPOTPAID`: the same list; `Price.UnitPriceDiscount` is the spot market price (a
  third-party collector's reading, china-clouds.md section 6). A spot price not below
  on-demand is no spot price.
Only `Status` SELL items count. vGPU sizes (fewer than one whole GPU) are skipped.

Why not InquiryPriceRunInstances: it needs an `ImageId` and one call per (zone, type,
charge type), and its `UnitPrice` is the total with the default system disk ("合计");
DescribeZoneInstanceConfigInfos prices the instance alone, for every zone and size of a
region in one call, and says which zones sell it.

Rows: one per (type, zone), whole-instance CNY/hour in `on_demand_native` / `spot_native`,
`currency` CNY, USD columns empty, `price_note` "", `source` SOURCE. vCPUs, memory, GPU
count and bandwidth come from the same answer; the GPU model from `FAMILIES`.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from facts.accelerators import form_factor
from profiles.catalog.fetchers import FetchError, distinct_regions, priced
from profiles.catalog.fetchers.tencentcloud_api import API, call, credentials_from_env, new_client
from profiles.catalog.offering import Offering, priced_in_cny

SOURCE = "tencentcloud-cvm-price-api"
# Mainland regions where InquiryPriceRunInstances / the CVM price calls are served (CVM API docs).
DEFAULT_REGIONS = ("ap-beijing", "ap-chengdu", "ap-chongqing", "ap-guangzhou", "ap-nanjing", "ap-shanghai")
ON_DEMAND, SPOT = "POSTPAID_BY_HOUR", "SPOTPAID"
_REGION = re.compile(r"^[a-z]{2}-[a-z]+$")

Items = dict[tuple[str, str], dict]  # (zone, type) -> InstanceTypeQuotaSet item


class Family(NamedTuple):
    """The GPU facts of one family (china-clouds.md 1.2).

    Attributes:
        accelerator: normalized accelerator name.
        memory_gib: memory per GPU, GiB; None where only third-party sources name the GPU.
        interconnect: `ethernet`: the HCC families' 2 x 100GE RDMA (RoCE) is third-party
            and the catalog has no RoCE interconnect name, so no RDMA is claimed.
    """

    accelerator: str
    memory_gib: float | None
    interconnect: str = "ethernet"


FAMILIES: dict[str, Family] = {
    "GT4": Family("A100", 40.0),  # official: A100 NVLink 40 GB
    "GN10Xp": Family("V100-32GB", 32.0),  # official: V100 NVLink 32 GB
    "GN10X": Family("V100-32GB", 32.0),  # official: V100 NVLink 32 GB
    "GN7": Family("T4", 16.0),  # official: T4 16 GB
    "HCCPNV4h": Family("A100", None),  # A100 official, memory unsourced
    "HCCPNV4s": Family("A100", None),  # third-party
    "HCCG5v": Family("V100", None),  # third-party; memory unsourced
}


def fetch(
    regions: Sequence[str] | None,
    progress: Callable[[str], None],
    *,
    families: Sequence[str] | None = None,
    **_clients: Any,
) -> list[Offering]:
    """On-demand and spot CNY prices of Tencent's GPU CVM types, per zone.

    Args:
        regions: region ids (`ap-beijing`); None or empty for `DEFAULT_REGIONS`.
        progress: called with one line per region and charge type.
        families: only these families (default: every one of `FAMILIES`).
        **_clients: other fetchers' clients; ignored.

    Returns:
        Offerings in CNY (see the module docstring), sorted by (type, region, zone).

    Raises:
        FetchError: missing credentials, a bad region id or family, throttling, denied
            access, a broken, partial or malformed answer, or no GPU type sold anywhere.
    """
    credentials = credentials_from_env()
    wanted, names = check_families(families), check_regions(regions)
    date = dt.date.today().isoformat()
    offerings = [
        o for region in names for o in price_region(new_client(credentials, region), region, wanted, progress, date)
    ]
    empty = f"{API}: no {', '.join(wanted)} type is on sale in {', '.join(names)} (empty answer); check the regions"
    return priced(offerings, "tencentcloud", progress, empty)


def check_regions(regions: Sequence[str] | None) -> list[str]:
    """The region ids to ask, in order, each once.

    Raises:
        FetchError: a name that is not a region id like `ap-beijing`.
    """
    return distinct_regions(regions, _REGION, DEFAULT_REGIONS, "a Tencent Cloud region id; use ids such as ap-beijing")


def check_families(families: Sequence[str] | None) -> list[str]:
    """The families to price.

    Raises:
        FetchError: a family `FAMILIES` does not know.
    """
    unknown = sorted(set(families or ()) - set(FAMILIES))
    if unknown:
        raise FetchError(f"tencentcloud: unknown GPU family {', '.join(unknown)}; valid: {', '.join(FAMILIES)}")
    return list(families or FAMILIES)


def price_region(
    client: Any, region: str, families: list[str], progress: Callable[[str], None], date: str
) -> list[Offering]:
    """The offerings of one region (`client`: the SDK's CvmClient for it): on-demand and spot
    configs, joined by (zone, type)."""
    on_demand = zone_items(client, region, families, ON_DEMAND, progress)
    spot = zone_items(client, region, families, SPOT, progress)
    where = f"{API}, DescribeZoneInstanceConfigInfos in {region}"
    offerings = []
    for key in sorted(on_demand.keys() | spot.keys()):
        od = unit_price(on_demand[key], "UnitPrice", where) if key in on_demand else None
        sp = unit_price(spot[key], "UnitPriceDiscount", where) if key in spot else None
        if od is not None and sp is not None and sp >= od:
            sp = None  # a spot price not below on-demand is no spot price
        offering = build_offering(region, on_demand.get(key) or spot[key], od, sp, date)
        if offering is not None:
            offerings.append(offering)
    return offerings


def zone_items(client: Any, region: str, families: list[str], charge: str, progress: Callable[[str], None]) -> Items:
    """The on-sale items of `families` for one charge type in one region.

    Raises:
        FetchError: the call failed, or the answer has no item list or an item without
            `Zone`, `InstanceType` or `Price` (partial or malformed).
    """
    where = f"{API}, DescribeZoneInstanceConfigInfos {charge} in {region}"
    body = {
        "Filters": [
            {"Name": "instance-family", "Values": families},
            {"Name": "instance-charge-type", "Values": [charge]},
        ]
    }
    answer = call(client, "DescribeZoneInstanceConfigInfos", body, where)
    items = answer.get("InstanceTypeQuotaSet")
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise FetchError(f"{where}: no InstanceTypeQuotaSet list (malformed answer); run the refresh again")
    if any(
        not item.get("Zone") or not item.get("InstanceType") or not isinstance(item.get("Price"), dict)
        for item in items
    ):
        raise FetchError(
            f"{where}: an item lacks Zone, InstanceType or Price (partial or malformed answer); run the refresh again"
        )
    kept = {
        (item["Zone"], item["InstanceType"]): item
        for item in items
        if item.get("Status") == "SELL" and family_of(item["InstanceType"]) in families
    }
    progress(f"tencentcloud: {region} {charge}: {len(items)} items, {len(kept)} on sale")
    return kept


def unit_price(item: dict, field: str, where: str) -> float:
    """`Price.<field>` of an item as CNY/hour.

    Raises:
        FetchError: a `ChargeUnit` other than HOUR, or no positive price.
    """
    price, name = item["Price"], f"{item['InstanceType']} in {item['Zone']}"
    if price.get("ChargeUnit") != "HOUR":
        raise FetchError(
            f"{where}: {name} is priced per {price.get('ChargeUnit')!r}, expected HOUR (malformed); "
            "run the refresh again"
        )
    value = price.get(field)
    number = float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else math.nan
    if not (math.isfinite(number) and number > 0):
        raise FetchError(
            f"{where}: {name} has {field}={value!r}, not a positive price (malformed); run the refresh again"
        )
    return number


def family_of(instance_type: str) -> str:
    """`GT4.41XLARGE948` -> `GT4`."""
    return instance_type.split(".", 1)[0]


def build_offering(region: str, item: dict, on_demand: float | None, spot: float | None, date: str) -> Offering | None:
    """One CNY offering; None for a vGPU size (less than one whole GPU)."""
    name = item["InstanceType"]
    family = FAMILIES[family_of(name)]
    gpus = item.get("GpuCount", item.get("Gpu"))
    if not isinstance(gpus, (int, float)) or gpus < 1:
        return None

    def number(key: str) -> float | None:
        value = item.get(key)
        return float(value) if isinstance(value, (int, float)) and value > 0 else None

    return priced_in_cny(
        on_demand,
        spot,
        provider="tencentcloud",
        region=region,
        zone=item["Zone"],
        instance_type=name,
        accelerator=family.accelerator,
        accelerator_count=int(gpus),
        accelerator_memory_gib=family.memory_gib,
        form_factor=form_factor(family.accelerator, name),
        vcpus=number("Cpu"),
        memory_gib=number("Memory"),
        interconnect=family.interconnect,
        network_gbps=number("InstanceBandwidth"),
        catalog_date=date,
        source=SOURCE,
    )
