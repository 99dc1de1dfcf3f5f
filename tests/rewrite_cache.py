"""On a first run the xdist workers share pytest's assertion rewriting instead of each doing all of it.

pytest rewrites every test module's asserts when it first imports it and caches the result beside
it (`__pycache__/*.cpython-311-pytest-*.pyc`). With no cache yet (a fresh clone, the CI run), both
workers collect the same modules in the same order at the same time, so both rewrote all ~280 of
them: about 3 s of CPU each, before any test ran. `warm` has each worker write the missing cache
files from its own starting point (worker k of n from the k-th n-th of the list), skipping what
another worker has written meanwhile, so each rewrites about its share; collection then reads the
cache. With a cache in place it only checks that each file exists. It uses pytest's own rewriting
and cache writer (`_pytest.assertion.rewrite`, private), so the files are the ones pytest would
write; should pytest change those, `warm` does nothing and collection rewrites as before.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def rewritten_modules(root: Path = TESTS) -> list[Path]:
    """The files pytest rewrites here: test modules and conftest files, in path order."""
    return sorted([*root.rglob("test_*.py"), *root.rglob("conftest.py")])


def warm(config: pytest.Config, files: Sequence[Path], worker: int, workers: int) -> int:
    """Write the rewritten-module cache of each of `files` that has none, starting at this worker's
    share (`worker` of `workers`); the number written."""
    if sys.dont_write_bytecode or config.getoption("assertmode") != "rewrite":
        return 0
    try:
        from _pytest.assertion.rewrite import PYC_TAIL, _rewrite_test, _write_pyc, assertstate_key, get_cache_dir
    except ImportError:
        return 0
    state = config.stash[assertstate_key]
    start = worker * len(files) // max(workers, 1)
    written = 0
    for path in [*files[start:], *files[:start]]:
        cached = get_cache_dir(path) / f"{path.name[:-3]}{PYC_TAIL}"
        if cached.exists():  # cached earlier, or by another worker just now
            continue
        try:
            source_hash, code = _rewrite_test(path, config)
            cached.parent.mkdir(exist_ok=True)
        except (SyntaxError, OSError):  # collection reports it
            continue
        written += _write_pyc(state, code, source_hash, cached)
    return written


def warm_this_worker(config: pytest.Config) -> None:
    """`warm` with this process's place among the xdist workers; nothing outside xdist."""
    name, count = os.environ.get("PYTEST_XDIST_WORKER", ""), os.environ.get("PYTEST_XDIST_WORKER_COUNT", "")
    if name.startswith("gw") and name[2:].isdigit() and count.isdigit() and int(count) > 1:
        warm(config, rewritten_modules(), int(name[2:]), int(count))
