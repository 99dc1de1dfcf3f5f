"""Managed-platform rows beside the VM rows (`platform:` in the workload).

A managed platform of a cloud (`clouds.platforms.Platform`: SageMaker, Azure ML, PAI, TI-ONE)
runs the cloud's own instance types at its own price: each VM row it offers gets a copy with
`platform` set, its prices multiplied by the platform's factor (sourced, or an explicit
`assumed` estimate in the row's `price_note`, never a silent 1.0) and its catalog date kept (the
VM price's observation date, which the factor scales). A platform that sells hardware no VM
row has (ModelArts Ascend pools) brings its own rows (`own_rows`), loaded with the catalog.

`derived` is called by the resolver on every run: for `platform: vm` (the default) it returns
the rows as they are, so a VM-only resolve pays nothing for this module.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from clouds.platforms import ANY, VM, Platform
from clouds.registry import CLOUDS
from profiles.catalog.offering import Offering

__all__ = [
    "derived",
    "makes_file_system",
    "own_rows",
    "picks_zone",
    "platform_of",
    "platform_reason",
    "platform_row",
    "shown",
    "stack_rows",
    "zone_said",
]


def platform_of(offering: Offering) -> Platform | None:
    """The `Platform` a row runs on, or None for a VM row."""
    if offering.platform == VM:
        return None
    cloud = CLOUDS.get(offering.provider)
    return cloud.platforms.get(offering.platform) if cloud is not None else None


def job_limit_note(offering: Offering, hours: float) -> str | None:
    """The row's note when a job of `hours` outlasts the longest job its platform runs
    (`Platform.max_job_hours`): it then runs as several jobs, each resuming from the checkpoints
    of the one before; None within the limit or on VMs."""
    platform = platform_of(offering)
    return None if platform is None else limit_note(platform, hours)


def limit_note(platform: Platform, hours: float) -> str | None:
    """`job_limit_note` for a job of `hours` on `platform` (also what `trainstack run` prints)."""
    if platform.max_job_hours is None or hours <= platform.max_job_hours:
        return None
    jobs = math.ceil(hours / platform.max_job_hours)
    return (
        f"{platform.display_name} stops a job at {platform.max_job_hours:g} h ({platform.max_job_basis}): this "
        f"job's {hours:,.1f} h run as {jobs} jobs, each resuming from the last one's checkpoints; `trainstack run` "
        "starts one: run it again when it stops (the restarts' time is not in the hours)"
    )


def makes_file_system(offering: Offering) -> bool:
    """True when a pick of `offering` creates the workload's parallel file system: a VM row, or
    a platform whose pool mounts it (`Platform.file_system`: HyperPod); False for a platform that
    keeps its own storage."""
    platform = platform_of(offering)
    return platform is None or platform.file_system


def shown(offering: Offering) -> tuple[str, str]:
    """(provider, instance type) as a row shows them: `aws/sagemaker`, `ml.p4d.24xlarge` for a
    managed row, the catalog's names for a VM row."""
    platform = platform_of(offering)
    if platform is None:
        return offering.provider, offering.instance_type
    return f"{offering.provider}/{platform.name}", platform.instance_name(offering.instance_type)


def platform_reason(offering: Offering) -> str:
    """`; on Amazon SageMaker: adds ...` for a managed row's reason, "" for a VM row."""
    platform = platform_of(offering)
    if platform is None:
        return ""
    adds = f": adds {', '.join(platform.adds)}" if platform.adds else ""
    return f"; on {platform.display_name}{adds}"


def _scaled(price: float | None, factor: float) -> float | None:
    return None if price is None else round(price * factor, 6)


def platform_row(offering: Offering, platform: Platform) -> Offering:
    """`offering` (a VM row) as `platform` sells it: prices x `price_factor` (spot x
    `spot_factor`, none where the platform has no spot), reserved prices dropped (the
    commitment estimate applies), the price basis first in `price_note`."""
    spot = platform.spot != ""
    note = platform.price_note() + (f"; {offering.price_note}" if offering.price_note else "")
    return offering._replace(
        on_demand_usd_per_hour=_scaled(offering.on_demand_usd_per_hour, platform.price_factor),
        spot_usd_per_hour=_scaled(offering.spot_usd_per_hour, platform.spot_factor) if spot else None,
        reserved_1y_usd_per_hour=None,
        reserved_3y_usd_per_hour=None,
        on_demand_native=_scaled(offering.on_demand_native, platform.price_factor),
        spot_native=_scaled(offering.spot_native, platform.spot_factor) if spot else None,
        source=f"{offering.source} x {platform.price_factor:g} ({platform.name})",
        price_note=note,
        platform=platform.name,
    )


def derived(offerings: Iterable[Offering], wanted: str) -> list[Offering]:
    """The rows a workload asking for platform `wanted` ranks: every row (VM rows and the
    platforms' own rows; the resolver's `platform` check leaves out the ones `wanted` excludes,
    so a no-match can name the field) plus, unless `wanted` is `vm`, the managed copies of each
    VM row a platform of its cloud offers (`wanted` = `any`: every platform; else that one)."""
    rows = list(offerings)
    if wanted == VM:
        return rows
    platforms: dict[str, tuple[Platform, ...]] = {
        name: tuple(p for p in cloud.platforms.values() if wanted in (ANY, p.name)) for name, cloud in CLOUDS.items()
    }
    extra = [
        platform_row(o, p)
        for o in rows
        if o.platform == VM
        for p in platforms.get(o.provider, ())
        if p.offers(o.instance_type) and not p.picks_zone
    ]
    regional: dict[tuple, list[Offering]] = {}  # a platform that picks the zone: the zones of one region
    for o in rows:
        for p in platforms.get(o.provider, ()) if o.platform == VM else ():
            if p.picks_zone and p.offers(o.instance_type):
                regional.setdefault((p.name, o.provider, o.region, o.instance_type, o.accelerator), []).append(o)
    extra += [platform_row(region_row(group, _platform(key)), _platform(key)) for key, group in regional.items()]
    return rows + extra


def picks_zone(provider: str, platform: str | None) -> bool:
    """True when a stack of `platform` on `provider` runs on a platform that places each job
    in a zone itself (`Platform.picks_zone`): its `zone` is the region and places nothing."""
    cloud = CLOUDS.get(provider)
    found = cloud.platforms.get(platform) if cloud is not None and platform else None
    return found is not None and found.picks_zone


def zone_said(provider: str, platform: str | None, zone: str) -> str:
    """A stack's zone as its header says it: `zone`, or `Amazon SageMaker picks the zone`."""
    if not picks_zone(provider, platform):
        return zone
    return f"{CLOUDS[provider].platforms[platform or ''].display_name} picks the zone"


def _platform(key: tuple) -> Platform:
    return CLOUDS[key[1]].platforms[key[0]]


def region_row(rows: Sequence[Offering], platform: Platform) -> Offering:
    """The VM rows of one type in the zones of one region as one row for the region, for a
    platform that picks the job's zone itself (`Platform.picks_zone`): zone = region, and each
    price the dearest zone's (the job may land in any of them, so no zone's lower price can be
    counted on: an upper bound), the zones' spot range in `price_note`."""
    first = rows[0]
    spots = sorted(p for p in (r.spot_usd_per_hour for r in rows) if p is not None)
    note = f"{platform.display_name} picks the job's zone: the dearest of the region's {len(rows)} zone(s)"
    if spots and spots[0] < spots[-1]:
        note += f" (the VM's spot ${spots[0]:,.2f}-{spots[-1]:,.2f} per node-hour there)"
    return first._replace(
        zone=first.region,
        on_demand_usd_per_hour=_dearest(r.on_demand_usd_per_hour for r in rows),
        spot_usd_per_hour=spots[-1] if spots else None,
        on_demand_native=_dearest(r.on_demand_native for r in rows),
        spot_native=_dearest(r.spot_native for r in rows),
        catalog_date=min(r.catalog_date for r in rows),
        price_note=note + (f"; {first.price_note}" if first.price_note else ""),
    )


def _dearest(prices: Iterable[float | None]) -> float | None:
    known = [p for p in prices if p is not None]
    return max(known) if known else None


def own_rows(providers: Iterable[str], rates: dict[str, Any] | None) -> list[Offering]:
    """The platforms' own rows of `providers` (`Platform.rows`), priced in USD at `rates` for
    rows listed in another currency; a row with no usable USD price is left out, like a
    catalog row."""
    found: list[Offering] = []
    for provider in providers:
        cloud = CLOUDS.get(provider)
        for platform in cloud.platforms.values() if cloud is not None else ():
            for row in platform.rows:
                offering = _own_row(provider, platform, row, rates or {})
                if offering is not None:
                    found.append(offering)
    return found


def stack_rows(provider: str, platform: str | None) -> list[Offering] | None:
    """The rows a stack of `platform` on `provider` must match (`profiles.stack.check`): the
    platform's own rows, priced or not (an unconverted price stays None); None when the
    platform has none (the stack matches the cloud's catalog)."""
    cloud = CLOUDS.get(provider)
    found = cloud.platforms.get(platform) if cloud is not None and platform else None
    if found is None or not found.rows:
        return None
    return [offering for row in found.rows if (offering := _own_row(provider, found, row, {}, priced=False))]


def _own_row(
    provider: str, platform: Platform, row: Any, rates: dict[str, Any], priced: bool = True
) -> Offering | None:
    fields = dict(row)
    currency = fields.get("currency", "USD")
    if currency != "USD":
        per_usd = (rates.get(currency) or {}).get("per_usd")
        if not per_usd and priced:
            return None
        for usd, native in (("on_demand_usd_per_hour", "on_demand_native"), ("spot_usd_per_hour", "spot_native")):
            price = fields.get(native)
            fields[usd] = None if price is None or not per_usd else round(price / per_usd, 6)  # as the loader converts
    defaults = {"form_factor": None, "vcpus": None, "memory_gib": None, "max_efa_interfaces": 0, "network_gbps": None}
    defaults.update(on_demand_usd_per_hour=None, spot_usd_per_hour=None)
    return Offering(**{**defaults, **fields, "provider": provider, "platform": platform.name})
