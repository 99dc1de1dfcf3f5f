"""What a stack's cluster costs now, from the catalog, whatever its file says.

A stack records the price it was resolved with. If someone edits the node count, the
instance type or the purchase option by hand, that recorded price goes stale: `plan`, the
review comment and the budget policy must price the cluster as configured. This module
does that from the same catalog and cost rules as `resolve`; the Pulumi program itself
never re-prices (it exports the recorded price), so previews stay deterministic.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from clouds.block_end import block_short_note
from clouds.capacity import flex_note
from clouds.clock import now as clock_now
from clouds.contract import ClusterConfig
from clouds.filesystems import throughput_notes
from clouds.platforms import VM
from profiles.catalog.offering import Offering
from profiles.catalog.platform_rows import derived
from profiles.catalog.sanity import row_checks
from profiles.cost.cluster_cost import ClusterCost, cluster_cost, usd_per_cny
from profiles.cost.commitment import commitment_note
from profiles.short_text import cited
from profiles.stack.node_price import fill_usd
from profiles.stack.node_price import node_price as catalog_node_price

# Prices closer than this (USD/hour) are the same price (the stack rounds to 6 decimals).
TOLERANCE = 0.005


@dataclass(frozen=True)
class StackPrice:
    """The cluster's cost as configured.

    Attributes:
        usd_per_hour: whole-cluster compute price, USD/hour (the catalog's when the stack's
            instance type, zone and purchase are in it, else the recorded one); None when
            neither the catalog nor the stack gives one. The whole cost per hour (file system
            and bucket requests too) is `total_usd_per_hour`.
        hours: planned run time, hours.
        usd_storage: the file system's cost for `hours`, USD; None when unknown or none.
        recorded_usd_per_hour: the price the stack file records, USD/hour, or None.
        note: "" when both agree; else why the two differ or why the recorded one is kept.
        caveats: what the price leaves out or may get wrong: the catalog row's price note
            (e.g. `estimate: third-party snapshot ...`) and a file system whose price is
            unknown (so not in `usd_total`).
        verified: False when `usd_per_hour` is only the stack file's own number (the catalog
            does not price the cluster): shown, but never trusted by the budget policy.
        cost: the cost part by part (`profiles.cost.cluster_cost`), or None before pricing.
        uncommitted_usd_per_hour: for a stack priced at a 1y/3y commitment's rate, what the
            whole cluster bills per hour without that commitment (its nodes on-demand; the stack
            buys no commitment: `profiles.cost.commitment`), USD/hour; None otherwise.
    """

    usd_per_hour: float | None
    hours: float
    usd_storage: float | None
    recorded_usd_per_hour: float | None
    note: str = ""
    caveats: tuple[str, ...] = ()
    verified: bool = True
    cost: ClusterCost | None = None
    uncommitted_usd_per_hour: float | None = None

    @property
    def total_usd_per_hour(self) -> float | None:
        """Everything the job pays per hour of the run, USD/hour: compute + file system + the
        bucket requests spread over the hours; None when compute is unknown."""
        if self.cost is not None:
            return self.cost.usd_per_hour
        total = self.usd_total
        return None if total is None else total / self.hours

    @property
    def checked_usd_per_hour(self) -> float | None:
        """The price a budget may rely on (`total_usd_per_hour`): from the catalog or a held
        reservation, never a number only the stack file states (None then). A commitment the
        stack does not buy is not relied on: such a stack is checked at its on-demand bill."""
        if not self.verified:
            return None
        return self.uncommitted_usd_per_hour or self.total_usd_per_hour

    @property
    def usd_compute(self) -> float | None:
        """Compute cost of the run, USD; None when the price is unknown."""
        return None if self.usd_per_hour is None else self.usd_per_hour * self.hours

    @property
    def usd_total(self) -> float | None:
        """Compute plus the known file system and bucket requests, USD; None when the compute
        price is unknown."""
        if self.cost is not None:
            return self.cost.usd_total
        compute = self.usd_compute
        return None if compute is None else compute + (self.usd_storage or 0.0)


def _offering(config: ClusterConfig, offerings: Iterable[Offering]) -> Offering | None:
    """The catalog row of the stack's instance type in its zone, else a row priced for its
    whole region (Alibaba's and Tencent's rows list prices per region: zone == region), as the
    stack's platform sells it (`profiles.catalog.platform_rows`; VM rows without one). Where
    one type has rows for several accelerators (a GCP N1 host carries T4, V100, P100 or P4),
    the row of the stack's accelerator wins."""
    by_zone: list[Offering] = []
    region_wide: list[Offering] = []
    platform = config.platform or VM  # a pool stack is priced at its platform's rate
    for o in derived(offerings, platform):
        if o.provider == config.provider and o.instance_type == config.instance_type and o.platform == platform:
            if o.zone == config.zone:
                by_zone.append(o)
            elif o.zone == o.region == config.region:
                region_wide.append(o)
    rows = by_zone or region_wide
    return next((o for o in rows if o.accelerator == config.accelerator), rows[0] if rows else None)


def price_stack(
    config: ClusterConfig,
    offerings: Iterable[Offering],
    catalog_version: str,
    why_unpriced: str = "",
    catalog_usd_per_cny: float | None = None,
) -> StackPrice:
    """Price `config` from `offerings` (the loaded catalog of its provider).

    A capacity reservation's price is not in the catalog, so such stacks keep the recorded
    price; so do instance types or zones the catalog does not list. A stack that records no
    price (`usd_per_hour` None) takes the catalog's, or stays unpriced.

    Args:
        why_unpriced: what the catalog says about the provider's missing prices (e.g. its
            CNY rows are left out for want of a rate), added to the note when unpriced.
        catalog_usd_per_cny: the catalog's recorded rate (USD per CNY), for a file system
            priced in CNY when no compute row gives one (a cloud without priced rows, Huawei);
            None: only a CNY compute row's own rate is used.
    """
    match = _offering(config, offerings)
    node_price = None if match is None or config.capacity_reservation_id else catalog_node_price(config, match)
    price = _compute_price(config, node_price, match is not None, catalog_version, why_unpriced, None)
    rate = (usd_per_cny(match) if match is not None else None) or catalog_usd_per_cny
    cost = cluster_cost(config, price.usd_per_hour, rate, fill_usd(config, match))
    caveats = [cited(match.price_note)] if match is not None and node_price is not None and match.price_note else []
    uncommitted = None
    if match is not None and node_price is not None and config.commitment != "none":
        on_demand = None if match.on_demand_usd_per_hour is None else match.on_demand_usd_per_hour * config.nodes
        caveats += [_commitment_caveat(config, price.usd_per_hour, on_demand)]
        if on_demand is not None:  # the nodes billed on-demand for the job's own hours: no term share
            uncommitted = cluster_cost(config.model_copy(update={"commitment": "none"}), on_demand, rate).usd_per_hour
    caveats += [*cost.left_out, *_block_caveats(config), *_throughput_caveats(config)]
    if line := flex_note(config):
        caveats.append(line)
    return dataclasses.replace(
        price, usd_storage=cost.usd_storage, cost=cost, caveats=tuple(caveats), uncommitted_usd_per_hour=uncommitted
    )


def _throughput_caveats(config: ClusterConfig) -> tuple[str, ...]:
    """The note `resolve` gives a row whose file system delivers less than the MB/s per TiB
    asked (`clouds.filesystems.throughput_notes`), for the stack's own file system, so `plan`
    and the review say it too."""
    fs = config.file_system
    if fs is None:
        return ()
    return throughput_notes(config.provider, fs.capacity_gib, fs.throughput_mbps_per_tib, "the stack states", row=False)


def _commitment_caveat(config: ClusterConfig, usd_per_hour: float | None, on_demand: float | None) -> str:
    """What a commitment stack pays (`profiles.cost.commitment`), priced at the catalog's term
    rate; the budget is checked at the on-demand bill."""
    line = commitment_note(config.model_copy(update={"usd_per_hour": usd_per_hour}), on_demand) or ""
    return line + (
        "; the budget (`trainstack:max_usd_per_hour`) is checked at that on-demand price" if on_demand else ""
    )


def _block_caveats(config: ClusterConfig) -> list[str]:
    """A stack on a Capacity Block that ends before its `hours` are done says so (a block
    that has ended is refused by the AWS validation: `clouds.aws.reservation`)."""
    r = config.reservation
    if r is None or r.ends is None:
        return []
    note = block_short_note(r.ends, clock_now(), config.hours, r.label)
    return [] if note is None else [f"{note} (`resolve` prices those hours on-demand)"]


def _held_note(config: ClusterConfig) -> str:
    """How a stack on held capacity is priced: its own recorded figure, labelled by kind."""
    assert config.reservation is not None
    r = config.reservation
    recorded = "no price" if config.usd_per_hour is None else f"${config.usd_per_hour:,.2f}/hour"
    if r.kind == "capacity-block" and config.block_nodes is not None:  # the block's group and the one beside it
        rest = config.nodes - config.block_nodes
        return (
            f"held Capacity Block {r.id} for {config.block_nodes} of {config.nodes} nodes, {rest} {config.purchase} "
            f"beside it: compute at the stack's own {recorded} for all of them"
        )
    if r.kind == "capacity-block":  # what the block cost is a caveat (`cluster_cost`)
        return f"held Capacity Block {r.id}: compute at the stack's own {recorded}"
    return f"held capacity reservation {r.id}: the stack's own {recorded}; the catalog holds no reservation prices"


def _compute_price(
    config: ClusterConfig,
    node_price: float | None,
    listed: bool,
    catalog_version: str,
    why_unpriced: str,
    storage: float | None,
) -> StackPrice:
    """The price and note of `price_stack`, given the catalog's per-node price (or None) and
    whether the catalog lists the instance type in the stack's zone or region at all."""
    recorded = config.usd_per_hour
    if config.reservation is not None:  # held capacity: the stack's own price, labelled by kind
        return StackPrice(recorded, config.hours, storage, recorded, _held_note(config), verified=True)
    if node_price is None:
        terms = config.purchase if config.commitment == "none" else f"{config.commitment} reserved"
        if listed:
            why = f"catalog {catalog_version} lists {config.instance_type} in {config.zone} but has no {terms} price for it"
        else:
            why = f"{config.instance_type} {config.purchase} in {config.zone} is not in catalog {catalog_version}"
        if recorded is None:
            note = f"price unknown ({why}{'; ' + why_unpriced if why_unpriced else ''}); the stack records no price"
        else:
            note = f"price unknown ({why}); showing the recorded ${recorded:,.2f}/hour, which may be stale"
        return StackPrice(recorded, config.hours, storage, recorded, note, verified=False)
    current = node_price * config.nodes
    if recorded is None:
        note = f"the stack records no price; catalog {catalog_version} gives ${current:,.2f}/hour"
        return StackPrice(current, config.hours, storage, recorded, note)
    if abs(current - recorded) < TOLERANCE:
        older = config.catalog_version != catalog_version
        note = (
            (
                f"resolved with catalog {config.catalog_version}; the current one is {catalog_version} "
                "and gives the same price"
            )
            if older
            else ""
        )
        return StackPrice(recorded, config.hours, storage, recorded, note)
    note = (
        f"the stack records ${recorded:,.2f}/hour, but {config.nodes} x {config.instance_type} "
        f"{_terms(config)} costs ${current:,.2f}/hour in catalog {catalog_version} "
        "(edited by hand, or the catalog changed since it was resolved: re-run `trainstack resolve --write-stack`); "
        f"USD/job is for the stack's recorded {config.hours:,.1f} h, not re-estimated for the nodes it has now"
    )
    return StackPrice(current, config.hours, storage, recorded, note)


def _terms(config: ClusterConfig) -> str:
    """How the nodes are bought, as priced: `spot`, `on-demand`, or `on-demand at the 1y commitment rate`."""
    return (
        config.purchase
        if config.commitment == "none"
        else f"{config.purchase} at the {config.commitment} commitment rate"
    )


def price_from_catalog(config: ClusterConfig) -> StackPrice:
    """Price `config` from the installed catalog of its provider (see `price_stack`); a
    catalog that cannot be read leaves the recorded price, with a note saying so. The
    caveats end with how old the cloud's prices (and a CNY rate) are when they are old or of
    unknown age (`Catalog.price_warnings`)."""
    from profiles.catalog.loader import CatalogError, load_catalog

    try:
        catalog = load_catalog(providers=(config.provider,))
    except CatalogError:
        return price_stack(config, (), "(catalog unavailable)")
    per_usd = (catalog.rates.get("CNY") or {}).get("per_usd")
    rate = 1 / per_usd if isinstance(per_usd, int | float) and per_usd > 0 else None
    rows = catalog.offerings + catalog.platform_rows
    price = price_stack(config, rows, catalog.version, why_unpriced(config.provider, catalog), rate)
    ages = tuple(line.removeprefix("warning: ") for line in catalog.price_warnings((config.provider,)))
    return dataclasses.replace(
        price,
        caveats=price.caveats
        + row_checks(catalog.offerings, config.provider, config.region, config.instance_type, config.accelerator)
        + ages,
    )


def why_unpriced(provider: str, catalog) -> str:
    """What a loaded `Catalog` says when it has no USD price for `provider`'s offerings."""
    reasons = [
        f"{count} {provider} offerings listed in {currency} are left out: {catalog.left_out_reason(currency)}"
        for currency, count in sorted(catalog.left_out.items())
    ]
    if not catalog.offerings and not reasons:
        reasons.append(f"the catalog has no {provider} prices; run `trainstack catalog refresh --provider {provider}`")
    return "; ".join(reasons)
