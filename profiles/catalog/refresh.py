"""Refresh one provider's catalog file from its live API (`trainstack catalog refresh`).

Order of work, so that a failure never leaves a half-written catalog:
1. fetch every row (the provider's fetcher writes nothing) and validate it;
2. build the new `<provider>.csv` text in memory: rows of the refreshed regions are
   replaced, every other row (other regions) is kept byte for byte;
3. copy the previous file to `snapshots/<provider>-<previous version>.csv`, then write the
   new file and `catalog.json` atomically; if any write fails, every file is restored.

Snapshots are local (the folder carries its own .gitignore; git history keeps committed
catalogs) and only the newest `KEEP_SNAPSHOTS` per provider are kept.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import math
from collections.abc import Callable, Sequence
from pathlib import Path

from profiles.catalog.build import offerings_to_csv
from profiles.catalog.diff import RefreshSummary, summarize
from profiles.catalog.fetchers import FetchError, fetcher_for
from profiles.catalog.loader import DATA_DIR, PROVIDERS, CatalogError, load_provider
from profiles.catalog.offering import COLUMNS, Offering
from profiles.catalog.rates import versioned_with
from profiles.files import write_atomically

KEEP_SNAPSHOTS = 3
PRICE_FIELDS = (
    "on_demand_usd_per_hour",
    "spot_usd_per_hour",
    "reserved_1y_usd_per_hour",
    "reserved_3y_usd_per_hour",
    "on_demand_native",
    "spot_native",
)


def refresh(
    provider: str,
    regions: Sequence[str] | None,
    data_dir: Path | None = None,
    progress: Callable[[str], None] = lambda _: None,
    today: str | None = None,
    top: int = 5,
    **clients: object,
) -> RefreshSummary:
    """Fetch `provider`'s live offerings and merge them into `data_dir/<provider>.csv`.

    Args:
        provider: `aws`, `azure` or `gcp`.
        regions: regions to refresh; None refreshes (and replaces) all of the provider's rows.
        data_dir: folder holding `<provider>.csv` and `catalog.json` (default: `DATA_DIR`).
        progress: called with a short message before each API step.
        today: ISO date stamped on every fetched row, the version and the metadata
            (default: today).
        top: how many of the largest price moves the summary lists.
        **clients: passed to the fetcher (e.g. `session=` a boto3 Session).

    Returns:
        What changed: rows added/removed, the largest price moves, the new version.

    Raises:
        FetchError: the API failed or answered with invalid rows; no file was touched.
        CatalogError: `data_dir` holds no catalog, or the existing catalog file is malformed.
    """
    fetch = fetcher_for(provider)
    data_dir = data_dir or DATA_DIR
    if not (data_dir / "catalog.json").is_file():  # before any (slow, billed) API call
        raise CatalogError(
            f"--data-dir: {data_dir} holds no catalog.json; give the catalog folder (default profiles/catalog/data)"
        )
    today = today or dt.date.today().isoformat()
    fetched = fetch(regions, progress, **clients)
    rows = [o._replace(catalog_date=today) for o in fetched]
    validate(provider, regions, rows)
    path = data_dir / f"{provider}.csv"
    old_text = path.read_text(encoding="utf-8") if path.exists() else None
    scope = set(regions or ())

    def in_scope(region: str) -> bool:
        return not scope or region in scope

    fetched_types = {o.instance_type for o in rows}
    old_rows = [
        o
        for o in (load_provider(path, require_usd=False) if old_text else [])
        if in_scope(o.region) and o.instance_type in fetched_types
    ]
    new_text = merge_text(old_text, rows, provider, in_scope)
    meta_path = data_dir / "catalog.json"
    old_meta_text = meta_path.read_text(encoding="utf-8") if meta_path.exists() else None
    meta = _new_meta(old_meta_text, data_dir, provider, regions, rows, new_text, today)
    snapshot = _write(path, new_text, old_text, meta_path, meta, old_meta_text)
    return summarize(provider, regions, old_rows, rows, meta["version"], snapshot, top)


def validate(provider: str, regions: Sequence[str] | None, rows: list[Offering]) -> None:
    """Reject fetched rows that would corrupt the catalog.

    Raises:
        FetchError: no rows, a row of another provider or region, a zero, negative or
            non-finite price, a row without any price, or a repeated (provider, type, zone).
    """
    if not rows:
        raise FetchError(f"the {provider} API returned no offerings; catalog unchanged")
    seen: set[tuple[str, str, str, str | None]] = set()
    for o in rows:
        where = f"{o.instance_type} in {o.zone}"
        if o.provider != provider or (regions and o.region not in regions):
            raise FetchError(
                f"the {provider} fetch returned a row outside the request "
                f"({o.provider} {o.region}: {where}); catalog unchanged"
            )
        for field in PRICE_FIELDS:
            value = getattr(o, field)
            if value is not None and not (math.isfinite(value) and value > 0):
                raise FetchError(
                    f"the {provider} API gave {field}={value} for {where}; prices must be positive, catalog unchanged"
                )
        if all(
            getattr(o, f) is None
            for f in ("on_demand_usd_per_hour", "spot_usd_per_hour", "on_demand_native", "spot_native")
        ):
            raise FetchError(f"the {provider} fetch returned {where} without a price; catalog unchanged")
        key = (o.provider, o.instance_type, o.zone, o.accelerator)  # one GCP N1 host type carries several GPUs
        if key in seen:
            raise FetchError(f"the {provider} fetch returned {where} twice; catalog unchanged")
        seen.add(key)


def merge_text(old_text: str | None, rows: list[Offering], provider: str, in_scope: Callable[[str], bool]) -> str:
    """The new file text: kept rows verbatim plus `rows`, sorted (type, region, zone).

    An old row is replaced only when it is the provider's, in a refreshed region, and of an
    instance type the fetch returned; types the fetcher does not cover (GCP TPU slices, say)
    keep their previous rows rather than vanish.
    """
    old = list(csv.reader(io.StringIO(old_text))) if old_text else [[]]
    fetched_types = {o.instance_type for o in rows}
    kept = [r for r in old[1:] if r and not (r[0] == provider and in_scope(r[1]) and r[3] in fetched_types)]
    new = list(csv.reader(io.StringIO(offerings_to_csv(rows))))
    width = max(len(old[0]), len(new[0]))
    merged = sorted((r + [""] * (width - len(r)) for r in kept + new[1:]), key=lambda r: (r[3], r[1], r[2]))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerows([list(COLUMNS[:width]), *merged])
    return buffer.getvalue()


def _new_meta(
    old_meta_text: str | None,
    data_dir: Path,
    provider: str,
    regions: Sequence[str] | None,
    rows: list[Offering],
    new_text: str,
    today: str,
) -> dict:
    try:
        meta = json.loads(old_meta_text) if old_meta_text else {"built": today, "sources": {}}
    except ValueError as exc:
        raise CatalogError(
            f"{data_dir / 'catalog.json'}: not valid JSON ({exc}); rebuild with `make catalog`"
        ) from None
    if not isinstance(meta, dict) or not isinstance(meta.get("sources", {}), dict):
        raise CatalogError(
            f"{data_dir / 'catalog.json'}: not a catalog metadata object with a `sources` map; "
            "rebuild with `make catalog`"
        )
    texts = {
        p: (data_dir / f"{p}.csv").read_text(encoding="utf-8")
        for p in PROVIDERS
        if p != provider and (data_dir / f"{p}.csv").exists()
    }
    texts[provider] = new_text
    digest = hashlib.sha256("".join(texts[p] for p in sorted(texts)).encode()).hexdigest()
    entry = dict(meta.setdefault("sources", {}).get(provider, {}))
    entry["offerings"] = new_text.count("\n") - 1
    entry["refreshed"] = {
        "date": today,
        "source": ", ".join(sorted({o.source for o in rows})),
        "regions": sorted(regions) if regions else "all",
        "offerings": len(rows),
    }
    meta["sources"][provider] = entry
    # Recorded rates keep their `+CNY7.12@2026-11-29` mark: the rows alone do not say how CNY is priced.
    meta["version"] = versioned_with(f"{today}-{digest[:10]}", meta.get("exchange_rates"))
    meta["refreshed"] = today
    return meta


def _write(
    path: Path, new_text: str, old_text: str | None, meta_path: Path, meta: dict, old_meta_text: str | None
) -> Path | None:
    """Snapshot the old file, write the new file and metadata; restore everything on failure."""
    snapshot = None
    if old_text is not None:
        old_version = json.loads(old_meta_text or "{}").get("version", "unversioned")
        snapshot = path.parent / "snapshots" / f"{path.stem}-{old_version}.csv"
    created = snapshot is not None and not snapshot.exists()
    new_folder = snapshot is not None and not snapshot.parent.exists()
    try:
        if snapshot is not None and old_text is not None:  # a snapshot exists only of an old file
            write_atomically(snapshot, old_text)
        write_atomically(path, new_text)
        write_atomically(meta_path, json.dumps(meta, indent=2, sort_keys=True) + "\n")
    except BaseException:
        _restore(path, old_text)
        _restore(meta_path, old_meta_text)
        if created and snapshot is not None:
            snapshot.unlink(missing_ok=True)
        if new_folder and snapshot is not None:
            snapshot.parent.rmdir()
        raise
    if snapshot is not None:
        _ignore_in_git(snapshot.parent)
        prune_snapshots(snapshot.parent, path.stem)
    return snapshot


def _restore(path: Path, text: str | None) -> None:
    if text is None:
        path.unlink(missing_ok=True)
    elif not path.exists() or path.read_text(encoding="utf-8") != text:
        write_atomically(path, text)


def _ignore_in_git(folder: Path) -> None:
    ignore = folder / ".gitignore"
    if not ignore.exists():
        ignore.write_text(
            "# Local catalog snapshots (trainstack catalog refresh); not committed.\n*\n", encoding="utf-8"
        )


def prune_snapshots(folder: Path, provider: str, keep: int = KEEP_SNAPSHOTS) -> list[Path]:
    """Delete all but the newest `keep` snapshots of `provider`; returns the deleted paths."""
    snapshots = sorted(folder.glob(f"{provider}-*.csv"), key=lambda p: (p.stat().st_mtime_ns, p.name))
    stale = snapshots[:-keep] if keep > 0 else snapshots
    for old in stale:
        old.unlink()
    return stale
