"""EC2 list prices from the AWS Price List Query API (`pricing:GetProducts`).

One paginated GetProducts query per instance type returns that type's product in every
region. The filters select the plain Linux product: shared tenancy, no pre-installed
software, no license, capacity status `Used`, market option `OnDemand` (other market options,
such as Capacity Blocks, publish a $0.00 hourly rate that must never read as "free").

Each PriceList entry is a JSON document (AWS Price List "aws_v1" format):
`product.attributes` (instanceType, regionCode, ...) and `terms.OnDemand` /
`terms.Reserved`, each term holding `priceDimensions` with a `unit` (`Hrs`, or `Quantity`
for an upfront fee) and `pricePerUnit.USD`. Reserved terms are told apart by
`termAttributes` (LeaseContractLength `1yr`/`3yr`, OfferingClass `standard`/`convertible`,
PurchaseOption `No Upfront`/`Partial Upfront`/`All Upfront`); trainstack records the standard
No Upfront hourly rate, which is the effective USD/hour of that term.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from profiles.catalog.fetchers import FetchError
from profiles.preflight.aws_api import aws_errors

# The Price List Query API is served from us-east-1 (and ap-south-1) only.
PRICING_REGION = "us-east-1"
RETRY_HINT = "rerun `trainstack catalog refresh --provider aws`"
PRODUCT_FILTERS: dict[str, str] = {
    "operatingSystem": "Linux",
    "tenancy": "Shared",
    "preInstalledSw": "NA",
    "capacitystatus": "Used",
    "licenseModel": "No License required",
    "marketoption": "OnDemand",
}
RESERVED_CLASS, RESERVED_PAYMENT = "standard", "No Upfront"


class ProductPrices(NamedTuple):
    """List prices of one instance type in one region, USD/hour for the whole instance.

    Attributes:
        on_demand: on-demand rate; None when not published.
        reserved_1y: 1-year standard No Upfront reserved rate; None when not published.
        reserved_3y: 3-year standard No Upfront reserved rate; None when not published.
    """

    on_demand: float | None
    reserved_1y: float | None
    reserved_3y: float | None


def product_filters(instance_type: str) -> list[dict[str, str]]:
    """GetProducts TERM_MATCH filters selecting the Linux product of `instance_type`."""
    fields = {"instanceType": instance_type, **PRODUCT_FILTERS}
    return [{"Type": "TERM_MATCH", "Field": k, "Value": v} for k, v in fields.items()]


def parse_price_item(item: str | dict) -> tuple[str, str, ProductPrices]:
    """Instance type, region code and prices of one PriceList entry.

    Args:
        item: one element of GetProducts' `PriceList` (JSON text, as boto3 returns it).

    Raises:
        ValueError: the entry is not JSON or lacks product attributes or terms.
    """
    try:
        document = json.loads(item) if isinstance(item, str) else item
        attributes = document["product"]["attributes"]
        terms = document["terms"]
        reserved = list(terms.get("Reserved", {}).values())
        prices = ProductPrices(
            _hourly(terms.get("OnDemand", {}).values()),
            _hourly(t for t in reserved if _is_term(t, "1yr")),
            _hourly(t for t in reserved if _is_term(t, "3yr")),
        )
        return attributes["instanceType"], attributes["regionCode"], prices
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"missing {exc}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON: {exc.msg}") from None


def _is_term(term: dict, length: str) -> bool:
    attributes = term.get("termAttributes", {})
    return (
        attributes.get("LeaseContractLength") == length
        and attributes.get("OfferingClass") == RESERVED_CLASS
        and attributes.get("PurchaseOption") == RESERVED_PAYMENT
    )


def _hourly(terms: Iterable[dict]) -> float | None:
    """The first hourly (`Hrs`) USD rate of `terms`; None when absent or not positive."""
    for term in terms:
        for dimension in term["priceDimensions"].values():
            if dimension["unit"] == "Hrs":
                value = float(dimension["pricePerUnit"]["USD"])
                return value if math.isfinite(value) and value > 0 else None
    return None


def fetch_prices(
    pricing: Any, instance_types: Iterable[str], progress: Callable[[str], None]
) -> dict[tuple[str, str], ProductPrices]:
    """List prices of `instance_types` in every region, keyed by (instance type, region).

    Args:
        pricing: a boto3 `pricing` client (region us-east-1).
        instance_types: EC2 instance types, e.g. `p4d.24xlarge`.
        progress: called with a short message before each instance type.

    Raises:
        FetchError: throttling, missing credentials, a malformed entry, or no price at all.
    """
    prices: dict[tuple[str, str], ProductPrices] = {}
    types = sorted(set(instance_types))
    for instance_type in types:
        progress(f"aws pricing: {instance_type}")
        for item in _price_list(pricing, instance_type):
            try:
                found_type, region, found = parse_price_item(item)
            except ValueError as exc:
                raise FetchError(
                    f"AWS pricing:GetProducts returned a malformed PriceList entry for {instance_type} "
                    f"({exc}); catalog unchanged, {RETRY_HINT} later"
                ) from None
            prices[(found_type, region)] = _merge(prices.get((found_type, region)), found)
    if not any(any(p) for p in prices.values()):
        raise FetchError(
            f"AWS pricing:GetProducts returned no Linux prices for {', '.join(types) or 'no instance types'}; "
            f"catalog unchanged, check the instance families or {RETRY_HINT} later"
        )
    return prices


def _price_list(pricing: Any, instance_type: str) -> Iterable[Any]:
    items: list[Any] = []
    with aws_errors("pricing:GetProducts", PRICING_REGION, FetchError, RETRY_HINT):
        pages = pricing.get_paginator("get_products").paginate(
            ServiceCode="AmazonEC2", Filters=product_filters(instance_type), FormatVersion="aws_v1"
        )
        for page in pages:
            if not isinstance(page.get("PriceList"), list):
                raise FetchError(
                    f"AWS pricing:GetProducts page for {instance_type} has no PriceList; "
                    f"catalog unchanged, {RETRY_HINT} later"
                )
            items.extend(page["PriceList"])
    return items


def _merge(old: ProductPrices | None, new: ProductPrices) -> ProductPrices:
    """Keep the first published value per field when a region repeats a product."""
    if old is None:
        return new
    return ProductPrices(*(a if a is not None else b for a, b in zip(old, new, strict=False)))
