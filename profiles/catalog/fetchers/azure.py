"""Azure GPU VM prices from the public Retail Prices REST API (no credentials needed).

API (https://learn.microsoft.com/rest/api/cost-management/retail-prices/azure-retail-prices):
`GET https://prices.azure.com/api/retail/prices?api-version=2023-01-01-preview` answers
pages `{"BillingCurrency", "CustomerEntityId", "CustomerEntityType", "Items": [...],
"NextPageLink": url or null, "Count": n}`; `$filter` values are case-sensitive in this
version. One query chain per region (or one for all regions) asks for Virtual Machines
whose `armSkuName` contains "Standard_N" (every GPU size of the catalog), primary meters.

Items kept, for the VM sizes the committed catalog knows (`data/azure.csv`):
- `serviceName` "Virtual Machines", `unitOfMeasure` "1 Hour", prices in USD.
- Linux only: a `productName` containing "Windows" includes the Windows licence; skipped.
- `type` "Consumption": a `skuName`/`meterName` ending in " Spot" is the spot price; one
  containing "Low Priority" (the retired Batch / scale-set meter) is skipped; any other is
  the on-demand price. `type` "DevTestConsumption", 5-year terms, other units: skipped.
- `type` "Reservation", `reservationTerm` "1 Year"/"3 Years": `unitPrice` is the price of
  the whole term, not per hour (a D8 v4 in westeurope: 0.46 USD/h on demand, 2,377 for one
  year, 4,594 for three), so USD/hour = unitPrice / 8,760 or / 26,280. Sources: recorded
  Retail Prices answers (tests/profiles/fixtures/azure/README.md); Microsoft's price-sheet
  schema (MCAPriceSheetProperties: "for PriceType ReservedInstance, market price reflects
  the total price of the 1 or 3-year commitment"); ahmadabdalla/azure-cost-calculator #400.
A repeated (size, region, purchase) keeps the item with the newest `effectiveStartDate`.

Regions are `armRegionName` (the name ARM and Pulumi take); an item with only a `location`
display name is mapped by `azure_regions`. Hardware facts, and the rule that a spot price
not below on-demand is no spot price, come from the offline builder
`profiles.catalog.sources.azure.to_offering`.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import requests

from profiles.catalog.fetchers import FetchError
from profiles.catalog.fetchers.azure_regions import region_of
from profiles.catalog.fetchers.http_json import get_json
from profiles.catalog.fetchers.known_types import known_offerings, templates_by_type
from profiles.catalog.offering import Offering
from profiles.catalog.sources.azure import to_offering
from profiles.catalog.sources.common import parse_price

API = "Azure Retail Prices API"
URL = "https://prices.azure.com/api/retail/prices"
API_VERSION = "2023-01-01-preview"
SOURCE = "azure-retail-prices-api"
SIZE_PREFIX = "Standard_N"
TERMS = {"1 Year": "1y", "3 Years": "3y"}
# Hours in a reservation term: 365 x 24 = 8,760 (1 year) and 3 x 8,760 = 26,280 (3 years).
TERM_HOURS = {"1y": 8_760, "3y": 26_280}
_REGION_NAME = re.compile(r"^[a-z0-9]+$")

Prices = dict[tuple[str, str], dict[str, float]]  # (size, region) -> {purchase: USD}


def fetch(
    regions: Sequence[str] | None,
    progress: Callable[[str], None],
    *,
    http_session: requests.Session | None = None,
    catalog: Iterable[Offering] | None = None,
    **_clients: Any,
) -> list[Offering]:
    """On-demand, spot and 1y/3y reservation prices of the catalog's Azure GPU sizes.

    Args:
        regions: ARM region names (`eastus2`); None or empty for every region.
        progress: called with one line per page read.
        http_session: the `requests.Session` to use (default: a new one).
        catalog: offerings whose Azure rows list the known sizes (default: the committed
            catalog).
        **_clients: other fetchers' clients (e.g. a boto3 `session`); ignored.

    Returns:
        One `Offering` per (size, region) with an on-demand or spot price, whole-VM
        USD/hour, reservations as effective USD/hour over the term, `source` SOURCE.

    Raises:
        FetchError: throttling, partial or malformed pages, an empty answer, or no known
            size priced.
    """
    templates = templates_by_type(known_offerings("azure", catalog))
    session = http_session or requests.Session()
    try:
        items = [item for query in filters(regions) for item in _fetch_items(session, query, progress)]
    finally:
        if http_session is None:
            session.close()
    prices = parse_items(items, set(templates), regions)
    offerings = build_offerings(prices, templates, dt.date.today().isoformat())
    if not offerings:
        raise FetchError(f"{API}: {len(items)} items but none priced a known GPU size; check `data/azure.csv` sizes")
    progress(f"azure: {len(offerings)} offerings priced")
    return offerings


def filters(regions: Sequence[str] | None) -> list[str]:
    """The `$filter` of each query chain: one for all regions, or one per region.

    Raises:
        FetchError: a region is not an ARM name like `eastus2`.
    """
    base = f"serviceName eq 'Virtual Machines' and contains(armSkuName, '{SIZE_PREFIX}')"
    if not regions:
        return [base]
    for region in regions:
        if not _REGION_NAME.match(region):
            raise FetchError(f"'{region}' is not an Azure region name; use ARM names such as eastus2")
    return [f"{base} and armRegionName eq '{region}'" for region in dict.fromkeys(regions)]


def _fetch_items(session: requests.Session, query: str, progress: Callable[[str], None]) -> list[dict]:
    """Every item of one query chain, following `NextPageLink` to the last page."""
    url: str | None = URL
    params: dict[str, str] | None = {"api-version": API_VERSION, "meterRegion": "'primary'", "$filter": query}
    items: list[dict] = []
    seen: set[str] = set()
    page = 0
    while url:
        page += 1
        page_items, url = check_page(get_json(session, url, api=API, page=page, params=params), page)
        if url in seen:
            raise FetchError(f"{API}, page {page}: NextPageLink repeats an earlier page (malformed); retry later")
        seen.add(url or "")
        items.extend(page_items)
        params = None  # a NextPageLink carries the whole query
        progress(f"azure: page {page}: {len(page_items)} items")
    if not items:
        raise FetchError(f"{API}: no items for [{query}] (empty answer); check the region names or retry later")
    return items


def check_page(body: dict[str, Any], page: int) -> tuple[list[dict], str | None]:
    """A page's items and next-page link, after checking the page is whole.

    Raises:
        FetchError: no `Items` list, a bad `NextPageLink`, or `Count` differs from the
            number of items that arrived (partial page).
    """
    items, link, count = body.get("Items"), body.get("NextPageLink"), body.get("Count")
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise FetchError(f"{API}, page {page}: no 'Items' list (malformed answer); run the refresh again")
    if link is not None and not (isinstance(link, str) and link.startswith("https://")):
        raise FetchError(f"{API}, page {page}: NextPageLink is not an https URL (malformed answer); retry later")
    if not isinstance(count, int) or isinstance(count, bool):
        raise FetchError(f"{API}, page {page}: no 'Count' (malformed answer); run the refresh again")
    if count != len(items):
        raise FetchError(f"{API}, page {page}: Count says {count} items but {len(items)} arrived (partial page); retry")
    return items, link or None


def purchase_of(item: dict[str, Any]) -> str | None:
    """`on-demand`, `spot`, `1y`, `3y`, or None for an item the catalog does not use."""
    if item.get("serviceName") != "Virtual Machines" or item.get("unitOfMeasure") != "1 Hour":
        return None
    if "Windows" in str(item.get("productName", "")):
        return None
    names = (str(item.get("skuName", "")), str(item.get("meterName", "")))
    if any("Low Priority" in name for name in names):
        return None
    if item.get("type") == "Reservation":
        return TERMS.get(str(item.get("reservationTerm")))
    if item.get("type") != "Consumption":
        return None
    return "spot" if any(name.endswith(" Spot") for name in names) else "on-demand"


def unit_price(item: dict[str, Any]) -> float | None:
    """The item's `unitPrice` in USD; None when zero or negative (no price).

    Raises:
        FetchError: `unitPrice` is not a number, or the currency is not USD.
    """
    value = item.get("unitPrice")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise FetchError(f"{API}: the item for {item.get('armSkuName')} has no numeric unitPrice (malformed); retry")
    if item.get("currencyCode", "USD") != "USD":
        raise FetchError(f"{API}: prices came in {item.get('currencyCode')}, not USD; query without currencyCode")
    return parse_price(repr(float(value)))


def parse_items(items: Iterable[dict[str, Any]], sizes: set[str], regions: Sequence[str] | None = None) -> Prices:
    """Prices per (size, region) and purchase from Retail Prices items of known sizes
    (and of `regions`, when given); items without a usable region are skipped."""
    newest: dict[tuple[str, str, str], tuple[str, float]] = {}
    for item in items:
        size = item.get("armSkuName")
        if size not in sizes:
            continue
        purchase, region = purchase_of(item), region_of(item)
        if purchase is None or region is None or (regions and region not in regions):
            continue
        price = unit_price(item)
        start = str(item.get("effectiveStartDate", ""))
        key = (size, region, purchase)
        if price is not None and (key not in newest or start > newest[key][0]):
            newest[key] = (start, price)
    prices: Prices = {}
    for (size, region, purchase), (_, price) in newest.items():
        prices.setdefault((size, region), {})[purchase] = price
    return prices


def build_offerings(prices: Prices, templates: dict[str, Offering], date: str) -> list[Offering]:
    """Offerings built by the offline builder, plus reservation USD/hour, sorted (size, region)."""
    offerings: list[Offering] = []
    for (size, region), by_purchase in sorted(prices.items()):
        offering = to_offering(extract_row(templates[size], region, by_purchase), date)
        if offering is None:
            continue
        per_hour = {
            term: round(by_purchase[term] / hours, 6) for term, hours in TERM_HOURS.items() if term in by_purchase
        }
        offerings.append(
            offering._replace(
                source=SOURCE, reserved_1y_usd_per_hour=per_hour.get("1y"), reserved_3y_usd_per_hour=per_hour.get("3y")
            )
        )
    return offerings


def extract_row(template: Offering, region: str, by_purchase: dict[str, float]) -> dict[str, str]:
    """The offline builder's input row (`azure_gpu.csv` columns) for one size and region,
    hardware from the catalog row `template`, prices from the API."""

    def text(value: float | None) -> str:
        return "" if value is None else repr(value)

    return {
        "InstanceType": template.instance_type,
        "Region": region,
        "AcceleratorName": template.accelerator,
        "AcceleratorCount": str(template.accelerator_count),
        "vCPUs": text(template.vcpus),
        "MemoryGiB": text(template.memory_gib),
        "Price": text(by_purchase.get("on-demand")),
        "SpotPrice": text(by_purchase.get("spot")),
    }
