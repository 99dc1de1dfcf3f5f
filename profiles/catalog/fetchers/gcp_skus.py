"""Cloud Billing Catalog SKUs of Compute Engine -> unit prices of GPU-node components.

A GCP GPU node is billed in three parts, each its own SKU: the machine family's vCPUs
("A2 Instance Core running in Americas", per hour), its memory ("A2 Instance Ram ...", per
GiB-hour) and the GPUs ("Nvidia Tesla A100 GPU running in Americas", per GPU-hour).
`category.usageType` gives the purchase: OnDemand, Preemptible (spot, descriptions start
"Spot Preemptible"), Commit1Yr / Commit3Yr (committed use, "Commitment v1: A2 Cpu in
Americas for 1 Year"). Committed-use SKUs are hourly rates like the others.

Matching follows SkyPilot's catalog fetcher (skypilot-org/skypilot
`sky/catalog/data_fetchers/fetch_gcp.py`), which produced the offline catalog: GPU
description fragments per accelerator name, host SKUs by family ("A2", "A3", "G2"), and
the same exclusions (custom, sole tenancy, premium, reserved), plus GPU Virtual
Workstation SKUs (a GPU with a licence). A SKU seen twice for one key keeps the first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from profiles.catalog.fetchers import FetchError

API = "GCP Cloud Billing Catalog API"
USAGE_TYPES = {"OnDemand": "on-demand", "Preemptible": "spot", "Commit1Yr": "1y", "Commit3Yr": "3y"}
SKIP_WORDS = ("custom", "sole tenancy", "premium", "reserved", "virtual workstation")

# SkyPilot accelerator name -> fragments of its GPU SKU description (fetch_gcp.py).
# "A100 GPU" does not match "A100 80GB GPU", nor "H100 80GB GPU" the Mega SKUs.
GPU_SKU_NAMES: dict[str, tuple[str, ...]] = {
    "A100": ("A100 GPU",),
    "A100-80GB": ("A100 80GB GPU",),
    "H100": ("H100 80GB GPU",),
    "H100-MEGA": ("H100 80GB Mega GPU", "H100 Mega 80GB GPU", "H100 80GB Plus GPU"),
    "H200": ("H200 141GB GPU",),
    "L4": ("L4 GPU",),
}

# Host SKUs: "A2 Instance Core/Ram" (on-demand, spot) and "A2 Cpu/Ram" (commitments).
HOST_SKU = re.compile(r"\b(A2|A3|G2) (?:Instance Core|Instance Ram|Cpu|Ram)\b")

# component -> (resourceGroup, usageUnit of its price)
COMPONENTS = {"gpu": ("GPU", "h"), "core": ("CPU", "h"), "ram": ("RAM", "GiBy.h")}

# (component, accelerator name or machine family, purchase, region) -> USD per unit-hour
UnitPrices = dict[tuple[str, str, str, str], float]


def classify(sku: dict[str, Any]) -> tuple[str, str, str] | None:
    """(component, name, purchase) of a GPU-node SKU, or None for any other SKU.

    component is `gpu`, `core` or `ram`; name the SkyPilot accelerator name (`A100`) for
    a GPU, else the machine family (`a2`); purchase `on-demand`, `spot`, `1y` or `3y`.
    """
    category = sku.get("category") or {}
    purchase = USAGE_TYPES.get(category.get("usageType", ""))
    description = str(sku.get("description", ""))
    if category.get("resourceFamily") != "Compute" or purchase is None:
        return None
    if any(word in description.lower() for word in SKIP_WORDS):
        return None
    group = category.get("resourceGroup")
    if group == "GPU":
        name = next((n for n, parts in GPU_SKU_NAMES.items() if any(p in description for p in parts)), None)
        return None if name is None else ("gpu", name, purchase)
    match = HOST_SKU.search(description)
    if match is None or group not in ("CPU", "RAM"):
        return None
    return ("core" if group == "CPU" else "ram", match.group(1).lower(), purchase)


def unit_price(sku: dict[str, Any], component: str) -> float:
    """USD per hour (per GiB-hour for RAM) of the first tier of `pricingInfo[0]`.

    Raises:
        FetchError: no price, a unit other than the component's, or not USD.
    """
    what = f"{API}: SKU '{sku.get('description')}'"
    try:
        expression = sku["pricingInfo"][0]["pricingExpression"]
        unit = expression["usageUnit"]
        tier = min(expression["tieredRates"], key=lambda rate: float(rate.get("startUsageAmount", 0)))
        money = tier["unitPrice"]
        price = int(money.get("units") or 0) + int(money.get("nanos") or 0) / 1e9
    except (KeyError, IndexError, TypeError, ValueError):
        raise FetchError(f"{what} has no readable price (malformed answer); run the refresh again") from None
    if unit != COMPONENTS[component][1]:
        raise FetchError(f"{what} is priced per '{unit}', expected '{COMPONENTS[component][1]}'; update gcp_skus")
    if money.get("currencyCode", "USD") != "USD":
        raise FetchError(f"{what} is priced in {money.get('currencyCode')}, not USD; query with currencyCode=USD")
    return price


def parse_skus(skus: Iterable[dict[str, Any]]) -> UnitPrices:
    """Unit prices of every GPU-node SKU, per region of its `serviceRegions`.

    Raises:
        FetchError: a GPU-node SKU with an unreadable price or unexpected unit.
    """
    prices: UnitPrices = {}
    for sku in skus:
        kind = classify(sku)
        if kind is None:
            continue
        price = unit_price(sku, kind[0])
        if price <= 0:
            continue
        for region in sku.get("serviceRegions") or ():
            prices.setdefault((*kind, str(region)), price)
    return prices
