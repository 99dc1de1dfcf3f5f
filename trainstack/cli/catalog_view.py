"""`catalog info` beyond the counts table: what is left out, where the data comes from, rates.

Plain lines (no rich markup), read from the loaded `Catalog` and `catalog.json`'s `sources`
(written by `make catalog` and `catalog refresh`) and `exchange_rates` (`catalog set-rate`).
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any


def catalog_sources(catalog: Any, data_dir: Path) -> list[str]:
    """Lines for `catalog info`: offerings left out for want of a rate, sources, rates, then one
    warning per cloud whose prices are older than 90 days or of unknown age (and per old rate).

    Args:
        catalog: the loaded `Catalog` (its `left_out`, `version`, `built` and `rates`).
        data_dir: the catalog folder holding `catalog.json`.
    """
    lines = [
        f"left out: {count} offerings listed in {currency}: {catalog.left_out_reason(currency)}"
        for currency, count in sorted(catalog.left_out.items())
    ]
    sources = _sources(data_dir)
    lines.append(f"sources of catalog {catalog.version} (built {catalog.built}):")
    lines += [f"  {provider}: {_source(entry)}" for provider, entry in sorted(sources.items())] or ["  none recorded"]
    lines.append(f"exchange rates: {_rates(catalog)}")
    return lines + catalog.price_warnings()


def _rates(catalog: Any) -> str:
    """The rates in use (`1 USD = 7.12 CNY as of ... (source)`), then those not used and why."""
    rates = [
        f"1 USD = {r['per_usd']} {currency} as of {r['as_of']} ({r.get('source')})"
        for currency, r in sorted(catalog.rates.items())
    ]
    rates += [
        f"USD/{currency} not used: the recorded rate {why}" for currency, why in sorted(catalog.unusable_rates.items())
    ]
    return "; ".join(rates) if rates else "none recorded"


def _source(entry: dict) -> str:
    """`REPOSITORY PATH@COMMIT (prices DATE); N offerings in CUR, third-party; refreshed ...` for
    one provider; an undated source shows `(prices undated, extracted on D)`."""
    files = []
    for name, meta in (entry.get("files") or {}).items():
        text = f"{meta.get('path', name)}@{str(meta.get('commit', '?'))[:12]}"
        if meta.get("date") == "unknown":
            text += f" (prices undated, extracted on {meta.get('extracted', '?')})"
        elif meta.get("date"):
            text += f" (prices {meta['date']})"
        if text not in files:
            files.append(text)
    where = " ".join(part for part in (entry.get("repository", ""), ", ".join(files)) if part) or "unrecorded source"
    facts = [f"{entry.get('offerings', '?')} offerings" + (f" in {entry['currency']}" if entry.get("currency") else "")]
    if entry.get("third_party"):
        facts.append("third-party")
    refreshed = entry.get("refreshed")
    if isinstance(refreshed, dict):
        regions = refreshed.get("regions")
        regions = ", ".join(regions) if isinstance(regions, list) else regions
        facts.append(f"refreshed {refreshed.get('date')} from {refreshed.get('source')} (regions {regions})")
    return f"{where}; {', '.join(facts)}"


def catalog_json(catalog: Any, data_dir: Path) -> dict[str, Any]:
    """`catalog info --json`: the same facts as the table and lines, with stable keys.

    Keys: `version`, `built` (ISO date), `offerings` (count), `providers` (name -> `offerings`,
    `regions`, `accelerators` {name -> {`offerings`, `regions`}}, `prices_observed`
    {`oldest` ISO date or null, `unknown_rows`, `stale`}, `source` {`repository`, `files`
    [{`path`, `commit`, `prices_date` ("unknown" or ISO), `extracted`}], `currency`,
    `third_party`, `refreshed`}), `left_out` (currency -> {`offerings`, `reason`}),
    `exchange_rates` (currency -> {`per_usd`, `as_of`, `source`}), `unusable_rates`
    (currency -> why), `warnings` (the lines `catalog info` prints), `price_checks` (rows whose
    price disagrees with their siblings, `profiles.catalog.sanity`: [{`provider`, `region`,
    `instance_type`, `kind`, `text`}]). Documented in docs/cli.md.

    Args:
        catalog: the loaded `Catalog`.
        data_dir: the catalog folder holding `catalog.json`.
    """
    from profiles.catalog.freshness import cloud_ages
    from profiles.catalog.sanity import price_findings

    sources = _sources(data_dir)
    ages = cloud_ages(catalog.offerings)
    by_cloud: dict[str, list] = {}
    for offering in catalog.offerings:
        by_cloud.setdefault(offering.provider, []).append(offering)
    return {
        "version": catalog.version,
        "built": catalog.built,
        "offerings": len(catalog.offerings),
        "providers": {
            name: {
                **_counts(rows),
                "accelerators": {
                    gpu: _counts([o for o in rows if o.accelerator == gpu])
                    for gpu in sorted({o.accelerator for o in rows})
                },
                "prices_observed": {
                    "oldest": _iso(ages[name].oldest),
                    "unknown_rows": ages[name].unknown,
                    "stale": ages[name].stale(catalog.today),
                },
                "source": _source_json(sources.get(name, {})),
            }
            for name, rows in sorted(by_cloud.items())
        },
        "left_out": {
            currency: {"offerings": count, "reason": catalog.left_out_reason(currency)}
            for currency, count in sorted(catalog.left_out.items())
        },
        "exchange_rates": {
            currency: {"per_usd": r.get("per_usd"), "as_of": r.get("as_of"), "source": r.get("source")}
            for currency, r in sorted(catalog.rates.items())
        },
        "unusable_rates": dict(sorted(catalog.unusable_rates.items())),
        "warnings": catalog.price_warnings(),
        "price_checks": [f._asdict() for f in price_findings(catalog.offerings)],
        "platform_rows": [_platform_row(o) for o in catalog.platform_rows],
    }


def _platform_row(offering: Any) -> dict[str, Any]:
    """A row of hardware only a managed platform sells (`Catalog.platform_rows`: ModelArts'
    Ascend pools, PAI Lingjun's nodes), which `resolve` prices under `platform:` and `offers`
    lists, as `catalog info --json` gives it."""
    return {
        "provider": offering.provider,
        "platform": offering.platform,
        "region": offering.region,
        "instance_type": offering.instance_type,
        "accelerator": offering.accelerator,
        "accelerator_count": offering.accelerator_count,
        "on_demand_usd_per_hour": offering.on_demand_usd_per_hour,
        "price_observed": offering.catalog_date,
        "price_estimate": bool(offering.price_note),
        "source": offering.source,
    }


def platform_row_lines(catalog: Any) -> list[str]:
    """`catalog info`'s lines for the platform-only rows (counted apart from the catalog files')."""
    rows = catalog.platform_rows
    if not rows:
        return []
    return [
        f"{len(rows)} offerings only a managed platform sells (`platform:` in a workload; `trainstack offers`):"
    ] + [
        f"  {o.provider}/{o.platform} {o.instance_type}: {o.accelerator_count} x {o.accelerator} in {o.region}"
        + (f", ${o.on_demand_usd_per_hour:,.2f}/hour" if o.on_demand_usd_per_hour is not None else ", unpriced")
        + (" (estimate)" if o.price_note else "")
        + f" ({o.source})"
        for o in rows
    ]


def price_check_lines(catalog: Any) -> list[str]:
    """`price check: ...` lines of `catalog info`, one per row whose price disagrees with its
    siblings (`profiles.catalog.sanity`), with a count first; [] when none does."""
    from profiles.catalog.sanity import price_findings

    found = price_findings(catalog.offerings)
    if not found:
        return []
    return [f"{len(found)} price checks (sibling prices that disagree; shown on the rows `resolve` picks):"] + [
        f"  {f.provider}: {f.text}" for f in found
    ]


def _counts(rows: list) -> dict[str, int]:
    return {"offerings": len(rows), "regions": len({o.region for o in rows})}


def _sources(data_dir: Path) -> dict[str, dict]:
    """`catalog.json`'s `sources` (provider -> entry); {} when unreadable."""
    try:
        sources = json.loads((data_dir / "catalog.json").read_text(encoding="utf-8")).get("sources", {})
    except (OSError, ValueError, AttributeError):
        return {}
    return {p: e for p, e in sources.items() if isinstance(e, dict)} if isinstance(sources, dict) else {}


def _source_json(entry: dict) -> dict[str, Any]:
    files = [
        {
            "path": meta.get("path", name),
            "commit": meta.get("commit"),
            "prices_date": meta.get("date"),
            "extracted": meta.get("extracted"),
        }
        for name, meta in sorted((entry.get("files") or {}).items())
        if isinstance(meta, dict)
    ]
    return {
        "repository": entry.get("repository"),
        "files": files,
        "currency": entry.get("currency", "USD"),
        "third_party": bool(entry.get("third_party")),
        "refreshed": entry.get("refreshed") if isinstance(entry.get("refreshed"), dict) else None,
    }


def _iso(day: date | None) -> str | None:
    """A date as YYYY-MM-DD, or None when unknown."""
    return day.isoformat() if day is not None else None
