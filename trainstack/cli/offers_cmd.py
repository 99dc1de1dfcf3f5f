"""`trainstack offers H100:8`: the cheapest catalog offerings, no workload file needed.

Loads the catalog of the clouds asked for (`--provider`, default all), keeps the rows of the
accelerator (`profiles.catalog.offers`), and prints one row per cloud, region and instance
type: the zones, the cheapest on-demand and spot USD/hour for `--nodes` nodes, and the
prices' age; `--json` prints the same rows (keys in docs/cli.md). No Pulumi, no cloud SDK.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from trainstack.cli.usage_errors import fail

RIGHT = frozenset({"#", "on-demand USD/h", "spot USD/h"})
COLUMNS = (
    "#",
    "provider",
    "region",
    "zones",
    "instance type",
    "GPUs",
    "fabric",
    "on-demand USD/h",
    "spot USD/h",
    "prices",
)


def run(
    accelerator: str,
    spot: bool,
    providers: Sequence[str],
    regions: Sequence[str],
    nodes: int,
    top: int,
    as_json: bool,
) -> None:
    """Print the offers for `accelerator` (see the module docstring); bad input exits 2."""
    from profiles.catalog.loader import CatalogError, load_catalog
    from profiles.catalog.offer_hints import check_regions, not_sold_by, unpriced_clouds, widen_hint
    from profiles.catalog.offers import OffersError, offer_rows, read_ask
    from profiles.spec.rules import known_provider, region_names

    try:
        clouds = tuple(dict.fromkeys(known_provider(p) for p in providers))
    except ValueError as exc:
        fail(f"--provider {exc}")
    regions = region_names(tuple(regions))  # any case, as a workload's `regions` (`EastUS` is eastus)
    try:
        catalog = load_catalog(providers=clouds or None)
        offerings = _every_row(catalog)
        unpriced = unpriced_clouds(clouds, offerings)
        if clouds and len(unpriced) == len(clouds):
            fail(f"--provider {'; '.join(unpriced)}")
        try:
            ask = read_ask(accelerator, offerings)
        except OffersError as exc:  # another cloud may list it: say so rather than "no such name"
            fail((clouds and not_sold_by(accelerator, clouds, _every_row(load_catalog()))) or str(exc))
        known = {o.region for o in offerings}
        check_regions(regions, offerings, _every_row(load_catalog()) if set(regions) - known and clouds else ())
    except (CatalogError, OffersError) as exc:
        fail(str(exc))
    rows = offer_rows(offerings, ask, regions, nodes, spot)
    if not rows:
        where = f" in {', '.join(regions)}" if regions else ""
        kind = "spot-priced " if spot else ""
        hint = widen_hint(offerings, ask, regions, spot)
        fail(f"{accelerator}: the catalog lists no {kind}offering of it{where}; {hint}")
    shown = rows[:top] if top else rows
    warnings = [f"warning: {line}" for line in unpriced]
    warnings += catalog.price_warnings(tuple(dict.fromkeys(r.provider for r in shown)))
    if as_json:
        print(json.dumps(offers_json(shown, len(rows), ask, spot, catalog, warnings), indent=2))
    else:
        offers_table(shown, len(rows), ask, catalog.version, catalog.today)
    for line in warnings:  # on stderr, as `resolve` prints them (and in the JSON)
        print(line, file=sys.stderr)


def _every_row(catalog) -> tuple:
    """The catalog's VM rows and the rows of hardware only a managed platform sells (PAI
    Lingjun's efg1.nvga1, ModelArts' Ascend pools: `profiles.catalog.platform_rows.own_rows`),
    which `resolve` prices under `platform:`; SageMaker-style rows derived from a VM row are not
    repeated here."""
    return (*catalog.offerings, *catalog.platform_rows)


def _money(low: float | None, high: float | None) -> str:
    if low is None:
        return "-"
    return f"{low:,.2f}" if high is None or high - low < 0.005 else f"{low:,.2f}-{high:,.2f}"


def _zones(zones: tuple[str, ...], region: str) -> str:
    if zones == (region,):
        return "(regional price)"
    return zones[0] if len(zones) == 1 else f"{zones[0]} +{len(zones) - 1}"


def age_text(observed: str, today) -> str:
    """`2026-11-02 (35 d old)`, or `undated` for a price the source does not date."""
    from profiles.catalog.freshness import observed_on

    day = observed_on(observed)
    return "undated" if day is None else f"{day.isoformat()} ({(today - day).days} d old)"


def _cells(rank: int, r, today) -> list[str]:
    """The row's cells, in `COLUMNS` order; a managed platform's row names it as `resolve`
    does (`huaweicloud/modelarts`)."""
    platform = f"/{r.platform}" if r.platform != "vm" else ""
    return [
        str(rank),
        r.provider + platform,
        r.region,
        _zones(r.zones, r.region),
        r.instance_type + (" *" if r.estimate else "") + (" !" if r.price_checks else ""),
        f"{r.nodes}x{r.accelerator_count} {r.accelerator}" if r.nodes > 1 else f"{r.accelerator_count} {r.accelerator}",
        r.interconnect,
        _money(r.on_demand, r.on_demand_max),
        _money(r.spot, r.spot_max) + (" !" if r.spot_checks else ""),
        age_text(r.observed, today),
    ]


def _table_width(cells: list[list[str]]) -> int:
    """Characters a rich table of `cells` needs with no cell cut (borders and padding included)."""
    widths = [max(len(row[i]) for row in [list(COLUMNS), *cells]) for i in range(len(COLUMNS))]
    return sum(widths) + 3 * len(widths) + 1


def offers_table(rows, total: int, ask, catalog_version: str, today) -> None:
    """The rows cheapest first, in resolve's table style; figures are never cut: where the
    table does not fit the terminal (80 columns), each row becomes a short block of lines,
    as `resolve` prints its rows."""
    from rich.markup import escape
    from rich.table import Table

    from trainstack.cli.render import console

    count = f"{ask.per_node}x " if ask.per_node else ""
    nodes = rows[0].nodes
    each = f", {nodes} nodes" if nodes > 1 else ""
    shown = f"{len(rows)} of {total}" if len(rows) < total else f"{total}"
    noun = "offering" if total == 1 else "offerings"
    title = f"{count}{ask.accelerator}{each}: {shown} {noun} (catalog {catalog_version})"
    cells = [_cells(rank, r, today) for rank, r in enumerate(rows, start=1)]
    out = console()
    if _table_width(cells) <= out.width:
        table = Table(title=escape(title))
        for column in COLUMNS:
            table.add_column(column, justify="right" if column in RIGHT else "left", no_wrap=True)
        for row in cells:
            table.add_row(*map(escape, row), style="bold green" if row[0] == "1" else None)
        out.print(table)
    else:
        out.print(f"[bold]{escape(title)}[/bold]")
        for row in cells:
            style = "bold green" if row[0] == "1" else "bold"
            out.print(f"[{style}]{row[0]}. {escape(' '.join((row[1], row[4], row[5])))}[/]", highlight=False)
            out.print(f"   {escape(row[2])} / {escape(row[3])}, {escape(row[6])}", highlight=False)
            out.print(f"   USD/hour on-demand {row[7]}, spot {row[8]}; prices {row[9]}", highlight=False)
    if len(rows) < total:
        out.print(f"{total - len(rows)} more; --top 0 shows all", highlight=False)
    if any(r.estimate for r in rows):
        out.print("* an estimated price (see `trainstack catalog info`)", highlight=False)
    if any(r.price_checks for r in rows):
        out.print(
            "! the catalog's price checks doubt this row's on-demand price (far from the same type's in other "
            "regions, or below a smaller-memory variant's), as `resolve` notes it; `--json` gives each check",
            highlight=False,
        )
    if any(r.spot_checks for r in rows):
        out.print(
            "! after a spot price: a zone's spot price is left out (far below the type's other zones, or at the "
            "cloud's deepest discount: little or no capacity at it), as `resolve` ranks it down; `--json` gives each",
            highlight=False,
        )


def offers_json(rows, total: int, ask, spot: bool, catalog, warnings: list[str]) -> dict:
    """`offers --json`: the rows (USD/hour for the whole cluster of `nodes` nodes) and the
    warnings the table prints (keys in docs/cli.md)."""
    return {
        "accelerator": ask.accelerator,
        "accelerator_count": ask.per_node,
        "nodes": rows[0].nodes,
        "ranked_by": "spot" if spot else "on-demand",
        "matched": total,
        "catalog_version": catalog.version,
        "offers": [
            {
                "provider": r.provider,
                "region": r.region,
                "zones": list(r.zones),
                "instance_type": r.instance_type,
                "platform": r.platform,
                "accelerator": r.accelerator,
                "accelerator_count": r.accelerator_count,
                "accelerator_memory_gib": r.accelerator_memory_gib,
                "interconnect": r.interconnect,
                "on_demand_usd_per_hour": _round(r.on_demand),
                "on_demand_max_usd_per_hour": _round(r.on_demand_max),
                "spot_usd_per_hour": _round(r.spot),
                "spot_max_usd_per_hour": _round(r.spot_max),
                "price_observed": r.observed,
                "price_age_days": _age_days(r.observed, catalog.today),
                "price_estimate": r.estimate,
                "price_checks": list(r.price_checks),
                "spot_checks": list(r.spot_checks),
            }
            for r in rows
        ],
        "warnings": warnings,
    }


def _age_days(observed: str, today) -> int | None:
    """Days since the price was observed (the table's `(35 d old)`), None when undated."""
    from profiles.catalog.freshness import observed_on

    day = observed_on(observed)
    return None if day is None else (today - day).days


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6)
