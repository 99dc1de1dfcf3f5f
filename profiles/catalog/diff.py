"""What a catalog refresh changed: rows added and removed, and the largest price moves."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from profiles.catalog.offering import Offering

PURCHASES = (("on-demand", "on_demand_usd_per_hour"), ("spot", "spot_usd_per_hour"))
# Rows listed in another currency are compared in that currency, before any conversion.
NATIVE = {"on_demand_usd_per_hour": "on_demand_native", "spot_usd_per_hour": "spot_native"}


def price_of(offering: Offering, field: str) -> float | None:
    """The row's price in its own currency (`field` names the USD column)."""
    return getattr(offering, field if offering.currency == "USD" else NATIVE[field])


@dataclass(frozen=True)
class PriceMove:
    """One price change of an instance type in a region (zones with the same move merged).

    Attributes:
        instance_type: e.g. `p4d.24xlarge`.
        region: e.g. `us-east-1`.
        purchase: `on-demand` or `spot`.
        old_usd_per_hour: previous whole-instance price per hour, in `currency`.
        new_usd_per_hour: refreshed whole-instance price per hour, in `currency`.
        zones: how many zones moved from the old to the new price.
        currency: the currency of both prices (`USD`, or the row's own, e.g. `CNY`).
    """

    instance_type: str
    region: str
    purchase: str
    old_usd_per_hour: float
    new_usd_per_hour: float
    zones: int
    currency: str = "USD"

    @property
    def percent(self) -> float:
        """Change relative to the old price, % (negative = cheaper)."""
        return (self.new_usd_per_hour - self.old_usd_per_hour) / self.old_usd_per_hour * 100


@dataclass(frozen=True)
class RefreshSummary:
    """The outcome of `refresh` for one provider.

    Attributes:
        provider: the refreshed cloud.
        regions: the refreshed regions; empty when all were refreshed.
        added: (instance type, zone) rows new in the refreshed regions.
        removed: rows of the refreshed regions that the API no longer lists.
        changed: rows present before and after whose on-demand or spot price changed.
        unchanged: rows present before and after with the same prices.
        moves: the largest price moves by |percent|, largest first.
        rows: rows fetched from the API.
        version: the new catalog version.
        snapshot: where the previous file was copied, or None when there was none.
    """

    provider: str
    regions: tuple[str, ...]
    added: int
    removed: int
    changed: int
    unchanged: int
    moves: tuple[PriceMove, ...]
    rows: int
    version: str
    snapshot: Path | None


def summarize(
    provider: str,
    regions: Sequence[str] | None,
    old: list[Offering],
    new: list[Offering],
    version: str,
    snapshot: Path | None,
    top: int = 5,
) -> RefreshSummary:
    """Compare the refreshed regions' rows before (`old`) and after (`new`).

    Args:
        top: how many price moves to keep.
    """
    before = {(o.instance_type, o.zone, o.accelerator): o for o in old}  # GCP N1 hosts carry several GPU types
    after = {(o.instance_type, o.zone, o.accelerator): o for o in new}
    common = before.keys() & after.keys()
    changed = {k for k in common if any(price_of(before[k], f) != price_of(after[k], f) for _, f in PURCHASES)}
    return RefreshSummary(
        provider=provider,
        regions=tuple(sorted(regions or ())),
        added=len(after.keys() - before.keys()),
        removed=len(before.keys() - after.keys()),
        changed=len(changed),
        unchanged=len(common) - len(changed),
        moves=largest_moves([(before[k], after[k]) for k in changed], top),
        rows=len(new),
        version=version,
        snapshot=snapshot,
    )


def largest_moves(pairs: list[tuple[Offering, Offering]], top: int) -> tuple[PriceMove, ...]:
    """Price moves of (old, new) row pairs, merged across zones, largest |%| first."""
    zones: dict[tuple[str, str, str, float, float, str], int] = {}
    for old, new in pairs:
        for purchase, field in PURCHASES:
            a, b = price_of(old, field), price_of(new, field)
            if a is not None and b is not None and a != b:
                key = (old.instance_type, old.region, purchase, a, b, new.currency)
                zones[key] = zones.get(key, 0) + 1
    moves = [PriceMove(*key[:5], zones=count, currency=key[5]) for key, count in zones.items()]
    moves.sort(key=lambda m: (-abs(m.percent), m.instance_type, m.region, m.purchase))
    return tuple(moves[:top])
