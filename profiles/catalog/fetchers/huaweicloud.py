"""Huawei Cloud GPU ECS list prices from BSS `ListOnDemandResourceRatings` (CNY, per hour).

One request per region asks for every flavor of `huaweicloud_flavors.FLAVORS` as
`cloud_service_type` "hws.service.type.ec2", `resource_type` "hws.resource.type.vm",
`resource_spec` "<flavor>.linux", `usage_factor` "Duration", `usage_value` 1,
`usage_measure_id` 4 (hour), `subscription_num` 1: the documented ECS inquiry (official
pay-per-use inquiry example, support.huaweicloud.com/api-oce/csdp_faq_062502.html; section 6
of china-clouds.md). The answer's `official_website_amount` is then CNY for one instance for
one hour. When BSS rejects the batch because a flavor is not sold in the region, the region
is asked again one flavor at a time and the unsold flavors are skipped (reported).

Spot: BSS rates pay-per-use and yearly/monthly products only; Huawei's spot price is a
market price with no sourced API here (china-clouds.md 2.3: typical discount unsourced), so
`spot_native` stays None. Rows are CNY with the USD columns empty; `price_note` is "" (an
official API list price, before account discounts).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import Any

from profiles.catalog.fetchers import FetchError, answer_list, distinct_regions
from profiles.catalog.fetchers.huaweicloud_bss import (
    API,
    Credentials,
    NotSold,
    credentials_from_env,
    new_client,
    post_ratings,
)
from profiles.catalog.fetchers.huaweicloud_flavors import DEFAULT_REGIONS, FLAVORS, REGION_NAME, Flavor, to_offering
from profiles.catalog.offering import Offering

HOUR_MEASURE_ID = 4  # usage_measure_id of an hour (BSS measurement units; section 6)
YUAN_MEASURE_ID = 1  # measure_id of amounts: 1 = yuan (SDK model docstring "1：元")


def fetch(
    regions: Sequence[str] | None,
    progress: Callable[[str], None],
    *,
    flavors: Sequence[Flavor] = FLAVORS,
    **_clients: Any,
) -> list[Offering]:
    """Pay-per-use list prices of the sourced GPU flavors in each region, CNY per hour.

    Args:
        regions: Huawei region IDs (`cn-north-4`); None or empty for `DEFAULT_REGIONS`.
        progress: called with one line per region (and per skipped flavor).
        flavors: flavors to price (default: the nine sourced example flavors).
        **_clients: other fetchers' clients; ignored.

    Returns:
        One CNY-priced `Offering` per (flavor, region) BSS sells, sorted (flavor, region).

    Raises:
        FetchError: missing credentials, a bad region name, throttling, auth errors,
            malformed, partial or empty answers, or no flavor priced anywhere.
    """
    creds = credentials_from_env()
    names = check_regions(regions)
    client = new_client(creds)
    date = dt.date.today().isoformat()
    offerings: list[Offering] = []
    for region in names:
        prices = region_prices(client, creds, region, list(flavors), progress)
        offerings += [to_offering(f, region, prices[f.name], date) for f in flavors if f.name in prices]
        progress(f"huaweicloud {region}: {len(prices)} of {len(flavors)} flavors priced")
    if not offerings:
        raise FetchError(
            f"{API}: none of {len(flavors)} GPU flavors is sold in {', '.join(names)}; check the region names"
        )
    return sorted(offerings, key=lambda o: (o.instance_type, o.region))


def check_regions(regions: Sequence[str] | None) -> list[str]:
    """The regions to price: `regions` de-duplicated, or `DEFAULT_REGIONS`.

    Raises:
        FetchError: a name is not a Huawei region ID like `cn-north-4`.
    """
    return distinct_regions(
        regions, REGION_NAME, DEFAULT_REGIONS, "a Huawei Cloud region ID; use IDs such as cn-north-4"
    )


def region_prices(
    client: Any, creds: Credentials, region: str, flavors: list[Flavor], progress: Callable[[str], None]
) -> dict[str, float]:
    """Flavor -> CNY/hour in `region`; one batch, or one request per flavor when BSS says a
    flavor of the batch is not sold there (those flavors are left out). `client` is
    `huaweicloud_bss.new_client(creds)`."""
    if len(flavors) > 1:
        try:
            return rate(client, creds, region, flavors)
        except NotSold:
            progress(f"huaweicloud {region}: a flavor is not sold here; asking one flavor at a time")
    prices: dict[str, float] = {}
    for flavor in flavors:
        try:
            prices.update(rate(client, creds, region, [flavor]))
        except NotSold:
            progress(f"huaweicloud {region}: {flavor.name} not sold (BSS: product not found); skipped")
    return prices


def rate(client: Any, creds: Credentials, region: str, flavors: list[Flavor]) -> dict[str, float]:
    """One `ListOnDemandResourceRatings` call for `flavors` in `region`: flavor -> CNY/hour."""
    products = [product_info(str(i), flavor.name, region) for i, flavor in enumerate(flavors, start=1)]
    answer = post_ratings(client, creds, products, region)
    by_id = parse_ratings(answer, [p["id"] for p in products], region)
    return {flavor.name: by_id[str(i)] for i, flavor in enumerate(flavors, start=1)}


def product_info(product_id: str, flavor: str, region: str) -> dict[str, Any]:
    """The `DemandProductInfo` of one Linux ECS flavor for one hour in `region`."""
    return {
        "id": product_id,
        "cloud_service_type": "hws.service.type.ec2",
        "resource_type": "hws.resource.type.vm",
        "resource_spec": f"{flavor}.linux",
        "region": region,
        "usage_factor": "Duration",
        "usage_value": 1,
        "usage_measure_id": HOUR_MEASURE_ID,
        "subscription_num": 1,
    }


def parse_ratings(answer: dict[str, Any], ids: list[str], where: str) -> dict[str, float]:
    """Request id -> `official_website_amount` (CNY) of a rating answer.

    Raises:
        FetchError: not CNY, no results list (malformed), none (empty), fewer or other ids
            than asked (partial), or a result without a positive yuan amount.
    """
    currency = answer.get("currency") or "CNY"
    if currency != "CNY":
        raise FetchError(f"{API}, {where}: prices came in {currency}, not CNY; use the China-site endpoint")
    empty = "no prices in the answer (empty answer); retry later"
    results = answer_list(answer, "product_rating_results", f"{API}, {where}", empty)
    got = [str(r.get("id")) for r in results]
    if sorted(got) != sorted(ids):
        raise FetchError(f"{API}, {where}: answered ids {got} for {ids} asked (partial answer); retry")
    return {str(r["id"]): amount(r, where) for r in results}


def amount(result: dict[str, Any], where: str) -> float:
    """The positive yuan `official_website_amount` of one rating result."""
    value, measure = result.get("official_website_amount"), result.get("measure_id", YUAN_MEASURE_ID)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise FetchError(
            f"{API}, {where}: product {result.get('id')} has no positive official_website_amount "
            f"({value!r}; malformed); retry"
        )
    if measure != YUAN_MEASURE_ID:
        raise FetchError(f"{API}, {where}: product {result.get('id')} is priced in measure {measure}, not yuan (1)")
    return float(value)
