"""AWS fetcher: live GPU offerings and prices from EC2 and the Price List Query API.

Per region (EC2, see `aws_ec2`): the accelerated instance types of `GPU_FAMILIES`, the zone
IDs that offer each, and the latest Linux spot price per zone. Then, once per instance type
(Pricing, see `aws_pricing`): the on-demand and 1-/3-year standard No Upfront reserved
rates in every region. One row per (instance type, zone ID) that has a price; prices are
USD/hour for the whole instance. Nothing is written here (`profiles.catalog.refresh` does).
"""

from __future__ import annotations

import datetime as dt
import difflib
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from facts.accelerators import form_factor
from profiles.catalog.fetchers import FetchError, FetchInputError
from profiles.catalog.fetchers.aws_ec2 import (
    RETRY_HINT,
    TypeInfo,
    instance_types,
    latest_spot,
    offered_zones,
    zone_ids,
)
from profiles.catalog.fetchers.aws_pricing import PRICING_REGION, ProductPrices, fetch_prices
from profiles.catalog.offering import Offering
from profiles.preflight.aws_api import aws_errors, client, new_session

SOURCE = "aws-pricing-api"
# GPU / accelerator families used for training (instance-type prefixes before the dot).
GPU_FAMILIES: tuple[str, ...] = (
    "p3",
    "p3dn",
    "p4d",
    "p4de",
    "p5",
    "p5e",
    "p5en",
    "p6-b200",
    "g4dn",
    "g5",
    "g6",
    "g6e",
    "trn1",
    "trn1n",
    "dl1",
)


class RegionOffers(NamedTuple):
    """EC2's answer for one region.

    Attributes:
        types: instance type -> hardware (DescribeInstanceTypes).
        zones: instance type -> zone IDs offering it (DescribeInstanceTypeOfferings).
        spot: (instance type, zone ID) -> latest spot USD/hour (DescribeSpotPriceHistory).
    """

    types: dict[str, TypeInfo]
    zones: dict[str, list[str]]
    spot: dict[tuple[str, str], float]


def fetch(
    regions: Sequence[str] | None,
    progress: Callable[[str], None],
    session: Any = None,
    pricing: Any = None,
    families: tuple[str, ...] = GPU_FAMILIES,
    today: str | None = None,
) -> list[Offering]:
    """Live AWS offerings of `families` in `regions`.

    Args:
        regions: region names (`us-east-1`); None for every region enabled in the account.
        progress: called with a short message before each API step.
        session: a boto3 Session (default: credentials from the usual chain).
        pricing: a boto3 `pricing` client (default: one in us-east-1 from `session`).
        families: instance families to fetch, e.g. (`p4d`, `p5`).
        today: ISO date recorded as each row's `catalog_date` (default: today).

    Returns:
        Offerings sorted by (instance type, region, zone), `source` = `aws-pricing-api`.

    Raises:
        FetchError: unknown region, missing credentials, throttling, malformed, partial or
            empty answers (one line, with the fix).
    """
    session = new_session(session)
    names = resolve_regions(session, regions)
    by_region = {region: region_offers(session, region, families, progress) for region in names}
    types = {name for offers in by_region.values() for name in offers.types}
    if not types:
        raise FetchError(
            f"AWS returned no instance types of families {', '.join(families)} in "
            f"{', '.join(names)}; catalog unchanged, check --regions"
        )
    prices = fetch_prices(pricing or client(session, "pricing", PRICING_REGION), types, progress)
    date = today or dt.date.today().isoformat()
    rows = [row for region, offers in by_region.items() for row in _rows(region, offers, prices, date)]
    if not rows:
        raise FetchError(
            f"AWS offers none of the {len(types)} fetched instance types at a known price in "
            f"{', '.join(names)}; catalog unchanged, check --regions"
        )
    return sorted(rows, key=lambda o: (o.instance_type, o.region, o.zone))


def resolve_regions(session: Any, regions: Sequence[str] | None) -> list[str]:
    """`regions` checked against botocore's EC2 region list, or the account's enabled regions.

    Raises:
        FetchInputError: an unknown region name (with the nearest valid names).
    """
    known = set(session.get_available_regions("ec2"))
    if regions:
        for region in regions:
            if region not in known:
                near = difflib.get_close_matches(region, sorted(known), n=3)
                hint = f"did you mean {', '.join(near)}?" if near else "see `aws ec2 describe-regions`"
                raise FetchInputError(f"--regions: unknown AWS region '{region}'; {hint}")
        return list(dict.fromkeys(regions))
    ec2 = client(session, "ec2", session.region_name or PRICING_REGION)
    with aws_errors("ec2:DescribeRegions", session.region_name or PRICING_REGION, FetchError, RETRY_HINT):
        answer = ec2.describe_regions()
    return sorted(r["RegionName"] for r in answer.get("Regions", []) if r.get("RegionName") in known)


def region_offers(
    session: Any, region: str, families: tuple[str, ...], progress: Callable[[str], None]
) -> RegionOffers:
    """EC2's types, zone offerings and latest spot prices for `families` in `region`."""
    ec2 = client(session, "ec2", region)
    progress(f"aws {region}: instance types")
    types = instance_types(ec2, region, families)
    if not types:
        return RegionOffers({}, {}, {})
    names = sorted(types)
    progress(f"aws {region}: zones offering {len(names)} types")
    zone_of = zone_ids(ec2, region)
    zones = offered_zones(ec2, region, names)
    progress(f"aws {region}: spot prices")
    return RegionOffers(types, zones, latest_spot(ec2, region, names, zone_of))


def _rows(region: str, offers: RegionOffers, prices: dict[tuple[str, str], ProductPrices], date: str) -> list[Offering]:
    rows = []
    for name, info in offers.types.items():
        listed = prices.get((name, region), ProductPrices(None, None, None))
        for zone in offers.zones.get(name, []):
            spot = offers.spot.get((name, zone))
            if listed.on_demand is None and spot is None:
                continue
            rows.append(
                Offering(
                    **info._asdict(),  # the type's hardware, field for field (`aws_ec2.TypeInfo`)
                    provider="aws",
                    region=region,
                    zone=zone,
                    form_factor=form_factor(info.accelerator, name),
                    interconnect="efa" if info.max_efa_interfaces else "ethernet",
                    on_demand_usd_per_hour=listed.on_demand,
                    spot_usd_per_hour=spot,
                    catalog_date=date,
                    source=SOURCE,
                    reserved_1y_usd_per_hour=listed.reserved_1y,
                    reserved_3y_usd_per_hour=listed.reserved_3y,
                )
            )
    return rows
