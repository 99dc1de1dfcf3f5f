"""Alibaba Cloud ECS GPU prices from the official price APIs, in CNY (no conversion here).

Which types and regions: the rows of the in-repo snapshot `sources/data/alicloud_payg_cny.csv`
(hardware facts from Alibaba's help centre, china-clouds.md 1.1); a refresh re-prices exactly
those (type, region) pairs, optionally narrowed with `instance_types=`.

Per (type, region), two operations of the ECS API (version 2014-05-26, through the official
SDK in `alicloud_api`):
- `DescribePrice` (`ResourceType=instance`, `PriceUnit=Hour`, pay-as-you-go by default):
  `PriceInfo.Price.DetailInfos.DetailInfo[]` splits the price by resource; the
  `Resource: instanceType` item is the instance alone (the total also holds the default
  system disk). Its `OriginalPrice` is the list price; `TradePrice` is after the account's
  discounts and promotions, so it is not used. `Currency` is CNY on the China site.
- `DescribeSpotPriceHistory` (`NetworkType=vpc`, `OSType=linux`, default window: the last
  3 hours): `SpotPrices.SpotPriceType[]` of `{ZoneId, Timestamp, SpotPrice, OriginPrice}`,
  paged with `Offset` / `NextOffset`. The newest `SpotPrice` per zone is that zone's spot
  price; a spot price not below on-demand is no spot price.

Rows: one per zone with a spot price (real zone ids, e.g. `cn-beijing-h`), or one row with
`zone` = region (as the snapshot has it) when the API lists no spot price for the type.
Prices are whole-instance CNY/hour in `on_demand_native` / `spot_native`, `currency` CNY,
USD columns empty (the loader converts with the recorded rate, `profiles.catalog.rates`),
`price_note` "" (an official list price, not an estimate), `source` SOURCE.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from profiles.catalog.fetchers import FetchError, positive_number, priced
from profiles.catalog.fetchers.alicloud_api import API, NotPriced, credentials_from_env, new_client
from profiles.catalog.offering import Offering, priced_in_cny
from profiles.catalog.sources.alicloud import SNAPSHOT, build_alicloud

SOURCE = "alicloud-ecs-price-api"
INSTANCE_RESOURCES = frozenset({"instanceType", "instance"})
MAX_SPOT_PAGES = 20


def fetch(
    regions: Sequence[str] | None,
    progress: Callable[[str], None],
    *,
    instance_types: Sequence[str] | None = None,
    snapshot: Path = SNAPSHOT,
    **_clients: Any,
) -> list[Offering]:
    """On-demand and spot CNY prices of the snapshot's Alibaba GPU types.

    Args:
        regions: region ids (`cn-beijing`); None or empty for every snapshot region.
        progress: called with one line per instance type priced or skipped.
        instance_types: only these types (default: every snapshot type of the regions).
        snapshot: the CSV listing the types and their hardware.
        **_clients: other fetchers' clients; ignored.

    Returns:
        Offerings in CNY (see the module docstring), sorted by (type, region, zone).

    Raises:
        FetchError: missing credentials, an unknown region or type, throttling, denied
            access, a broken, partial or malformed answer, or no type priced at all.
    """
    credentials = credentials_from_env()
    templates = known_types(regions, instance_types, snapshot)
    date = dt.date.today().isoformat()
    clients = {region: new_client(credentials, region) for region in sorted({t.region for t in templates})}
    offerings = [
        row for template in templates for row in price_type(clients[template.region], template, progress, date)
    ]
    empty = (
        f"{API}: none of the {len(templates)} known GPU types has a price in "
        f"{', '.join(sorted({t.region for t in templates}))} (empty answer); check the regions"
    )
    return priced(offerings, "alicloud", progress, empty)


def known_types(
    regions: Sequence[str] | None, instance_types: Sequence[str] | None = None, snapshot: Path = SNAPSHOT
) -> list[Offering]:
    """The snapshot rows (one per type and region) to re-price.

    Raises:
        FetchError: a region or type the snapshot does not list.
    """
    rows = build_alicloud(snapshot, "", snapshot)  # the first two arguments are unused
    known_regions = sorted({o.region for o in rows})
    for region in regions or ():
        if region not in known_regions:
            raise FetchError(
                f"alicloud: no known GPU type in '{region}'; the types come from "
                f"{snapshot.name}, which lists {', '.join(known_regions)}"
            )
    unknown = sorted(set(instance_types or ()) - {o.instance_type for o in rows})
    if unknown:
        raise FetchError(f"alicloud: unknown instance type {', '.join(unknown)}; {snapshot.name} lists the known ones")
    return [
        o
        for o in rows
        if (not regions or o.region in regions) and (not instance_types or o.instance_type in instance_types)
    ]


def price_type(
    call: Callable[..., dict], template: Offering, progress: Callable[[str], None], date: str
) -> list[Offering]:
    """The rows of one snapshot (type, region): DescribePrice, then the spot history.

    `call` is `alicloud_api.new_client(...)` for the template's region.
    """
    name, region = template.instance_type, template.region
    where = f"{API}, DescribePrice {name} in {region}"
    params = {
        "region_id": region,
        "resource_type": "instance",
        "instance_type": name,
        "price_unit": "Hour",
        "period": 1,
    }
    try:
        on_demand = on_demand_price(call("DescribePrice", params, where), where)
    except NotPriced as code:
        progress(f"alicloud: {name} in {region}: no price ({code}); its previous rows are kept")
        return []
    spots = spot_prices(call, region, name)
    progress(f"alicloud: {name} in {region}: {on_demand} CNY/h, spot in {len(spots)} zones")
    return build_rows(template, on_demand, spots, date)


def on_demand_price(body: dict, where: str) -> float:
    """The list price of the instance alone, CNY/hour, from a DescribePrice answer.

    Raises:
        FetchError: no `PriceInfo.Price`, a currency other than CNY, or no positive price.
    """
    info = body.get("PriceInfo")
    price = info.get("Price") if isinstance(info, dict) else None
    if not isinstance(price, dict):
        raise FetchError(f"{where}: no PriceInfo.Price in the answer (malformed or empty); run the refresh again")
    if price.get("Currency") != "CNY":
        raise FetchError(
            f"{where}: prices came in {price.get('Currency')}, not CNY; use an account of the China site (aliyun.com)"
        )
    details = price.get("DetailInfos")
    items = details.get("DetailInfo") if isinstance(details, dict) else None
    instance = [d for d in items or () if isinstance(d, dict) and d.get("Resource") in INSTANCE_RESOURCES]
    return positive(instance[0].get("OriginalPrice") if instance else price.get("OriginalPrice"), where)


def spot_prices(call: Callable[..., dict], region: str, name: str) -> dict[str, float]:
    """Zone -> newest spot price (CNY/hour) from every page of DescribeSpotPriceHistory.

    Raises:
        FetchError: a failed, partial or malformed page, or pages that never end.
    """
    base = f"{API}, DescribeSpotPriceHistory {name} in {region}"
    entries: list[dict] = []
    offset = 0
    for page in range(1, MAX_SPOT_PAGES + 1):
        params = {
            "region_id": region,
            "network_type": "vpc",
            "instance_type": name,
            "ostype": "linux",
            "offset": offset,
        }
        try:
            body = call("DescribeSpotPriceHistory", params, f"{base}, page {page}")
        except NotPriced:
            return {}
        page_entries, next_offset = check_spot_page(body, f"{base}, page {page}")
        entries.extend(page_entries)
        if not page_entries or next_offset is None or next_offset <= offset:
            return latest_by_zone(entries, name, base)
        offset = next_offset
    raise FetchError(f"{base}: more than {MAX_SPOT_PAGES} pages (NextOffset never ends; malformed); retry later")


def check_spot_page(body: dict, where: str) -> tuple[list[dict], int | None]:
    """A spot-history page's entries and `NextOffset`, after checking the page is whole.

    Raises:
        FetchError: no `SpotPrices.SpotPriceType` list, a currency other than CNY, or an
            entry without `ZoneId`, `Timestamp` or `SpotPrice`.
    """
    prices = body.get("SpotPrices")
    entries = prices.get("SpotPriceType") if isinstance(prices, dict) else None
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise FetchError(f"{where}: no SpotPrices.SpotPriceType list (malformed answer); run the refresh again")
    if body.get("Currency", "CNY") != "CNY":
        raise FetchError(
            f"{where}: prices came in {body.get('Currency')}, not CNY; use an account of the China site (aliyun.com)"
        )
    if any(not e.get("ZoneId") or not e.get("Timestamp") or "SpotPrice" not in e for e in entries):
        raise FetchError(
            f"{where}: an entry lacks ZoneId, Timestamp or SpotPrice (partial or malformed page); run the refresh again"
        )
    next_offset = body.get("NextOffset")
    return entries, next_offset if isinstance(next_offset, int) and not isinstance(next_offset, bool) else None


def latest_by_zone(entries: list[dict], name: str, where: str) -> dict[str, float]:
    """Zone -> the `SpotPrice` with the newest `Timestamp` (ISO 8601 UTC, so text order works)."""
    newest: dict[str, tuple[str, float]] = {}
    for entry in entries:
        if entry.get("InstanceType", name) != name:
            continue
        zone, stamp = str(entry["ZoneId"]), str(entry["Timestamp"])
        if zone not in newest or stamp > newest[zone][0]:
            newest[zone] = (stamp, positive(entry["SpotPrice"], where))
    return {zone: price for zone, (_, price) in newest.items()}


# The fields `priced_in_cny` sets: prices, currency, and no EFA.
_PRICED = (
    "max_efa_interfaces",
    "on_demand_usd_per_hour",
    "spot_usd_per_hour",
    "currency",
    "on_demand_native",
    "spot_native",
)


def build_rows(template: Offering, on_demand: float, spots: dict[str, float], date: str) -> list[Offering]:
    """Priced rows for one type and region, hardware from the snapshot row `template`."""
    hardware = {field: value for field, value in template._asdict().items() if field not in _PRICED}
    base = priced_in_cny(on_demand, **{**hardware, "catalog_date": date, "source": SOURCE, "price_note": ""})
    if not spots:
        return [base]
    return [
        base._replace(zone=zone, spot_native=price if price < on_demand else None)
        for zone, price in sorted(spots.items())
    ]


def positive(value: Any, where: str) -> float:
    """`value` as a positive, finite price (numbers, or numbers sent as text).

    Raises:
        FetchError: anything else.
    """
    number = positive_number(value)
    if number is None:
        raise FetchError(f"{where}: price {value!r} is not a positive number (malformed answer); run the refresh again")
    return number
