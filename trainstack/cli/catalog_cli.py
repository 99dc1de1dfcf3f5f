"""`trainstack catalog ...`: inspect the price catalog, record exchange rates, refresh prices.

Registered on the main command line by `trainstack.cli.app`; the same rules apply (one-line
errors on stderr, nothing half-written; exit 2 for bad input, 1 when a cloud's API or the
rate site could not give an answer).
"""

from __future__ import annotations

from pathlib import Path

import typer

from clouds.registry import NAMES
from trainstack.cli import render
from trainstack.cli.usage_errors import FAILED, fail

catalog_app = typer.Typer(no_args_is_help=True, help="Inspect the price catalog.")


@catalog_app.command("info")
def catalog_info(
    as_json: bool = typer.Option(False, "--json", help="Print JSON (keys in docs/cli.md) instead of a table."),
) -> None:
    """Show the catalog version, sources, offering counts and how old the prices are."""
    import json

    from profiles.catalog.loader import DATA_DIR, CatalogError, load_catalog
    from trainstack.cli.catalog_view import catalog_json, catalog_sources, platform_row_lines, price_check_lines

    try:
        catalog = load_catalog(DATA_DIR)
    except CatalogError as exc:
        fail(str(exc))
    if as_json:
        typer.echo(json.dumps(catalog_json(catalog, DATA_DIR), indent=2))
        return
    render.catalog_summary(catalog)
    for line in platform_row_lines(catalog) + catalog_sources(catalog, DATA_DIR) + price_check_lines(catalog):
        typer.echo(line)


@catalog_app.command("set-rate")
def catalog_set_rate(
    currency: str = typer.Argument(..., help="ISO currency code, e.g. CNY (lowercase is accepted and upper-cased)."),
    per_usd: float = typer.Argument(..., help="Units of the currency per 1 USD, e.g. 7.12."),
    as_of: str = typer.Option(
        ..., "--as-of", metavar="DATE", help="Date the rate applies to, YYYY-MM-DD (at most 1 day ahead)."
    ),
    source: str = typer.Option(..., "--source", help="Where the rate comes from."),
    data_dir: Path | None = typer.Option(None, "--data-dir", help="Catalog folder; default the installed one."),
    force: bool = typer.Option(False, "--force", help="Replace a recorded rate dated later than --as-of."),
) -> None:
    """Record an exchange rate so offerings listed in that currency compare in USD."""
    from profiles.catalog.loader import DATA_DIR
    from profiles.catalog.rates import RateError, previous_rate, set_rate

    currency, folder = currency.strip().upper(), data_dir or DATA_DIR
    try:
        before = previous_rate(folder, currency)
        entry = set_rate(folder, currency, per_usd, as_of, source, force=force)
    except RateError as exc:
        fail(str(exc))
    _report_recorded(currency, entry, before)


@catalog_app.command("refresh-rate")
def catalog_refresh_rate(
    currency: str = typer.Argument(
        "CNY", help="Currency to fetch, CNY (lowercase is accepted); CFETS quotes no other."
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help="Catalog folder; default the installed one."),
) -> None:
    """Fetch the latest CFETS USD/CNY central parity (chinamoney.com.cn) and record it as `set-rate` does.

    A recorded rate dated after CFETS's latest is kept.
    """
    from profiles.catalog.fetchers import FetchError
    from profiles.catalog.fetchers.cfets import currency_problem
    from profiles.catalog.loader import DATA_DIR
    from profiles.catalog.rates import KeptRate, RateError, describe, previous_rate, refresh_rate

    currency, folder = currency.strip().upper(), data_dir or DATA_DIR
    if currency_problem(currency):
        fail(currency_problem(currency))
    try:
        before = previous_rate(folder, currency)
        entry = refresh_rate(folder, currency)
    except FetchError as exc:  # the site did not answer as expected: nothing recorded
        fail(str(exc), code=FAILED)
    except RateError as exc:
        fail(str(exc))
    if isinstance(entry, KeptRate):
        typer.echo(
            f"kept {describe(currency, entry)}; CFETS's latest is {entry.latest} "
            f"({entry.latest_per_usd:g} {currency} per USD)"
        )
        return
    _report_recorded(currency, entry, before)


def _report_recorded(currency: str, entry: dict, before: str | None) -> None:
    """Print the rate just recorded, and the one it replaced when there was another."""
    import datetime as dt

    from profiles.catalog.rate_policy import rate_age_warning
    from profiles.catalog.rates import describe

    recorded = describe(currency, entry)
    typer.echo(f"recorded {recorded}")
    if before and before != recorded:
        typer.echo(f"replaced {before}")
    warning = rate_age_warning(currency, entry, dt.date.today())
    if warning:
        typer.echo(warning, err=True)


@catalog_app.command("refresh")
def catalog_refresh(
    provider: str = typer.Option(
        ...,
        "--provider",
        help=f"Cloud to refresh: {', '.join(NAMES[:-1])} or {NAMES[-1]}.",
    ),
    regions: str | None = typer.Option(
        None, "--regions", metavar="REGION,...", help="Comma-separated regions; default all."
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help="Catalog folder; default the installed one."),
    top: int = typer.Option(5, "--top", min=1, help="How many of the largest price moves to show."),
) -> None:
    """Refresh one cloud's offerings and prices from its live APIs, then show what changed."""
    from profiles.catalog.fetchers import FETCHERS, FetchError, FetchInputError
    from profiles.catalog.loader import DATA_DIR, CatalogError
    from profiles.catalog.refresh import refresh
    from trainstack.cli import live_view

    names = [r.strip() for r in regions.split(",") if r.strip()] if regions else None
    if regions is not None and not names:
        fail("--regions: give region names separated by commas, e.g. us-east-1,us-west-2")
    if provider not in FETCHERS:
        fail(f"--provider: unknown provider '{provider}'; valid: {', '.join(sorted(FETCHERS))}")
    try:
        with live_view.progress_bar(provider) as progress:
            summary = refresh(provider, names, data_dir or DATA_DIR, progress, top=top)
    except FetchInputError as exc:  # an unknown --regions name: nothing was asked of the cloud
        fail(str(exc))
    except FetchError as exc:  # credentials, the network or the API's answer: catalog unchanged
        fail(str(exc), code=FAILED)
    except CatalogError as exc:
        fail(str(exc))
    live_view.refresh_summary(summary)
    note = _rate_after_refresh(provider, data_dir or DATA_DIR)
    if note:
        typer.echo(note)


def _rate_after_refresh(provider: str, data_dir: Path, today=None) -> str:
    """After a refresh of a cloud priced in CNY with no current USD/CNY rate (none usable, or
    one older than `RATE_WARN_AFTER_DAYS`), fetch one (CFETS).

    Returns the line to print ("" when nothing was needed). A failed fetch only warns:
    the prices are refreshed either way. `today` (a `datetime.date`, default today) is the
    day the rate's age is measured from.
    """
    from profiles.catalog.fetchers import FetchError
    from profiles.catalog.loader import CatalogError, load_catalog
    from profiles.catalog.rates import RateError, refresh_rate

    try:
        catalog = load_catalog(data_dir, providers=(provider,), today=today)
    except CatalogError:
        return ""
    priced_in_cny = "CNY" in catalog.left_out or any(o.currency == "CNY" for o in catalog.offerings)
    if not priced_in_cny or ("CNY" not in catalog.left_out and not catalog.rate_warnings()):
        return ""
    try:
        entry = refresh_rate(data_dir, "CNY", today=today)
    except (FetchError, RateError) as exc:
        return (
            f"note: {provider} prices are in CNY and no current USD/CNY rate is recorded; fetching one failed "
            f"({exc}); run `trainstack catalog refresh-rate` later or record one with `catalog set-rate`"
        )
    return f"USD/CNY rate: recorded 1 USD = {entry['per_usd']} CNY as of {entry['as_of']} ({entry['source']})"
