"""Build the project's price catalog from the SkyPilot reference extract.

Rerunnable: `python -m profiles.catalog.build [--source DIR] [--date YYYY-MM-DD]` reads
`shared/reference-catalog/` (a filtered, verbatim extract of skypilot-org/skypilot-catalog,
Apache-2.0; see NOTICE) and writes `profiles/catalog/data/<provider>.csv` plus
`catalog.json` (version, build date, and each source file's repository path and commit).

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
from dataclasses import replace
from pathlib import Path

from profiles.catalog.offering import COLUMNS, LEGACY_COLUMNS, Offering
from profiles.catalog.sources import SOURCE_BUILDERS
from profiles.files import write_atomically

DATA_DIR = Path(__file__).parent / "data"
DEFAULT_SOURCE = Path(__file__).resolve().parents[2].parent / "shared" / "reference-catalog"
SOURCE_REPOSITORY = "github.com/skypilot-org/skypilot-catalog"
_COMMIT_ROW = re.compile(r"^\|([^|]*)\|\s*`([^`]+)`\s*\|\s*`([0-9a-f]{40})`", re.M)


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

    The header is `COLUMNS` when any offering has a reserved price, else `LEGACY_COLUMNS`,
    so catalogs without reserved prices (the SkyPilot build) keep their exact bytes.
    """
    columns = COLUMNS if any(offering_has_reserved(o) for o in offerings) else LEGACY_COLUMNS
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for offering in offerings:
        writer.writerow(["" if (v := getattr(offering, c)) is None else v for c in columns])
    return buffer.getvalue()


def offering_has_reserved(offering: Offering) -> bool:
    """True when the offering carries a 1-year or 3-year reserved price."""
    return offering.reserved_1y_usd_per_hour is not None or offering.reserved_3y_usd_per_hour is not None


def build(source: Path, out_dir: Path, date: str) -> dict:
    """Build every provider's catalog file from `source` into `out_dir`.

    Args:
        source: folder holding the extract CSVs and README.md.
        out_dir: folder to write `<provider>.csv` and `catalog.json` into.
        date: ISO build date recorded per row and in the metadata.

    Returns:
        The metadata written to `catalog.json`.

    Raises:
        FileNotFoundError: a source CSV is missing.
    """
    commits = source_commits((source / "README.md").read_text(encoding="utf-8"))
    texts: dict[str, str] = {}
    meta_sources: dict[str, dict] = {}
    for provider, (builder, files) in SOURCE_BUILDERS.items():
        file_commits = {f: commits.get(f, {"path": "unknown", "commit": "unknown"}) for f in files}
        row_source = f"skypilot-catalog@{file_commits[files[0]]['commit'][:10]}"
        offerings = [replace(o, source=row_source) for o in builder(source, date)]
        texts[provider] = offerings_to_csv(offerings)
        meta_sources[provider] = {"repository": SOURCE_REPOSITORY, "files": file_commits, "offerings": len(offerings)}
    digest = hashlib.sha256("".join(texts[p] for p in sorted(texts)).encode()).hexdigest()
    meta = {
        "version": f"{date}-{digest[:10]}",
        "built": date,
        "license": "Apache-2.0 (SkyPilot project); cloud providers' public list prices",
        "sources": meta_sources,
    }
    for provider, text in texts.items():
        write_atomically(out_dir / f"{provider}.csv", text)
    write_atomically(out_dir / "catalog.json", json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return meta


def main(argv: list[str] | None = None) -> None:
    """Command-line entry: rebuild the catalog files in place."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--out", type=Path, default=DATA_DIR)
    parser.add_argument("--date", default=dt.date.today().isoformat())
    args = parser.parse_args(argv)
    meta = build(args.source, args.out, args.date)
    counts = ", ".join(f"{p} {s['offerings']}" for p, s in sorted(meta["sources"].items()))
    print(f"catalog {meta['version']}: {counts} offerings -> {args.out}")


if __name__ == "__main__":
    main()
