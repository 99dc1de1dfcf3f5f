"""Volcengine GPU ECS pay-as-you-go prices from billing `QueryPriceForPayAsYouGo` (CNY).

What is priced, and why so little (china-clouds.md 1.4, 2.4, 6):
- Only `ecs.gni2.3xlarge` (14 vCPU, 56 GB, 1 x A10; a THIRD-PARTY README) has sourced
  specs. The other GPU families (pni2, hpcpni2, hpcg3ib, g1v, g1ie) have no sourced sizes or
  specs, so none is invented: codes given for them are reported and skipped.
- The billing API does not take an instance type or a region. It prices a `Product` and,
  per item, a `ChargeItemCode` and `ConfigurationCode`, and a third-party collector reports
  that these are internal codes the ECS catalog does not expose. So the codes come from the
  user, per region and instance type, in a JSON file named by
  `TRAINSTACK_VOLCENGINE_PRICE_CODES` (or the `price_codes=` argument):
  `{"cn-beijing": {"ecs.gni2.3xlarge": {"Product": "...", "ChargeItemCode": "...",
  "ConfigurationCode": "..."}}}`. No code is guessed.
- Each item asks `Quantity` 1, `UseDuration` 1 and the answer's `OriginalAmount` (the
  amount before discounts) is kept as CNY per hour. The unit of `UseDuration` and the
  meaning of the amounts are not documented in the sources read: every row says so in
  `price_note`. Spot prices (ECS `DescribeSpotPriceHistory`) are not fetched.
A billing price has no zone, so `zone` repeats the region.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from facts.accelerators import ACCELERATORS
from profiles.catalog.fetchers import FetchError, answer_list, positive_number
from profiles.catalog.fetchers.volcengine_billing import API, credentials_from_env, new_api, post_price_query
from profiles.catalog.offering import Offering, priced_in_cny

SOURCE = "volcengine-billing-QueryPriceForPayAsYouGo"
CODES_ENV = "TRAINSTACK_VOLCENGINE_PRICE_CODES"
CODE_KEYS = ("Product", "ChargeItemCode", "ConfigurationCode")
NOTE = "unverified: user-supplied billing codes; UseDuration=1 read as one hour, OriginalAmount as list price"
REGION_NAME = re.compile(r"^[a-z]{2}-[a-z]+(-\d+)?$")
# instance type -> (accelerator, count, vCPUs, memory GiB); china-clouds.md 1.4, third-party.
TYPES: dict[str, tuple[str, int, float, float]] = {"ecs.gni2.3xlarge": ("A10", 1, 14.0, 56.0)}

Codes = dict[str, dict[str, dict[str, str]]]  # region -> instance type -> code name -> code


def fetch(
    regions: Sequence[str] | None,
    progress: Callable[[str], None],
    *,
    price_codes: Codes | None = None,
    endpoint: str | None = None,
    **_clients: Any,
) -> list[Offering]:
    """Pay-as-you-go prices of the described instance types the user has codes for.

    Args:
        regions: Volcengine regions (`cn-beijing`); None or empty for every region of the codes.
        progress: called with one line per price asked or type skipped.
        price_codes: region -> instance type -> `Product`/`ChargeItemCode`/`ConfigurationCode`
            (default: the JSON file named by `TRAINSTACK_VOLCENGINE_PRICE_CODES`).
        endpoint: `scheme://host[:port]` of the billing API (default: the SDK's).
        **_clients: other fetchers' clients; ignored.

    Returns:
        One CNY-priced `Offering` per (described type, region), sorted (type, region).

    Raises:
        FetchError: missing credentials or codes, bad codes or region names, throttling,
            auth errors, malformed, partial or empty answers, or nothing priced.
    """
    creds = credentials_from_env()
    codes = select(price_codes if price_codes is not None else load_codes(), regions)
    api = new_api(creds, endpoint)
    date = dt.date.today().isoformat()
    offerings: list[Offering] = []
    for region, by_type in sorted(codes.items()):
        for instance_type, code in sorted(by_type.items()):
            if instance_type not in TYPES:
                progress(f"volcengine {region}: {instance_type} skipped: its specs are unsourced")
                continue
            price = query_price(api, code, f"{instance_type} in {region}")
            offerings.append(to_offering(instance_type, region, price, date))
            progress(f"volcengine {region}: {instance_type} {price} CNY/h")
    if not offerings:
        raise FetchError(f"{API}: no price codes for a described type ({', '.join(TYPES)}); add them to {CODES_ENV}")
    return offerings


def load_codes(path: str | None = None) -> Codes:
    """The price codes in the JSON file `path` (default: `$TRAINSTACK_VOLCENGINE_PRICE_CODES`).

    Raises:
        FetchError: the variable is unset, or the file is unreadable or not valid JSON.
    """
    path = path or os.environ.get(CODES_ENV)
    if not path:
        raise FetchError(
            f"{API} needs Product/ChargeItemCode/ConfigurationCode codes Volcengine does not publish: "
            f"set {CODES_ENV} to a JSON file of them (see fetchers/volcengine.py)"
        )
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise FetchError(
            f"{CODES_ENV}={path}: cannot read the price codes ({type(exc).__name__}); fix the file"
        ) from None


def select(codes: Any, regions: Sequence[str] | None) -> Codes:
    """The codes of `regions` (all regions when None), after checking their shape.

    Raises:
        FetchError: a malformed entry, a bad region name, or a region without codes.
    """
    if not isinstance(codes, dict):
        raise FetchError(f"{CODES_ENV}: expected {{region: {{instance type: {{{', '.join(CODE_KEYS)}}}}}}}")
    for region in list(regions or ()) + list(codes):
        if not REGION_NAME.match(str(region)):
            raise FetchError(f"'{region}' is not a Volcengine region name; use names such as cn-beijing")
    for region, by_type in codes.items():
        for instance_type, code in by_type.items() if isinstance(by_type, dict) else [("?", None)]:
            if not (isinstance(code, dict) and all(isinstance(code.get(k), str) and code[k] for k in CODE_KEYS)):
                raise FetchError(f"{CODES_ENV}: {region}/{instance_type} needs non-empty {', '.join(CODE_KEYS)}")
    missing = [r for r in regions or () if r not in codes]
    if missing:
        raise FetchError(f"{CODES_ENV}: no price codes for {', '.join(missing)}; add them or drop the region")
    return {r: codes[r] for r in (dict.fromkeys(regions) if regions else codes)}


def query_price(api: Any, code: dict[str, str], where: str) -> float:
    """CNY `OriginalAmount` of one instance for `UseDuration` 1 under `code` (`api`:
    `volcengine_billing.new_api(...)`)."""
    item = {
        "ChargeItemCode": code["ChargeItemCode"],
        "ConfigurationCode": code["ConfigurationCode"],
        "Quantity": 1,
        "UseDuration": 1,
    }
    result = post_price_query(api, {"Product": code["Product"], "ConfigList": [item]}, where)
    return parse_result(result, code["ConfigurationCode"], where)


def parse_result(result: dict[str, Any], configuration: str, where: str) -> float:
    """The positive CNY `OriginalAmount` of the item for `configuration`.

    Raises:
        FetchError: not CNY, no ConfigList (malformed), an empty one, no item for the
            configuration asked (partial), or an amount that is not a positive number.
    """
    if result.get("Currency", "CNY") != "CNY":
        raise FetchError(f"{API}, {where}: prices came in {result.get('Currency')}, not CNY; use a China-site account")
    items = answer_list(
        result, "ConfigList", f"{API}, {where}", "no price in the answer (empty answer); check the codes"
    )
    item = next((i for i in items if i.get("ConfigurationCode") == configuration), None)
    if item is None:
        raise FetchError(f"{API}, {where}: no item for ConfigurationCode {configuration} (partial answer); retry")
    value = positive_number(item.get("OriginalAmount"))
    if value is None:
        raise FetchError(
            f"{API}, {where}: OriginalAmount {item.get('OriginalAmount')!r} is not a positive number (malformed); retry"
        )
    return value


def to_offering(instance_type: str, region: str, cny_per_hour: float, date: str) -> Offering:
    """The catalog row of a described type, priced in CNY (USD columns empty)."""
    accelerator, count, vcpus, memory = TYPES[instance_type]
    facts = ACCELERATORS[accelerator]
    return priced_in_cny(
        cny_per_hour,
        provider="volcengine",
        region=region,
        zone=region,
        instance_type=instance_type,
        accelerator=accelerator,
        accelerator_count=count,
        accelerator_memory_gib=float(facts.memory_gib),
        form_factor=facts.form_factor,
        vcpus=vcpus,
        memory_gib=memory,
        interconnect="ethernet",
        network_gbps=None,
        catalog_date=date,
        source=SOURCE,
        price_note=NOTE,
    )
