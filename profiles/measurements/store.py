"""The measurement store: published seeds in this package plus the runs a user imported.

Locations:
  - `profiles/measurements/published/*.json`: sourced public figures (`provenance: published`).
  - `<project>/measurements/*.json`: `trainstack bench import RESULTS...` copies each validated
    results file there (the project is the folder holding Pulumi.yaml, as for `stacks/`), so
    a team commits its measurements beside its stacks. `TRAINSTACK_MEASUREMENTS` names
    another folder.
A file is never overwritten: an identical one is reported as already imported.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from pydantic import ValidationError

from clouds.input_file import InputFileError, load_json, shown_name
from clouds.registry import NAMES
from profiles.measurements import StoreError
from profiles.measurements.schema import RunResult

PUBLISHED = Path(__file__).resolve().parent / "published"
FOLDER = "measurements"


def store_dir(project: Path) -> Path:
    """Where imported runs live for `project` (`TRAINSTACK_MEASUREMENTS` overrides)."""
    override = os.environ.get("TRAINSTACK_MEASUREMENTS")
    return Path(override) if override else project / FOLDER


def read_result(path: Path) -> RunResult:
    """One results file, validated.

    Raises:
        StoreError: unreadable, not JSON, another schema version, or invalid (names the field).
    """
    try:
        data = load_json(path, "results file from `trainstack bench parse -o run.json`")
    except InputFileError as exc:
        raise StoreError(str(exc)) from None
    name = shown_name(path)
    if not isinstance(data, dict):
        raise StoreError(
            f'{name}: a results file is one JSON object ({{"provider": ..., "busbw": [...]}}), not {_json_kind(data)}; '
            "give a file from `trainstack bench parse -o run.json`"
        )
    if data.get("schema_version", 1) != 1:
        raise StoreError(
            f"{name}: schema_version {data.get('schema_version')!r} is not one this trainstack reads (1); "
            "upgrade trainstack"
        )
    try:
        return RunResult.model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"]) or "file"
        raise StoreError(f"{name}: {where}: {_field_error(error)}") from None


def _json_kind(data: object) -> str:
    """What a JSON value is, in words: `a list`, `a string`, `a number`, `null`."""
    if data is None:
        return "null"
    if isinstance(data, bool):
        return "true/false"
    return "a list" if isinstance(data, list) else "a string" if isinstance(data, str) else "a number"


def _field_error(error) -> str:
    """A schema error in words: a measurement out of its range says what the figure must be
    and what to do; other errors keep pydantic's message."""
    bounds = {"greater_than": "more than", "greater_than_equal": "at least", "less_than_equal": "at most"}
    word = bounds.get(error["type"])
    if word is None:
        return error["msg"]
    limit = next(iter((error.get("ctx") or {}).values()), "")
    limit = f"{limit:g}" if isinstance(limit, int | float) else limit
    return (
        f"{error.get('input')!r} cannot be a measurement: it must be {word} {limit}; "
        "re-parse the run with `trainstack bench parse`"
    )


def load_store(project: Path | None) -> tuple[RunResult, ...]:
    """Every published seed, then every imported run of `project` (None: published only).

    Raises:
        StoreError: a stored file is invalid, or states a speed above its accelerator's peak
            (`profiles.measurements.plausible`; a file copied in by hand) (names it).
    """
    from profiles.measurements.plausible import peak_problem

    paths = sorted(PUBLISHED.glob("*.json"))
    if project is not None and store_dir(project).is_dir():
        paths += sorted(store_dir(project).glob("*.json"))
    results = tuple(read_result(p) for p in paths)
    for path, result in zip(paths, results, strict=True):
        problem = peak_problem(result)
        if problem:
            raise StoreError(f"{path}: {problem}, or remove the file")
    return results


def check_import(path: Path) -> RunResult:
    """`path` read and checked as `import_result` stores it, without storing anything.

    Raises:
        StoreError: the file is invalid, an example, published, does not say where it ran,
            names an offering the catalog does not know, states an impossible speed, or
            dates that cannot be (finished before started, or in the future;
            `profiles.measurements.plausible`); one line naming the field.
    """
    from clouds.clock import ClockError, now
    from profiles.catalog.loader import CatalogError, load_catalog
    from profiles.measurements.plausible import dates_problem, import_problem

    result, name = read_result(path), shown_name(path)
    if result.example:
        raise StoreError(f"{name}: an illustrative example (example: true), not a measurement; import your own runs")
    if result.provenance != "measured":
        raise StoreError(
            f"{name}: provenance is {result.provenance}; only your own runs are imported "
            "(published figures ship in profiles/measurements/published)"
        )
    try:
        dates = dates_problem(result, now())
    except ClockError as exc:
        raise StoreError(str(exc)) from None
    if dates:
        raise StoreError(f"{name}: {dates}; nothing imported")
    if not (result.provider and result.instance_type):
        raise StoreError(
            f"{name}: provider and instance_type are unknown; parse the run with "
            f"`trainstack bench parse ... -s {result.stack or 'STACK'}` so the store knows which offering it measured"
        )
    try:
        offerings = load_catalog(providers=(result.provider,)).offerings if result.provider in NAMES else ()
    except CatalogError as exc:
        raise StoreError(f"{name}: cannot check it against the catalog ({exc})") from None
    problem = import_problem(result, offerings)
    if problem:
        raise StoreError(f"{name}: {problem}; nothing imported")
    return result


def import_result(path: Path, project: Path) -> tuple[Path, bool]:
    """Validate `path` and copy it into the store (`check_import`, then `store_result`).

    Returns:
        (stored file, whether it was new; False when the same run is already there).

    Raises:
        StoreError: the file fails `check_import` (nothing is stored then).
    """
    return store_result(check_import(path), project)


def store_result(result: RunResult, project: Path) -> tuple[Path, bool]:
    """Keep a run `check_import` accepted in `project`'s store (standard input is read once:
    check first, then store what was read).

    Returns:
        (stored file, whether it was new; False when the same run is already there).

    Raises:
        StoreError: provider or instance_type would name a file outside the store.
    """
    text = result.model_dump_json(indent=2, exclude_none=True) + "\n"
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    when = result.started.strftime("%Y%m%dT%H%M%S") if result.started else "undated"
    folder = store_dir(project)
    target = folder / f"{result.provider}-{result.instance_type}-x{result.nodes}-{when}-{digest}.json"
    if target.parent != folder:  # the schema's path-name rule keeps it there; never write elsewhere
        raise StoreError(
            f"{result.provider}-{result.instance_type}: provider or instance_type would leave the store; nothing imported"
        )
    if target.exists():
        return target, False
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_suffix(".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(target)
    return target, True
