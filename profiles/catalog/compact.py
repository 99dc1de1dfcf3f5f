"""A compact copy of each catalog file's offerings that loads in a few milliseconds.

Parsing `<provider>.csv` row by row (floats, ints, defaults, the CNY conversion) is most of
`load_catalog`'s time: about 20 ms for the whole catalog, on every `trainstack resolve`. So, as
Python keeps compiled modules in `__pycache__`, the offerings parsed from a file are kept as
plain tuples (`marshal`, the format of `.pyc` files) in
`data/__pycache__/<provider>.<cache_tag>.offerings`, keyed by the CSV's size and CRC-32 and the
exchange rates the rows were converted at. A load whose key matches reads that copy; any other
load parses the CSV (so a refresh, a hand edit or a checkout is always seen) and writes the copy
again. The copy is written by `make catalog` and on first use, except when Python writes no
bytecode (`PYTHONDONTWRITEBYTECODE`, `python -B`) or the folder is read-only; loading never
fails because of it. Within one process the last answer per file is also kept in memory, and
each content parsed (its key and kind) is parsed once, in whichever folder the file is found.

Another `kind` of answer (every row in any currency, `profiles.catalog.loader.every_row`, which
the stack check reads on every plan and `resolve` for the rows a missing rate left out) is kept
the same way in `<provider>.<cache_tag>.<kind>`.
"""

from __future__ import annotations

import marshal
import os
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

from profiles.catalog.offering import Offering

# Bump when the tuples' layout (the Offering fields) or the key changes.
FORMAT = 1
_FIELDS = len(Offering._fields)
# (path, kind) -> (key, offerings, left-out counts) of the last load in this process.
_MEMO: dict[tuple[str, str], tuple[tuple, tuple[Offering, ...], dict[str, int]]] = {}
# (kind, key) -> [offerings, left-out counts, the copy's bytes once made]: a file with that key
# (size, CRC-32, rates) parses to the same answer wherever it lies (a copy of the catalog folder).
_PARSED: dict[tuple[str, tuple], list] = {}
_PARSED_KEPT = 64  # contents kept at most (a process sees a handful: the files at a few rates)
OFFERINGS = "offerings"  # the kind `load_catalog` reads: rows priced in USD, converted at the rates

# parse(text, path, rates, left_out) -> offerings: the CSV parser (`loader.parse_provider`).
Parser = Callable[[str, Path, "dict | None", "dict[str, int]"], list[Offering]]


def forget() -> None:
    """Drop the in-memory answers, so the next load reads the copies (or CSVs) again."""
    _MEMO.clear()
    _PARSED.clear()


def cache_path(csv_path: Path, kind: str = OFFERINGS) -> Path | None:
    """Where the compact copy of `csv_path` lives, or None when this Python has no cache tag."""
    tag = sys.implementation.cache_tag
    return csv_path.parent / "__pycache__" / f"{csv_path.stem}.{tag}.{kind}" if tag else None


def _key(data: bytes, rates: dict | None) -> tuple:
    used = tuple(sorted((currency, entry.get("per_usd")) for currency, entry in (rates or {}).items()))
    return (FORMAT, _FIELDS, len(data), zlib.crc32(data), used)


def _read(path: Path | None, key: tuple) -> tuple[tuple[Offering, ...], dict[str, int]] | None:
    """The offerings and left-out counts stored at `path` under `key`, or None (missing, stale, unreadable)."""
    if path is None:
        return None
    try:
        stored_key, rows, left_out = marshal.loads(path.read_bytes())
        return (tuple(map(Offering._make, rows)), left_out) if stored_key == key else None
    except (OSError, EOFError, ValueError, TypeError):  # missing, truncated, or not this layout
        return None


def _shared(offerings: tuple[Offering, ...]) -> list[tuple]:
    """The rows as plain tuples whose equal values are one object, so `marshal` stores each
    distinct value once (half the size, and twice as fast to load)."""
    values: dict[tuple[type, object], object] = {}
    return [tuple(values.setdefault((type(v), v), v) for v in offering) for offering in offerings]


def _write(path: Path | None, key: tuple, parsed: list, force: bool) -> None:
    """Store the copy of `parsed` (a `_PARSED` entry, whose bytes are made once) atomically (a
    temporary file renamed over it); any OS error leaves no copy."""
    if path is None or (sys.dont_write_bytecode and not force):
        return
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        if parsed[2] is None:
            parsed[2] = marshal.dumps((key, _shared(parsed[0]), parsed[1]))
        path.parent.mkdir(exist_ok=True)
        temporary.write_bytes(parsed[2])
        os.replace(temporary, path)
    except OSError:
        try:
            temporary.unlink(missing_ok=True)
        except OSError:  # the folder itself could not be made
            pass


def load(
    csv_path: Path,
    rates: dict | None,
    left_out: dict[str, int],
    parse: Parser,
    force_write: bool = False,
    kind: str = OFFERINGS,
) -> tuple[Offering, ...]:
    """The offerings of `csv_path` converted at `rates`, from the compact copy when it matches.

    Args:
        csv_path: a catalog file (`data/aws.csv`).
        rates: the exchange rates in use (`{"CNY": {"per_usd": ...}}`), as for `load_provider`.
        left_out: counts of rows left out per currency; this file's counts are added to it.
        parse: the CSV parser, called on a miss with the file's text.
        force_write: write the copy even when Python writes no bytecode (`make catalog`).
        kind: which answer `parse` gives (the copy's name); another parser, another kind.

    Returns:
        The file's offerings, in file order, the same as `parse` returns.

    Raises:
        OSError: `csv_path` cannot be read. CatalogError (from `parse`): the file is malformed.
    """
    data = csv_path.read_bytes()
    key = _key(data, rates)
    memo = _MEMO.get((str(csv_path), kind))
    if memo is not None and memo[0] == key and not force_write:
        offerings, counted = memo[1], memo[2]
    else:
        stored = cache_path(csv_path, kind)
        found = None if force_write else _read(stored, key)
        if found is None:
            parsed = None if force_write else _PARSED.get((kind, key))
            if parsed is None:
                counted = {}
                parsed = [tuple(parse(data.decode("utf-8"), csv_path, rates, counted)), counted, None]
                if len(_PARSED) >= _PARSED_KEPT:
                    del _PARSED[next(iter(_PARSED))]  # the oldest
                _PARSED[kind, key] = parsed
            offerings, counted = parsed[0], parsed[1]
            _write(stored, key, parsed, force_write)
        else:
            offerings, counted = found
        _MEMO[str(csv_path), kind] = (key, offerings, counted)
    for currency, count in counted.items():
        left_out[currency] = left_out.get(currency, 0) + count
    return offerings
