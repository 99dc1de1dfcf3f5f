"""Baidu AI Cloud BCC GPU prices from the official BCC API, in CNY (no conversion here).

Per region (`bcc.<region>.baidubce.com`, through the official SDK in `baiducloud_api`):
- `GET /v2/instance/flavorSpec` ("查询实例套餐规格(新)", china-clouds.md 1.5) lists the
  sellable specs of every zone: `zoneResources[].bccResources.flavorGroups[].flavors[]` of
  BccFlavor `{spec, specId, cpuCount, memoryCapacityInGB, gpuCardType, gpuCardCount,
  productType, networkBandwidth, rdmaType, ...}` (BCC API appendix). GPU flavors that can be
  bought pay-as-you-go (`productType` PostPaid or both) are kept.
- `POST /v2/instance/price` ("查询实例套餐价格", SDK `BccClient.get_price_by_spec`) with
  `{specId, spec, paymentTiming: Postpaid, zoneName, purchaseCount: 1, purchaseLength: 1}`
  answers `{price: [{specId, specPrices: [{spec, status, specPrice, tradePrice}]}]}`;
  `specPrice` is the list price, `tradePrice` the price after discounts (not used).

The API documentation names no unit for a Postpaid `specPrice`. Baidu computes postpaid
charges per minute (official Finance doc) and quotes other postpaid unit prices per minute
(BLB, SCS, BML price pages), so `specPrice` is read as CNY per minute and multiplied by 60;
every row carries that assumption in `price_note` until a console price confirms it. Read
the other way round, prices would be 60 times too high, never too low.

The GPU model and count come from the spec name, `bcc.<family>.c<vCPU>m<GB>.<n><card>`
(`bcc.hgn5IB.c116m978.8A100-80g`: 8 x A100 80 GB, `IB` = InfiniBand; section 1.5); specs with
a card `CARDS` does not know are skipped. Baidu spot prices (`bidPrice`) take an instance
type, vCPUs and memory but no spec or GPU card, so no spot price is fetched.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from facts.accelerators import accelerator_facts, form_factor
from profiles.catalog.fetchers import FetchError, distinct_regions, positive_number, priced
from profiles.catalog.fetchers.baiducloud_api import API, Call, credentials_from_env, endpoint_for, new_client
from profiles.catalog.offering import Offering, priced_in_cny

SOURCE = "baiducloud-bcc-price-api"
# Regions of the BCC API appendix table "区域可支持实例类型": Beijing, Guangzhou, Suzhou.
DEFAULT_REGIONS = ("bj", "gz", "su")
MINUTES_PER_HOUR = 60
NOTE = (
    "unit assumed: the Postpaid specPrice is read as CNY per minute (x 60); "
    "Baidu's price API doc names no unit, check one spec in the console"
)
# Card suffix of a spec name -> accelerator. `A100-80g` is the documented example (1.5);
# the others follow the same naming and are unverified.
CARDS = {
    "a100-80g": "A100-80GB",
    "a800-80g": "A800",
    "v100-32g": "V100-32GB",
    "v100-16g": "V100",
    "t4": "T4",
    "a10": "A10",
}
_REGION = re.compile(r"^[a-z]{2,4}$")
_GPUS = re.compile(r"^(?P<count>\d+)(?P<card>[A-Za-z0-9-]+)$")

Flavor = tuple[str, dict]  # (zone name, BccFlavor)


def fetch(
    regions: Sequence[str] | None,
    progress: Callable[[str], None],
    *,
    endpoint: str | None = None,
    **_clients: Any,
) -> list[Offering]:
    """Pay-as-you-go CNY prices of Baidu's GPU specs, per zone.

    Args:
        regions: Baidu region ids (`bj`); None or empty for `DEFAULT_REGIONS`.
        progress: called with one line per region.
        endpoint: `scheme://host:port` to call for every region (default: `bcc.<region>.baidubce.com`).
        **_clients: other fetchers' clients; ignored.

    Returns:
        Offerings in CNY (see the module docstring), sorted by (type, region, zone).

    Raises:
        FetchError: missing credentials, a bad region id, throttling, denied access, a
            broken, partial or malformed answer, or no GPU spec priced anywhere.
    """
    credentials = credentials_from_env()
    names = check_regions(regions)
    date = dt.date.today().isoformat()
    offerings = []
    for region in names:
        call = new_client(credentials, endpoint or endpoint_for(region))
        offerings += [
            build_offering(region, zone, flavor, spec_price(call, zone, flavor), date)
            for zone, flavor in gpu_flavors(call, region, progress)
        ]
    empty = f"{API}: no GPU spec is sold pay-as-you-go in {', '.join(names)} (empty answer); check the regions"
    return priced(offerings, "baiducloud", progress, empty)


def check_regions(regions: Sequence[str] | None) -> list[str]:
    """The region ids to ask, each once.

    Raises:
        FetchError: a name that is not a Baidu region id like `bj`.
    """
    return distinct_regions(regions, _REGION, DEFAULT_REGIONS, "a Baidu region id; write it like bj, gz or su")


def gpu_flavors(call: Call, region: str, progress: Callable[[str], None]) -> list[Flavor]:
    """(zone, flavor) of every pay-as-you-go GPU spec with a known card in one region (`call`:
    `baiducloud_api.new_client(...)` for the region).

    Raises:
        FetchError: the call failed, or a zone or flavor lacks its name (partial or malformed).
    """
    where = f"{API}, flavorSpec in {region}"
    zones = call("GET", "/v2/instance/flavorSpec", where).get("zoneResources")
    if not isinstance(zones, list):
        raise FetchError(f"{where}: no zoneResources list (malformed answer); run the refresh again")
    kept: list[Flavor] = []
    for zone in zones:
        resources = zone.get("bccResources") if isinstance(zone, dict) else None
        groups = resources.get("flavorGroups") if isinstance(resources, dict) else None
        flavors = [f for g in groups or () if isinstance(g, dict) for f in g.get("flavors") or ()]
        if (
            not isinstance(groups, list)
            or not zone.get("zoneName")
            or not all(isinstance(f, dict) and f.get("spec") for f in flavors)
        ):
            raise FetchError(
                f"{where}: a zone or flavor lacks its name (partial or malformed answer); run the refresh again"
            )
        kept += [(zone["zoneName"], f) for f in flavors if is_postpaid_gpu(f) and accelerator_of(f["spec"])]
    progress(f"baiducloud: {region}: {len(zones)} zones, {len(kept)} pay-as-you-go GPU specs with a known card")
    return kept


def is_postpaid_gpu(flavor: dict) -> bool:
    """True for a flavor with at least one GPU that can be bought pay-as-you-go."""
    gpus = flavor.get("gpuCardCount")
    postpaid = str(flavor.get("productType", "both")).lower() in ("postpaid", "both")
    return isinstance(gpus, int) and not isinstance(gpus, bool) and gpus >= 1 and postpaid


def accelerator_of(spec: str) -> tuple[str, int] | None:
    """(accelerator, GPUs) from a spec name's last part (`8A100-80g`); None for an unknown card."""
    match = _GPUS.match(spec.rsplit(".", 1)[-1])
    if match is None:
        return None
    name = CARDS.get(match["card"].lower())
    return (name, int(match["count"])) if name else None


def spec_price(call: Call, zone: str, flavor: dict) -> float:
    """The pay-as-you-go list price of one spec in one zone, CNY/hour (see NOTE).

    Raises:
        FetchError: the call failed, or the answer holds no positive price for the spec.
    """
    spec = flavor["spec"]
    where = f"{API}, price of {spec} in {zone}"
    body = {
        "specId": flavor.get("specId"),
        "spec": spec,
        "paymentTiming": "Postpaid",
        "zoneName": zone,
        "purchaseCount": 1,
        "purchaseLength": 1,
    }
    groups = call("POST", "/v2/instance/price", where, body=body).get("price")
    entries = (
        [
            p
            for g in groups
            if isinstance(g, dict)
            for p in g.get("specPrices") or ()
            if isinstance(p, dict) and p.get("spec") == spec
        ]
        if isinstance(groups, list)
        else []
    )
    if not entries:
        raise FetchError(
            f"{where}: no specPrices entry for the spec (malformed or empty answer); run the refresh again"
        )
    value: Any = entries[0].get("specPrice")
    per_minute = positive_number(value)
    if per_minute is None:
        raise FetchError(f"{where}: specPrice {value!r} is not a positive price (malformed); run the refresh again")
    return round(per_minute * MINUTES_PER_HOUR, 6)


def build_offering(region: str, zone: str, flavor: dict, cny_per_hour: float, date: str) -> Offering:
    """One CNY offering; hardware from the flavor and its spec name."""
    spec = flavor["spec"]
    accelerator, gpus = accelerator_of(spec) or ("", 0)
    facts = accelerator_facts(accelerator)
    infiniband = str(flavor.get("rdmaType", "")).upper() == "IB" or "IB" in spec.split(".")[1]

    def number(key: str) -> float | None:
        try:
            value = float(flavor.get(key))  # type: ignore[arg-type]  # None or text: caught below
        except (TypeError, ValueError):
            return None
        return value if math.isfinite(value) and value > 0 else None

    return priced_in_cny(
        cny_per_hour,
        provider="baiducloud",
        region=region,
        zone=zone,
        instance_type=spec,
        accelerator=accelerator,
        accelerator_count=int(flavor.get("gpuCardCount") or gpus),
        accelerator_memory_gib=facts.memory_gib if facts else None,
        form_factor=form_factor(accelerator, spec),
        vcpus=number("cpuCount"),
        memory_gib=number("memoryCapacityInGB"),
        interconnect="infiniband" if infiniband else "ethernet",
        network_gbps=number("networkBandwidth"),
        catalog_date=date,
        source=SOURCE,
        price_note=NOTE,
    )
