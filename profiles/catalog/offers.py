"""`trainstack offers`: the cheapest catalog offerings for an accelerator, without a workload.

Like `sky gpus list H100:8` and dstack's offer table: one row per cloud, region and instance
type, with the zones the catalog lists it in, the cheapest on-demand and spot USD/hour over
those zones (and the dearest, when the zones differ), and how old the prices are. Pure
functions over loaded `Offering`s; the command (`trainstack.cli.offers_cmd`) loads and prints.

The accelerator is read by the workload spec's own rule (`profiles.spec.rules.split_counts`:
`H100`, `H100:8`, `a100-80gb:8`), so a token the spec accepts is accepted here and one it
refuses is refused with the same message, naming the token.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from profiles.catalog.freshness import observed_on
from profiles.catalog.names import accelerator_hint, memory_by_name
from profiles.catalog.offering import Offering
from profiles.catalog.sanity import findings_by_row, spot_risk, spot_zones


class OffersError(ValueError):
    """Bad input to `offers` (one line: the argument, the value and the fix)."""


class Ask(NamedTuple):
    """What `offers` was asked for.

    Attributes:
        accelerator: the accelerator as the catalog spells it (`H100`, `A100-80GB`).
        per_node: accelerators per node, or None for any count.
    """

    accelerator: str
    per_node: int | None


class OfferRow(NamedTuple):
    """One cloud, region and instance type, priced for `nodes` nodes (USD/hour, whole cluster).

    Attributes:
        provider, region, instance_type, accelerator, accelerator_count: as in `Offering`.
        accelerator_memory_gib: memory per accelerator, GiB (None when unknown).
        interconnect: the node-to-node fabric (`efa`, `infiniband`, ..., `ethernet`).
        zones: the zones listing it, sorted (the region itself when priced per region).
        nodes: nodes priced.
        on_demand: cheapest on-demand USD/hour over `zones` for `nodes` nodes, or None.
        on_demand_max: dearest on-demand USD/hour over `zones`, or None.
        spot: cheapest spot USD/hour over `zones` for `nodes` nodes, or None.
        spot_max: dearest spot USD/hour over `zones`, or None.
        observed: the oldest observation date of its prices (ISO), or the catalog's text
            for an undated price (`unknown, extracted on D`).
        estimate: True when a price is an estimate (a `price_note` says why).
        price_checks: the catalog's price checks on this row (`profiles.catalog.sanity`: an
            on-demand price far from the same type's in other regions of its continent, or a
            larger-memory variant cheaper than the smaller one), the notes `resolve` gives it.
        platform: `vm`, or the managed platform that alone sells this hardware (`modelarts`
            for Ascend pools, `pai-lingjun`): a workload's `platform:` to run on it.
        spot_checks: why a zone's spot price is not believed (`profiles.catalog.sanity.spot_risk`:
            far below the same type's other zones, or at the cloud's deepest published
            discount), the caveat `resolve` ranks such a row down with. `spot` and `spot_max`
            are over the other zones; over the doubted ones only when no other has a price
            (`spot_doubted`).
    """

    provider: str
    region: str
    instance_type: str
    accelerator: str
    accelerator_count: int
    accelerator_memory_gib: float | None
    interconnect: str
    zones: tuple[str, ...]
    nodes: int
    on_demand: float | None
    on_demand_max: float | None
    spot: float | None
    spot_max: float | None
    observed: str
    estimate: bool
    price_checks: tuple[str, ...] = ()
    platform: str = "vm"
    spot_checks: tuple[str, ...] = ()
    spot_doubted: bool = False


def read_ask(token: str, offerings: Sequence[Offering]) -> Ask:
    """`H100:8` -> Ask("H100", 8), with the accelerator as the catalog spells it.

    Raises:
        OffersError: a token the workload spec would refuse, or an accelerator the catalog
            does not list (naming the closest ones).
    """
    from profiles.spec.rules import split_counts

    try:
        read: dict = split_counts({"accelerators": token})  # type: ignore[assignment]  # a dict in, a dict out
    except ValueError as exc:
        raise OffersError(f"ACCELERATOR: {str(exc).removeprefix('accelerators: ')}") from None
    names = read["accelerators"]
    if read.get("gpus_per_node") == 0:
        raise OffersError(f"ACCELERATOR: '{token}' asks for 0 accelerators per node; write a count of 1 or more")
    if len(names) != 1:
        raise OffersError(f"ACCELERATOR: give one accelerator such as H100:8, not '{token}'")
    known = {o.accelerator.casefold(): o.accelerator for o in offerings}
    name = names[0]
    if name.casefold() not in known:
        hint = accelerator_hint(name, memory_by_name(offerings))
        raise OffersError(f"ACCELERATOR: the catalog has no '{name}' (in '{token}'); {hint}")
    return Ask(known[name.casefold()], read.get("gpus_per_node"))


def offer_rows(
    offerings: Iterable[Offering], ask: Ask, regions: Sequence[str] = (), nodes: int = 1, spot: bool = False
) -> list[OfferRow]:
    """The matching offerings grouped by cloud, region and type, cheapest first.

    Args:
        offerings: the loaded catalog (of the clouds asked for).
        ask: the accelerator and count per node.
        regions: keep only these regions (empty: all).
        nodes: price this many nodes (whole-cluster USD/hour).
        spot: rank by the spot price and drop rows without one; otherwise rank by on-demand
            (rows with only a spot price last, by spot).

    Returns:
        Rows sorted by the ranking price, then cloud, region and type (a stable order).
    """
    offerings = tuple(offerings)
    groups: dict[tuple[str, str, str, str], list[Offering]] = {}
    for o in offerings:
        if o.accelerator != ask.accelerator or (ask.per_node is not None and o.accelerator_count != ask.per_node):
            continue
        if regions and o.region not in regions:
            continue
        groups.setdefault((o.provider, o.region, o.instance_type, o.platform), []).append(o)
    checks = findings_by_row(offerings, {(provider, ask.accelerator) for provider, *_ in groups})
    zones = spot_zones(offerings, {(provider, kind) for provider, _, kind, _ in groups})
    rows = [
        _row(group, nodes, zones)._replace(price_checks=checks.get((*key[:3], ask.accelerator), ()))
        for key, group in groups.items()
    ]
    if spot:  # as `resolve` ranks a row whose spot price it does not believe: after the others
        rows = [r for r in rows if r.spot is not None]
        return sorted(rows, key=lambda r: (r.spot_doubted, r.spot, r.provider, r.region, r.instance_type))
    return sorted(
        rows,
        key=lambda r: (
            r.on_demand is None,
            r.on_demand if r.on_demand is not None else r.spot,
            r.provider,
            r.region,
            r.instance_type,
        ),
    )


def _row(group: list[Offering], nodes: int, zones: dict[tuple, list[tuple[str, float]]]) -> OfferRow:
    first = group[0]
    on_demand = [o.on_demand_usd_per_hour for o in group if o.on_demand_usd_per_hour is not None]
    doubts = {o.zone: why for o in group if (why := spot_risk(o, zones))}
    priced = [(o.zone, o.spot_usd_per_hour) for o in group if o.spot_usd_per_hour is not None]
    believed = [price for zone, price in priced if zone not in doubts]
    spot = believed or [price for _, price in priced]
    dates = {o.catalog_date for o in group}
    undated = sorted(d for d in dates if observed_on(d) is None)
    observed = undated[0] if undated else min(dates)
    return OfferRow(
        first.provider,
        first.region,
        first.instance_type,
        first.accelerator,
        first.accelerator_count,
        first.accelerator_memory_gib,
        first.interconnect,
        tuple(sorted({o.zone for o in group})),
        nodes,
        min(on_demand) * nodes if on_demand else None,
        max(on_demand) * nodes if on_demand else None,
        min(spot) * nodes if spot else None,
        max(spot) * nodes if spot else None,
        observed,
        any(o.price_note for o in group),
        platform=first.platform,
        spot_checks=tuple(doubts[zone] for zone in sorted(doubts)),
        spot_doubted=bool(priced) and not believed,
    )
