"""Price sanity: catalog prices that disagree with their siblings, found from the rows themselves.

Two checks over the loaded catalog (`catalog info`, `catalog build` and the resolver's rows
all call `price_findings`; nothing is stored, so a refresh that settles a price clears it):

- **Regions of one continent.** Rows of one cloud and instance type (so the same
  accelerator, count and host) whose on-demand prices differ by more than `REGION_RATIO`
  (1.8x, issue #27: GCP a3-highgpu-8g $43.07/h in us-central1 against $87.83-98.93 in
  us-east4 and us-east5) across the regions of one continent: every row more than 1.8x
  from another is flagged, naming the other side, since which side is wrong is not known. Cloud list prices for one machine differ by region by less
  (regional uplifts of tens of percent), so a wider gap is more likely a wrong price in one
  snapshot than a real one: a flag, not a correction.
- **Memory variants.** A larger-memory variant of an accelerator (A100-80GB) cheaper per node
  than the smaller one (A100) at the same count in the same region: both cannot be right
  list prices (GCP a2-ultragpu-8g below a2-highgpu-8g).

A finding is dropped when the flagged row's price was observed later than every sibling's it
disagrees with: the newer price settles it (`Offering.catalog_date`, ISO date first).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from clouds.registry import CLOUDS
from profiles.catalog.offering import Offering

# The largest ratio between one row's on-demand price and its continent group's median that
# passes unflagged (issue #27's threshold, a choice).
REGION_RATIO = 1.8

# Region name prefixes per continent, across the clouds' naming schemes (AWS `eu-west-1`,
# GCP `europe-west4`, Azure `westeurope`, Chinese clouds `cn-beijing`, `ap-beijing`).
_CONTINENTS = (
    (
        "north-america",
        r"^(us|ca|mx|northamerica)-|^(east|west|central|northcentral|southcentral|westcentral)us|^canada",
    ),
    ("south-america", r"^(sa|southamerica|la)-|^brazil"),
    ("europe", r"^(eu|europe|uk)-|europe$|^(uk|france|germany|switzerland|norway|sweden|poland|italy|spain)"),
    (
        "asia-pacific",
        r"^(ap|asia|cn|australia|jp|kr|in)-|^(japan|korea|australia|southeastasia|eastasia|india|central ?india)",
    ),
    ("middle-east", r"^(me|il)-|^(uae|qatar|israel)"),
    ("africa", r"^(af|africa)-|^southafrica"),
)


@functools.lru_cache(maxsize=1024)
def continent(region: str) -> str | None:
    """The continent of a region name (`us-central1` -> `north-america`), or None when unknown."""
    for name, pattern in _CONTINENTS:
        if re.search(pattern, region):
            return name
    return None


class Finding(NamedTuple):
    """One row whose price disagrees with its siblings.

    Attributes:
        provider, region, instance_type: the flagged row (every zone of the region).
        accelerator: the row's accelerator (a GCP N1 host type carries T4, P4, P100 or V100 at
            different prices: each is its own row).
        kind: `region-spread` or `memory-variant`.
        text: what disagrees, with the prices, the siblings and the row's source and date.
    """

    provider: str
    region: str
    instance_type: str
    accelerator: str
    kind: str
    text: str


def _observed(o: Offering) -> str | None:
    """The row's price date (ISO), or None when unknown."""
    found = re.match(r"\d{4}-\d{2}-\d{2}", o.catalog_date)
    return found.group(0) if found else None


def _latest(o: Offering) -> str | None:
    """The latest the row's price can be from: its date, else the date it was extracted on
    (`unknown, extracted on 2026-12-01`), else None."""
    found = re.search(r"\d{4}-\d{2}-\d{2}", o.catalog_date)
    return found.group(0) if found else None


def _settled(row: Offering, others: Iterable[Offering]) -> bool:
    """The row's price was observed after every sibling it disagrees with could have been."""
    mine = _observed(row)
    return mine is not None and all((d := _latest(o)) is not None and d < mine for o in others)


def _by_region(offerings: Iterable[Offering]) -> dict[tuple, Offering]:
    """One row per (provider, region, instance type, accelerator and count): the first priced
    zone's (a GCP N1 host's rows with different GPUs are different rows)."""
    found: dict[tuple, Offering] = {}
    for o in offerings:
        if o.on_demand_usd_per_hour is not None and o.accelerator_count > 0:
            found.setdefault((o.provider, o.region, o.instance_type, o.accelerator, o.accelerator_count), o)
    return found


def _source(o: Offering) -> str:
    return f"{o.source}, {o.catalog_date}"


def region_spread(rows: Sequence[Offering]) -> list[Finding]:
    """Rows more than `REGION_RATIO` away from a row of the same (cloud, instance type,
    accelerator and count, continent): both sides are flagged, each naming the other (which is
    wrong is not known)."""
    groups: dict[tuple, list[Offering]] = {}
    for o in rows:
        where = continent(o.region)
        if where is not None:
            groups.setdefault((o.provider, o.instance_type, o.accelerator, o.accelerator_count, where), []).append(o)
    found = []
    for (*_, where), group in groups.items():
        for o in group:
            price = o.on_demand_usd_per_hour or 0.0
            far = [x for x in group if _ratio(price, x.on_demand_usd_per_hour or 0.0) > REGION_RATIO]
            if not far or _settled(o, far):
                continue
            low, high = min(x.on_demand_usd_per_hour or 0 for x in far), max(x.on_demand_usd_per_hour or 0 for x in far)
            span = f"${low:,.2f}/h" if round(low, 2) == round(high, 2) else f"${low:,.2f}-{high:,.2f}/h"
            regions = ", ".join(sorted(x.region for x in far)[:4]) + (", ..." if len(far) > 4 else "")
            text = (
                f"price check: {o.instance_type} ({o.accelerator_count} x {o.accelerator}) ${price:,.2f}/h in "
                f"{o.region} ({_source(o)}) is more than {REGION_RATIO:g}x from its {span} in "
                f"{regions} ({where}): one side is likely a wrong price until a newer one settles it"
            )
            found.append(Finding(o.provider, o.region, o.instance_type, o.accelerator, "region-spread", text))
    return found


def _ratio(a: float, b: float) -> float:
    """How many times the larger of two prices is the smaller (inf when one is 0)."""
    low, high = sorted((a, b))
    return high / low if low > 0 else (1.0 if high == 0 else float("inf"))


def _family(accelerator: str) -> str:
    return accelerator.split("-")[0]


def memory_variants(rows: Sequence[Offering]) -> list[Finding]:
    """Larger-memory variants cheaper than the smaller one at the same count and region."""
    groups: dict[tuple, list[Offering]] = {}
    for o in rows:
        if o.accelerator_memory_gib:
            groups.setdefault((o.provider, o.region, _family(o.accelerator), o.accelerator_count), []).append(o)
    found = []
    for group in groups.values():
        for big in group:
            dearer = [
                s
                for s in group
                if (s.accelerator_memory_gib or 0) < (big.accelerator_memory_gib or 0)
                and (s.on_demand_usd_per_hour or 0) > (big.on_demand_usd_per_hour or 0)
            ]
            if not dearer or _settled(big, dearer):
                continue
            small = max(dearer, key=lambda s: s.on_demand_usd_per_hour or 0)
            text = (
                f"price check: {big.instance_type} ({big.accelerator_count} x {big.accelerator}, "
                f"{big.accelerator_memory_gib:g} GiB) ${big.on_demand_usd_per_hour:,.2f}/h in {big.region} is below "
                f"{small.instance_type} ({small.accelerator_count} x {small.accelerator}, "
                f"{small.accelerator_memory_gib:g} GiB) ${small.on_demand_usd_per_hour:,.2f}/h: the larger-memory "
                f"variant should not be cheaper; one of them is likely mispriced ({_source(big)})"
            )
            found.append(Finding(big.provider, big.region, big.instance_type, big.accelerator, "memory-variant", text))
    return found


def price_findings(offerings: Iterable[Offering], only: set[tuple[str, str]] | None = None) -> list[Finding]:
    """Every sibling inconsistency in the catalog (module docstring), region spread first;
    with `only`, of the (provider, accelerator) pairs named there."""
    rows = list(_by_region(o for o in offerings if only is None or (o.provider, o.accelerator) in only).values())
    return region_spread(rows) + memory_variants(rows)


def findings_by_row(
    offerings: Sequence[Offering], only: set[tuple[str, str]] | None = None
) -> dict[tuple[str, str, str, str], tuple[str, ...]]:
    """`price_findings` keyed by (provider, region, instance type, accelerator), for the rows' notes."""
    found: dict[tuple[str, str, str, str], tuple[str, ...]] = {}
    for f in price_findings(offerings, only):
        key = (f.provider, f.region, f.instance_type, f.accelerator)
        found[key] = (*found.get(key, ()), f.text)
    return found


def row_checks(
    offerings: Sequence[Offering], provider: str, region: str, instance_type: str, accelerator: str
) -> tuple[str, ...]:
    """The price checks on one row (a catalog row's, or a stack's cluster): the notes `resolve`
    gives it (`findings_by_row`), in the order found."""
    found = findings_by_row(offerings, {(provider, accelerator)})
    return found.get((provider, region, instance_type, accelerator), ())


# A spot price below this share of the median spot price of the same type's other zones in the
# region is an outlier (issue #27: p4d.24xlarge $2.4655/h in use1-az1 against $7.88-8.19 in
# the other us-east-1 zones, 0.31); a choice, not a sourced figure.
SPOT_OUTLIER_SHARE = 0.5


def spot_zones(offerings: Iterable[Offering], types: set[tuple[str, str]]) -> dict[tuple, list[tuple[str, float]]]:
    """(provider, region, instance type) -> [(zone, spot USD/h)] for the `types` (provider,
    instance type) given."""
    found: dict[tuple, list[tuple[str, float]]] = {}
    for o in offerings:
        if o.spot_usd_per_hour is not None and (o.provider, o.instance_type) in types:
            found.setdefault((o.provider, o.region, o.instance_type), []).append((o.zone, o.spot_usd_per_hour))
    return found


def spot_risk(offering: Offering, zones: dict[tuple, list[tuple[str, float]]]) -> str | None:
    """Why the row's spot price is not believable, with its capacity risk, or None: far below
    the same type's other zones in the region (`SPOT_OUTLIER_SHARE` of their median), or at
    the cloud's deepest published spot discount (`Cloud.deepest_spot_discount`)."""
    price, on_demand = offering.spot_usd_per_hour, offering.on_demand_usd_per_hour
    if price is None:
        return None
    others = [
        p for z, p in zones.get((offering.provider, offering.region, offering.instance_type), []) if z != offering.zone
    ]
    risk = (
        "capacity risk: a price this far below its siblings usually means little or no capacity sold at it, "
        "or a stale price (assumed); expect to wait for nodes or pay more"
    )
    if others:
        typical = sorted(others)[len(others) // 2]
        if price < SPOT_OUTLIER_SHARE * typical:
            span = f"${min(others):,.4g}-{max(others):,.4g}/h" if len(others) > 1 else f"${others[0]:,.4g}/h"
            return (
                f"spot ${price:,.4g}/h in {offering.zone} is {price / typical:.0%} of the {span} in the other "
                f"{offering.region} zones; {risk}"
            )
    cloud = CLOUDS.get(offering.provider)
    deepest = None if cloud is None else cloud.deepest_spot_discount
    if deepest is not None and on_demand and price <= on_demand * (1 - deepest) * 1.005:
        return (
            f"spot ${price:,.4g}/h is {price / on_demand:.0%} of on-demand, at {offering.provider}'s deepest "
            f"published discount ({deepest:.0%}, clouds/{offering.provider}/cloud.yaml); {risk}"
        )
    return None
