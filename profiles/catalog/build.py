"""Build the project's price catalog from the SkyPilot reference extract and the China prices.

Rerunnable: `python -m profiles.catalog.build [--source DIR] [--date YYYY-MM-DD]` reads
`shared/reference-catalog/` (filtered, verbatim extracts of skypilot-org/skypilot-catalog,
Apache-2.0; see NOTICE): AWS and GCP from the schema-v8 snapshot in `v8/`, Azure from the
older v6 extract (no newer one exists). It also builds Alibaba and Tencent rows from the
in-repo transcriptions of `shared/reference-facts/china-prices.md` (`sources/data/`). It
writes `profiles/catalog/data/<provider>.csv` plus `catalog.json` (version, build date, and
per source file its repository path, commit, price date and extraction date, and the rows
left out by reason). Providers the build has no source for (filled by `trainstack catalog
refresh`) keep their files and `sources` entries, and recorded exchange rates are kept; both
count in the version.

Price dates: every row's `catalog_date` is when its price was observed, never the build
date. The SkyPilot snapshots carry no date (their commit dates are unknown, per both
READMEs), so their rows say `unknown, extracted on D`, D being the day trainstack first read
that commit (kept from the previous `catalog.json` while the commit is unchanged). A fresh
clone has a USD/CNY rate: with no rate recorded, the build records `DEFAULT_RATE`, the
sourced, dated rate of china-prices.md (CP-R1).

Cleaning rules (from the extract's README caveats):
- An empty, zero, negative or unparseable price becomes None ("unknown"), never 0.
- Duplicate rows of one (instance type, zone) are merged, first non-empty value per field.
- GCP TPU placeholder price 700.0 means "no public price" and becomes None.
- Rows with neither an on-demand nor a spot price are dropped.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import hashlib
import io
import json
import re
from pathlib import Path

from profiles.catalog.freshness import unknown_date
from profiles.catalog.loader import PROVIDERS
from profiles.catalog.offering import COLUMNS, HEADERS, Offering
from profiles.catalog.rates import versioned_with
from profiles.catalog.sources import OTHER_BUILDERS, SOURCE_BUILDERS
from profiles.files import write_atomically

DATA_DIR = Path(__file__).parent / "data"
# `shared/reference-catalog` beside the repository (or beside a folder of its worktrees).
DEFAULT_SOURCE = next(
    (
        up / "shared" / "reference-catalog"
        for up in Path(__file__).resolve().parents[3:]
        if (up / "shared" / "reference-catalog").is_dir()
    ),
    Path(__file__).resolve().parents[3] / "shared" / "reference-catalog",
)
SOURCE_REPOSITORY = "github.com/skypilot-org/skypilot-catalog"
BUILT = (*SOURCE_BUILDERS, *OTHER_BUILDERS)  # providers the build writes; the others it keeps
_COMMIT_ROW = re.compile(r"^\|([^|]*)\|\s*`([^`]+)`\s*\|\s*`([0-9a-f]{40})`", re.M)
# china-prices.md CP-R1: the ECB euro reference rates of 2026-05-08 (USD 1.1761, CNY 7.9989
# per EUR), cross rate 7.9989 / 1.1761 = 6.8012 CNY per USD; the freshest authoritative dated
# figure there. Recorded only when no rate is; `catalog refresh-rate` replaces it.
DEFAULT_RATE = {
    "CNY": {
        "per_usd": 6.8012,
        "as_of": "2026-05-08",
        "source": "ECB euro reference rates, cross rate 7.9989/1.1761 (china-prices.md CP-R1)",
    }
}


def source_commits(readme_text: str) -> dict[str, dict[str, str]]:
    """Map each extract file to its upstream path and commit, read from the extract README.

    Returns:
        {"aws_gpu.csv": {"path": "catalogs/v7/aws/vms.csv", "commit": "0013..."}, ...}
    """
    return {
        name: {"path": path, "commit": commit}
        for names, path, commit in _COMMIT_ROW.findall(readme_text)
        for name in re.findall(r"`([^`]+)`", names)
    }


def offerings_to_csv(offerings: list[Offering]) -> str:
    """Serialize offerings as CSV text (None -> empty).

    The header is the shortest of `HEADERS` that holds every value the offerings carry, so
    catalogs without reserved or native-currency prices (the SkyPilot build) keep their
    exact bytes.
    """
    columns = next(h for h in HEADERS if all(_fits(o, h) for o in offerings))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for offering in offerings:
        writer.writerow(["" if (v := getattr(offering, c)) is None else v for c in columns])
    return buffer.getvalue()


_DEFAULTS = Offering._field_defaults


def _fits(offering: Offering, header: tuple[str, ...]) -> bool:
    """True when every column left out of `header` holds its default value."""
    return all(getattr(offering, c) == _DEFAULTS[c] for c in COLUMNS[len(header) :])


def _previous_meta(out_dir: Path) -> dict:
    """The existing `catalog.json` of `out_dir` ({} when missing, unreadable or not an object)."""
    try:
        meta = json.loads((out_dir / "catalog.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return meta if isinstance(meta, dict) else {}


def _kept_rates(out_dir: Path) -> dict:
    """Exchange rates recorded in the existing `catalog.json` (a rebuild keeps them), else
    `DEFAULT_RATE`."""
    rates = _previous_meta(out_dir).get("exchange_rates")
    return {"exchange_rates": rates if isinstance(rates, dict) and rates else json.loads(json.dumps(DEFAULT_RATE))}


def _extracted(out_dir: Path, provider: str, commit: str, date: str) -> str:
    """The day trainstack first read `commit` of `provider`'s source: the previous build's
    record while the commit is unchanged (its `extracted`, else its build date), else `date`."""
    meta = _previous_meta(out_dir)
    entry = (meta.get("sources") or {}).get(provider)
    files = entry.get("files") if isinstance(entry, dict) else None
    for recorded in files.values() if isinstance(files, dict) else ():
        if isinstance(recorded, dict) and recorded.get("commit") == commit:
            return str(recorded.get("extracted") or meta.get("built") or date)
    return date


class BuildError(RuntimeError):
    """The build would lose data the user fetched (one-line message with the fix)."""


def refreshed_providers(out_dir: Path) -> dict[str, str]:
    """Providers whose rows in `out_dir` came from `trainstack catalog refresh`: name -> date."""
    sources = _previous_meta(out_dir).get("sources")
    if not isinstance(sources, dict):
        return {}
    return {
        p: str(e["refreshed"].get("date", "?"))
        for p, e in sorted(sources.items())
        if isinstance(e, dict) and isinstance(e.get("refreshed"), dict)
    }


def _kept_providers(out_dir: Path) -> tuple[dict[str, str], dict[str, dict], dict]:
    """What a rebuild keeps of providers it does not build (refreshed ones, e.g. tencentcloud).

    Returns:
        `(texts, sources, marker)`: their CSV text (for the version digest), their
        `catalog.json` `sources` entries, and `{"refreshed": latest date}` when any of them
        was refreshed ({} otherwise).
    """
    texts = {
        p: (out_dir / f"{p}.csv").read_text(encoding="utf-8")
        for p in PROVIDERS
        if p not in BUILT and (out_dir / f"{p}.csv").exists()
    }
    sources = _previous_meta(out_dir).get("sources")
    kept = {p: e for p, e in sources.items() if p not in BUILT} if isinstance(sources, dict) else {}
    dates = [d for p, d in refreshed_providers(out_dir).items() if p not in BUILT]
    return texts, kept, ({"refreshed": max(dates)} if dates else {})


def build(source: Path, out_dir: Path, date: str, force: bool = False) -> dict:
    """Build every provider's catalog file from `source` into `out_dir`.

    Recorded exchange rates are kept (and mark the version, see `rates.versioned_with`), and
    so are the files and `sources` entries of providers the build has no source for. Rows a
    `trainstack catalog refresh` fetched for a provider the build writes would be replaced by
    the reference extract's, so the build refuses unless `force`.

    Args:
        source: folder holding the extract CSVs and README.md.
        out_dir: folder to write `<provider>.csv` and `catalog.json` into.
        date: ISO build date, recorded in the metadata and the version (rows carry the date
            their price was observed, see the module doc).
        force: rebuild even over refreshed rows.

    Returns:
        The metadata written to `catalog.json`.

    Raises:
        FileNotFoundError: a source CSV is missing.
        BuildError: `out_dir` holds refreshed rows of a provider the build writes and `force`
            is false.
    """
    refreshed = {p: d for p, d in refreshed_providers(out_dir).items() if p in BUILT}
    if refreshed and not force:
        which = ", ".join(f"{p} (refreshed {d})" for p, d in refreshed.items())
        raise BuildError(
            f"{out_dir}: {which} came from live price APIs and a rebuild would replace them with "
            "the reference extract; rerun with --force (make catalog ARGS=--force) to do so"
        )
    texts, meta_sources = _built(source, date, out_dir)
    kept_texts, kept_sources, marker = _kept_providers(out_dir)
    every = {**kept_texts, **texts}
    digest = hashlib.sha256("".join(every[p] for p in sorted(every)).encode()).hexdigest()
    rates = _kept_rates(out_dir)
    meta = {
        "version": versioned_with(f"{date}-{digest[:10]}", rates.get("exchange_rates")),
        "built": date,
        "license": "Apache-2.0 (SkyPilot project); cloud providers' public list prices",
        "sources": {**kept_sources, **meta_sources},
        **marker,
        **rates,
    }
    for provider, text in texts.items():
        write_atomically(out_dir / f"{provider}.csv", text)
    write_atomically(out_dir / "catalog.json", json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return meta


def _built(source: Path, date: str, out_dir: Path) -> tuple[dict[str, str], dict[str, dict]]:
    """CSV text and `sources` entry of every provider the build writes (`BUILT`)."""
    texts: dict[str, str] = {}
    meta_sources: dict[str, dict] = {}
    for provider, (builder, files, folder) in SOURCE_BUILDERS.items():
        where = source / folder
        commits = source_commits((where / "README.md").read_text(encoding="utf-8"))
        first = commits.get(files[0], {}).get("commit", "unknown")
        extracted = _extracted(out_dir, provider, first, date)
        file_commits = {
            f: {
                "path": "unknown",
                "commit": "unknown",
                **commits.get(f, {}),
                "date": "unknown",
                "extracted": extracted,
                "snapshot": str(Path("reference-catalog", folder)),
            }
            for f in files
        }
        left_out: dict[str, int] = {}
        rows = builder(where, unknown_date(extracted), left_out)
        offerings = [o._replace(source=f"skypilot-catalog@{first[:10]}") for o in rows]
        texts[provider] = offerings_to_csv(offerings)
        meta_sources[provider] = {
            "repository": SOURCE_REPOSITORY,
            "files": file_commits,
            "offerings": len(offerings),
            **({"left_out": dict(sorted(left_out.items()))} if left_out else {}),
        }
    for provider, (other_builder, provider_meta) in OTHER_BUILDERS.items():
        offerings = other_builder(source, date)
        texts[provider] = offerings_to_csv(offerings)
        meta_sources[provider] = {**provider_meta, "offerings": len(offerings)}
    return texts, meta_sources


def main(argv: list[str] | None = None) -> None:
    """Command-line entry: rebuild the catalog files in place."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--out", type=Path, default=DATA_DIR)
    parser.add_argument("--date", default=dt.date.today().isoformat())
    parser.add_argument("--force", action="store_true", help="Rebuild even over rows from `catalog refresh`.")
    args = parser.parse_args(argv)
    try:
        meta = build(args.source, args.out, args.date, args.force)
    except BuildError as exc:
        raise SystemExit(f"error: {exc}") from None
    from profiles.catalog.loader import load_catalog
    from profiles.catalog.sanity import price_findings

    built = load_catalog(args.out, write_compact=True)  # the compact copies `resolve` loads fast (compact)
    counts = ", ".join(
        f"{p} {e.get('offerings', '?') if isinstance(e, dict) else '?'}" for p, e in sorted(meta["sources"].items())
    )
    print(f"catalog {meta['version']}: {counts} offerings -> {args.out}")
    checks = price_findings(built.offerings)  # sibling prices that disagree (`catalog info` lists them)
    print(f"{len(checks)} price checks flagged (`trainstack catalog info` lists them)")


if __name__ == "__main__":
    main()
