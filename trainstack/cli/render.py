"""Output of the CLI: rich tables and trees for people, plain dicts for `--json`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # rich loads only when a table or tree is printed, keeping --json fast
    from rich.console import Console


def __getattr__(name: str) -> Any:
    """`KEY_INPUTS` and `key_inputs` live in `trainstack.plan.view` (loaded on use)."""
    if name in ("KEY_INPUTS", "key_inputs"):
        from trainstack.plan import view as plan_view

        return getattr(plan_view, name)
    raise AttributeError(name)


def candidate_json(ranked: Any) -> dict:
    """One ranked candidate as the `--json` entry shape (USD figures for the whole cluster):
    `usd_per_hour` is everything the job pays per hour of its run and `usd_compute_per_hour`
    the nodes alone, the same keys and figures as `plan --json`."""
    c, o = ranked.candidate, ranked.candidate.offering
    return {
        "provider": o.provider,
        "region": o.region,
        "zone": o.zone,
        "also_zones": list(ranked.also_zones),
        "instance_type": o.instance_type,
        "platform": o.platform,
        "accelerator": o.accelerator,
        "accelerator_count": o.accelerator_count,
        "nodes": c.nodes,
        "purchase": c.purchase,
        "hours": round(c.hours, 4),
        "speed": c.speed,
        "usd_per_hour": round(c.total_usd_per_hour, 6),
        "usd_compute_per_hour": round(c.usd_per_hour, 6),
        "usd_storage": None if c.usd_storage is None else round(c.usd_storage, 2),
        "usd_requests": None if c.usd_requests is None else round(c.usd_requests, 2),
        "usd_total": round(c.usd_total, 2),
        "reason": ranked.reason,
        "notes": list(c.notes),
        "caveats": list(c.caveats),
        "file_system": None
        if c.storage is None
        else {
            "service": c.storage.service,
            "capacity_gib": c.storage.capacity_gib,
            "throughput_mbps_per_tib": c.throughput,
            "usd_per_hour": round(c.storage.usd_per_hour, 6),
            "basis": c.storage.basis,
            "reference": c.storage.reference,
            "feeds_gpus": not c.io_bound,
        },
        "spot_interruptions": round(c.interruptions, 4),
        "spot_added_hours": round(c.added_hours, 4),
        "usd_commitment": None if c.usd_commitment is None else round(c.usd_commitment, 2),
        "currency": o.currency,
        "on_demand_native_per_hour": o.on_demand_native,
        "price_estimate": bool(o.price_note),
        "price_observed": o.catalog_date,
    }


def resolution_json(resolution: Any, catalog_version: str) -> dict:
    """`{"choice": {...}, "alternatives": [...]}` plus the catalog version and match count."""
    return {
        "choice": candidate_json(resolution.choice),
        "alternatives": [candidate_json(r) for r in resolution.alternatives],
        "matched": resolution.matched,
        "deadline_met": resolution.deadline_met,
        "to_meet": resolution.to_meet,
        "rejected": {
            **{k: {"offerings": n, "example": d} for k, (n, d) in (resolution.rejected or {}).items()},
            "clouds": dict(resolution.clouds or {}),
        },
        "catalog_version": catalog_version,
    }


PIPE_WIDTH = 160  # columns of output that is not a terminal (logs, CI, pipes) without COLUMNS


def console() -> Console:
    """A rich console as wide as the terminal; `COLUMNS`, when set to a whole number, wins
    everywhere (a piped `COLUMNS=80 trainstack resolve ... | less` is 80 wide); output that
    is not a terminal and sets no `COLUMNS` is `PIPE_WIDTH` wide."""
    import os

    from rich.console import Console

    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdigit() and int(columns) > 0:
        return Console(width=int(columns))
    terminal = Console()
    return terminal if terminal.is_terminal else Console(width=PIPE_WIDTH)


def resolution_table(spec: Any, resolution: Any, catalog_version: str) -> None:
    """Print the ranked candidates, choice first, in a layout that fits the terminal
    (`trainstack.cli.resolve_view`), then what was rejected and any missed deadline."""
    from rich.markup import escape

    from trainstack.cli.resolve_view import print_resolution

    out = console()
    print_resolution(out, spec, resolution, catalog_version)
    for constraint, (count, example) in (resolution.rejected or {}).items():
        out.print(escape(f"rejected by {constraint}: {count} offerings, e.g. {example}"))
    for cloud, why in (resolution.clouds or {}).items():
        out.print(escape(f"no row from {cloud}: {why}"))
    if resolution.deadline_met is False:
        out.print(
            f"[bold red]no offering meets the {spec.deadline_hours:g} h deadline; the cheapest of the rows "
            f"closest to it are shown[/bold red]"
        )
        out.print(escape(resolution.to_meet))


def _rounded(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def plan_json(result: Any, policies: list | None = None, stack: str | None = None, cluster: Any = None) -> dict:
    """`plan --json`: which stack and cloud, the summary a script reads first (placement, size,
    purchase and cost of the cluster as `cluster`, the stack's validated config, gives them),
    the resources, the cost (whole cluster: USD/hour to 6 decimals as the catalog prices it, USD
    per job and storage to the cent, as `resolve --json` gives them) and the policies; the same
    stack gives the same text. A policy that checked nothing says `"passed": null` and why
    (`policies.registry.RuleResult.as_json`)."""
    return {
        "stack": stack,
        "provider": result.provider,
        "region": result.region,
        **plan_summary(result, cluster),
        "hours": _rounded(result.hours, 4),
        "resources": [{k: r[k] for k in ("type", "name", "parent", "protect", "inputs")} for r in result.resources],
        "usd_per_hour": _rounded(result.usd_per_hour, 6),
        "usd_total": _rounded(result.usd_total, 2),
        "usd_compute_per_hour": _rounded(result.usd_compute_per_hour, 6),
        "usd_storage": _rounded(result.usd_storage, 2),
        "usd_requests": _rounded(result.usd_requests, 2),
        "recorded_usd_per_hour": _rounded(result.recorded_usd_per_hour, 6),
        "price_note": result.price_note,
        "price_caveats": list(result.price_caveats),
        "deadline_hours": result.deadline_hours,
        "deadline_note": result.deadline_note,
        "healing": healing_line(result),
        "runtime": result.runtime or "",
        "notes": [note for note in (rounding_line(cluster), *getattr(result, "program_warnings", ())) if note],
        "policies": [r.as_json() for r in policies or []],
    }


def plan_summary(result: Any, cluster: Any = None) -> dict:
    """The top-level keys of `plan --json` a script reads first: where, what, how many, how
    bought (`purchase`, and `flex_start`: true for a GCP flex-start stack) and what it costs
    (USD/hour and USD per job: the plan's own figures, the ones its table prints). Without
    `cluster` the placement keys are None and `flex_start` is false."""
    return {
        "zone": getattr(cluster, "zone", None),
        "instance_type": getattr(cluster, "instance_type", None),
        "accelerator": getattr(cluster, "accelerator", None),
        "accelerator_count": getattr(cluster, "accelerator_count", None),
        "nodes": getattr(cluster, "nodes", None),
        "purchase": result.purchase or getattr(cluster, "purchase", None),
        # a GCP flex-start stack is `purchase: on-demand` with its nodes from one resize request
        "flex_start": bool(getattr(cluster, "flex_start", False)),
        "usd_per_job": _rounded(result.usd_total, 2),
    }


def priced_parts(result: Any) -> str:
    """`; priced: file system $1.3925/hour, $100.26 for the run (72 h)` for a plan whose total is
    unknown (its compute is not in the catalog) but whose file system is priced; "" otherwise.
    The JSON gives the same figure as `usd_storage`."""
    storage, hours = getattr(result, "usd_storage", None), getattr(result, "hours", None)
    if storage is None or not hours:
        return ""
    return f"; priced: file system ${storage / hours:,.4f}/hour, ${storage:,.2f} for the run ({hours:g} h)"


def plan_tree(stack: str, result: Any) -> None:
    """Print the resource tree (`trainstack.plan.view.tree`) and the cluster's cost."""
    from rich.markup import escape

    from trainstack.plan.view import tree

    root = tree(stack, result.resources)
    out = console()
    out.print(root)
    unpriced = result.usd_per_hour is None or not result.cost_text
    if unpriced:  # the note says why, once: "price unknown (...)"; then any part that is priced
        out.print(f"cluster: [bold]{escape(result.price_note or 'price unknown')}[/bold]{escape(priced_parts(result))}")
    else:
        hourly, per_job = result.cost_text
        # A compute price only the stack file states is never shown as if the catalog gave it.
        label = "cluster" if result.price_verified else "cluster (the stack's recorded price, unconfirmed)"
        out.print(f"{label}: [bold]{escape(hourly)}[/bold]; {escape(per_job)}")
    if healing := healing_line(result):
        out.print(escape(healing))
    if result.runtime:
        out.print(escape(result.runtime))
    if result.price_note and not unpriced:
        out.print(f"[yellow]price: {escape(result.price_note)}[/yellow]")
    for caveat in result.price_caveats:
        out.print(f"[yellow]caveat: {escape(caveat)}[/yellow]")
    if result.deadline_note:
        out.print(f"[bold red]deadline: {escape(result.deadline_note)}[/bold red]")


def healing_line(result: Any) -> str:
    """What replaces a lost node of the planned cluster (`clouds.healing`), as `plan` prints it."""
    if result.healing:
        return str(result.healing)
    provider = next(
        (
            r["type"].split(":")[1]
            for r in result.resources
            if r["parent"] is None and r["type"].startswith("trainstack:")
        ),
        None,
    )
    if provider is None:
        return ""
    from clouds.healing import healing

    return healing(provider).summary


def rounding_line(cluster: Any) -> str:
    """The file system the cloud creates larger than the stack asks (`clouds.filesystems`), or ""."""
    from clouds.filesystems import rounding_note

    file_system = getattr(cluster, "file_system", None)
    return (rounding_note(cluster.provider, file_system) or "") if file_system is not None else ""


def catalog_summary(catalog: Any) -> None:
    """Print offering counts per provider and accelerator."""
    from rich.table import Table

    table = Table(title=f"catalog {catalog.version} (built {catalog.built})")
    for column in ("provider", "accelerator", "offerings", "regions"):
        table.add_column(column)
    groups: dict[tuple[str, str], list] = {}
    for offering in catalog.offerings:
        groups.setdefault((offering.provider, offering.accelerator), []).append(offering)
    for (provider, accelerator), rows in sorted(groups.items()):
        table.add_row(provider, accelerator, str(len(rows)), str(len({o.region for o in rows})))
    console().print(table)


def policy_summary(results: list) -> None:
    """Print the policy rules' outcome: one line when all pass, else each violation, then
    what a rule could not check (`n/a`: no resource of its types, or beyond its reach)."""
    failed = [r for r in results if not r.passed]
    na = sum(r.status == "n/a" for r in results)
    gaps = [(r.rule, v) for r in results for v in r.not_applicable]
    out = console()
    tail = f", {na} n/a" if na else ""
    if not failed and not gaps:
        out.print(f"policies: [green]all {len(results)} passed[/green]")
        return
    from rich.markup import escape

    if failed:
        out.print(f"policies: [red]{len(failed)} of {len(results)} failed[/red]{tail}")
    else:
        out.print(f"policies: [green]{len(results) - na} passed[/green]{tail}")
    for result in failed:
        for violation in result.violations:
            where = f"{violation.resource}: " if violation.resource else ""
            out.print(f"  [red]x[/red] {result.rule}: {escape(where + violation.message)}")
    for rule, gap in gaps:
        where = f"{gap.resource}: " if gap.resource else ""
        out.print(f"  [yellow]-[/yellow] {rule}: n/a: {escape(where + gap.message)}")
