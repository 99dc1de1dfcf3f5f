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

from clouds.words import did_you_mean, listed
from profiles.catalog.freshness import observed_on
from profiles.catalog.names import accelerator_hint, memory_by_name
from profiles.catalog.offering import Offering
from profiles.catalog.sanity import findings_by_row


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


def unpriced_clouds(clouds: Sequence[str], offerings: Sequence[Offering]) -> list[str]:
    """The clouds of `--provider` with no row in the loaded catalog, each as one line
    (`huaweicloud: the catalog has no priced offerings for it; fetch ...`), in `clouds`' order."""
    priced = {o.provider for o in offerings}
    return [
        f"{cloud}: the catalog has no priced offerings for it; fetch prices with "
        f"`trainstack catalog refresh --provider {cloud}`"
        for cloud in clouds
        if cloud not in priced
    ]


def not_sold_by(token: str, clouds: Sequence[str], everywhere: Sequence[Offering]) -> str:
    """Why `--provider` left no `token` when other clouds list it, or "" when none does.

    Args:
        token: ACCELERATOR as written (`H100:8`).
        clouds: the clouds of `--provider`.
        everywhere: every cloud's catalog rows.
    """
    try:
        ask = read_ask(token, everywhere)
    except OffersError:
        return ""
    sellers = sorted({o.provider for o in everywhere if o.accelerator == ask.accelerator} - set(clouds))
    asked = " and ".join(clouds)
    return (
        f"ACCELERATOR: {asked} list{'s' if len(clouds) == 1 else ''} no {ask.accelerator}; "
        f"{', '.join(sellers)} do{'es' if len(sellers) == 1 else ''}: drop --provider or add --provider {sellers[0]}"
    )


def widen_hint(offerings: Sequence[Offering], ask: Ask, regions: Sequence[str], spot: bool) -> str:
    """What to change when `offer_rows` found nothing: the per-node counts the accelerator
    comes in (as `sky gpus list` shows its quantities), the regions listing it, or `--spot`."""
    where = f" in {', '.join(regions)}" if regions else ""
    if ask.per_node is not None:
        any_count = offer_rows(offerings, ask._replace(per_node=None), regions, spot=spot)
        counts = sorted({r.accelerator_count for r in any_count})
        if counts:
            near = next((c for c in counts if c >= ask.per_node), counts[-1])
            some = ", ".join(map(str, counts[:-1])) + " or " if len(counts) > 1 else ""
            return f"{ask.accelerator} comes {some}{counts[-1]} per node{where}: try {ask.accelerator}:{near}"
    if regions:
        elsewhere = sorted({r.region for r in offer_rows(offerings, ask, (), spot=spot)})
        if elsewhere:
            return f"regions listing it: {listed(elsewhere)}; or drop --region to see every region"
    if spot:
        return "drop --spot to see on-demand prices"
    return "try another accelerator"


def check_regions(regions: Iterable[str], offerings: Sequence[Offering], everywhere: Sequence[Offering] = ()) -> None:
    """Refuse a `--region` no loaded cloud has (naming the closest regions, or the cloud of
    `everywhere`, every cloud's rows, that has it when `--provider` left that cloud out).

    Raises:
        OffersError: `--region NAME: not a region ...; did you mean ...`.
    """
    known = {o.region for o in offerings}
    for region in regions:
        clouds = sorted({o.provider for o in everywhere if o.region == region})
        if region not in known and clouds:
            raise OffersError(
                f"--region {region}: a region of {' and '.join(clouds)}, which --provider leaves out; "
                f"add --provider {clouds[0]} or drop --region {region}"
            )
        if region not in known:
            zone_of = {o.zone: o.region for o in offerings if o.zone != o.region}
            fix = f"write {zone_of[region]} (it is a zone of it)" if region in zone_of else did_you_mean(region, known)
            raise OffersError(f"--region {region}: not a region of the clouds searched; {fix}")


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
    rows = [
        _row(group, nodes)._replace(price_checks=checks.get((*key[:3], ask.accelerator), ()))
        for key, group in groups.items()
    ]
    if spot:
        rows = [r for r in rows if r.spot is not None]
        return sorted(rows, key=lambda r: (r.spot, r.provider, r.region, r.instance_type))
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


def _row(group: list[Offering], nodes: int) -> OfferRow:
    first = group[0]
    on_demand = [o.on_demand_usd_per_hour for o in group if o.on_demand_usd_per_hour is not None]
    spot = [o.spot_usd_per_hour for o in group if o.spot_usd_per_hour is not None]
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
    )
