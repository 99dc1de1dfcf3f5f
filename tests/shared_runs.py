"""One plan per distinct stack, one build per distinct component config, in a test session
(a pytest plugin, registered in conftest.py).

A `trainstack.plan.runner` run under mocks is the slow part of most tests that plan (0.1-0.5 s of
CPU each), and many tests plan the same committed stacks. So runs of the same program text,
stack name, stack config, region and zone, under the same environment variables, are answered
from the session's first such run (deep copies: a test may change what it gets). Everything
else a run depends on is the session's own code, mocks and catalog, which only a test's
`monkeypatch.setattr` (or `setitem` on anything but `os.environ`, or `syspath_prepend`) changes.
So a run is fresh when its test
- has used its `monkeypatch` for anything but environment variables and the working directory
  (checked at each run: `setenv`, `delenv` and `chdir` keep sharing, the environment being part
  of the key, and a run does not read the working directory: its program and stack file are
  read through the paths it is given, and their text is in the key),
- is marked `@pytest.mark.fresh_runs` (it checks that two runs agree, or a run's side effects),
- is made inside `afresh()` (its test compares it with the session's earlier run of that stack),
- or plans a program beside a module or package (its own `components/`, say: another revision's
  code) that this process has not imported from elsewhere: the program's folder is first on the
  import path during a run, so such a name would be imported from there. When every one it holds
  is already imported from elsewhere (a copy of today's project in a test's git repository), the
  run executes this process's code and the program's text (in the key) only, and shares.
A module- or class-scoped fixture shares as the test it is set up for does (it cannot use
`monkeypatch`). The component tests' own build helpers share builds the same way through
`shared(...)`. Failed runs are never kept: each raises again. `TRAINSTACK_FRESH_RUNS=1` turns
sharing off for the whole session (to measure what it saves, or to rule it out).

`plan --against` plans the old revision in a child process (`gitref.run_ref_process`, about
1 s of CPU each). Its answer depends only on the extracted files, its arguments, the
environment and the installed code, none of which an in-process `monkeypatch` changes; so the
answer of a run whose files (by content), arguments and environment equal an earlier one's is
shared, unless the test is marked `fresh_runs` or sharing is off. Failed runs are not kept.
While sharing, the revision's files are written (`gitref._check_out`) only when its child must
run: until then they are keyed by their `git ls-tree` records (path, mode and object id, which
is the digest of the content). The sources read to find what its program imports
(`gitref._read_blobs`, `ref_program.imported_tops`) are kept by blob id for the session.
The others are forked from a pre-imported interpreter (`tests/ref_zygote.py`: the same module
run as `__main__` in a new process, without importing Pulumi and the cloud SDKs again), which
answers as the real child does (`tests/test_ref_zygote.py`); marked `fresh_runs` or with
sharing off, a test starts the real child.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tests.ref_zygote import Zygote

ROOT = Path(__file__).resolve().parents[1]
_RUNS: dict[tuple, Any] = {}
_SHARING = [False]
_PATCH: list[pytest.MonkeyPatch | None] = [None]  # the running test's `monkeypatch`, once set up
_PROCESS_SHARING = [False]  # for the child processes of `plan --against`: see the docstring
ZYGOTE = Zygote()  # forks those child processes from a pre-imported interpreter (tests/ref_zygote.py)
T = TypeVar("T")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "fresh_runs: plan and build afresh, never from the session's earlier runs")


def may_share(item: pytest.Item) -> bool:
    """True when `item` may get runs answered from earlier ones: sharing is not turned off and
    the test is not marked `fresh_runs` (what its `monkeypatch` did is checked at each run:
    `sharing_now`)."""
    return os.environ.get("TRAINSTACK_FRESH_RUNS") != "1" and item.get_closest_marker("fresh_runs") is None


def sharing_now() -> bool:
    """True when a run or build started now may be answered from (and kept for) the session's
    others: the running test may share (`may_share`) and its `monkeypatch`, if it has one, has
    changed nothing but environment variables and the working directory."""
    return _SHARING[0] and _only_environment(_PATCH[0])


@contextlib.contextmanager
def afresh() -> Iterator[None]:
    """Plan and build afresh inside the block, keeping nothing for later runs: for a test that
    compares a real run with the session's first one of the same stack (`run_plan` outside the
    block may answer from it: a run made earlier, in another state of the process; or, when
    none was, a real run of its own)."""
    was = _SHARING[0], _PROCESS_SHARING[0]
    _SHARING[0] = _PROCESS_SHARING[0] = False  # `plan --against` children too
    try:
        yield
    finally:
        _SHARING[0], _PROCESS_SHARING[0] = was


def _only_environment(patch: pytest.MonkeyPatch | None) -> bool:
    """True when `patch` is None or has only set or deleted environment variables or changed
    the working directory (read from pytest's `MonkeyPatch` records; a MonkeyPatch without
    them is taken to have changed anything)."""
    if patch is None:
        return True
    try:
        changed = patch._setattr, patch._setitem, patch._savesyspath
    except AttributeError:
        return False
    attributes, items, path = changed
    return not attributes and path is None and all(mapping is os.environ for mapping, _, _ in items)


def _environment() -> str:
    """The environment variables a run sees (pytest's per-test `PYTEST_CURRENT_TEST` aside), as a key."""
    return json.dumps(sorted((k, v) for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"))


def shared(kind: str, key: str, build: Callable[[], T]) -> T:
    """`build()`, or a copy of the session's first `build()` for (`kind`, `key`) under the same
    environment variables when runs may be shared now (`sharing_now`). `key` must name
    everything else the build reads (e.g. the config's JSON and the component name)."""
    if not sharing_now():
        return build()
    full_key = (kind, key, _environment())
    if full_key not in _RUNS:
        _RUNS[full_key] = build()
    return copy.deepcopy(_RUNS[full_key])


@pytest.fixture(scope="session", autouse=True)
def _one_plan_per_stack() -> Iterator[None]:
    from trainstack.plan import runner as plan  # here, not with the module: the xdist controller
    from trainstack.review import gitref, ref_program  # imports this plugin too, and runs no test

    real = plan._run

    def run(program: Path, stack: str, config: dict[str, Any], region: str, zone: str) -> tuple[list, dict]:
        if not _imports_nothing_of_its_own(program.parent):
            return real(program, stack, config, region, zone)
        key = json.dumps([program.read_text(), stack, config, region, zone], sort_keys=True, default=str)
        return shared("plan", key, lambda: real(program, stack, config, region, zone))

    real_process, real_check_out = gitref.run_ref_process, gitref._check_out
    write_later: dict[Path, tuple[Callable[[], None], str]] = {}  # a folder -> what writes it, and its digest

    def check_out(root: Path, entries: dict[str, bytes], into: Path, ref: str) -> None:
        if not _PROCESS_SHARING[0]:
            return real_check_out(root, entries, into, ref)
        write = functools.partial(real_check_out, root, entries, into, ref)
        write_later[into] = (write, _entries_digest(entries.values()))  # by its child, if it needs one

    def ref_process(stack: str, old_dir: Path, packages: list[str]) -> subprocess.CompletedProcess[str]:
        later = write_later.pop(old_dir, None)
        if not _PROCESS_SHARING[0]:
            if later is not None:
                later[0]()
            return real_process(stack, old_dir, packages)
        digest = later[1] if later is not None else _tree_digest(old_dir)
        key = json.dumps([stack, packages, digest, _environment()])
        if ("ref", key) not in _RUNS:
            if later is not None:
                later[0]()
            done = ZYGOTE.run(stack, old_dir, packages) or real_process(stack, old_dir, packages)
            if done.returncode != 0:
                return done
            _RUNS["ref", key] = done
        return copy.deepcopy(_RUNS["ref", key])

    # What a revision's program imports (`ref_program.program_roots`) is read from git's blobs:
    # their texts and the names each imports are kept by the blob's id (which names its content).
    real_entries, real_read, real_tops = gitref._tree_entries, gitref._read_blobs, ref_program.imported_tops
    blob_ids: dict[tuple[Path, str, str], bytes] = {}  # (repository, tree, path) -> the blob's id
    texts: dict[bytes, str] = {}  # a blob's id -> its text
    tops: dict[str, set[str]] = {}  # a source -> the names it imports

    def tree_entries(root: Path, tree: str) -> dict[str, bytes]:
        entries = real_entries(root, tree)
        for path, record in entries.items():
            blob_ids[root, tree, path] = record.split(b"\t", 1)[0].split()[-1]
        return entries

    def read_blobs(root: Path, tree: str, paths: list[str]) -> list[str]:
        if not _PROCESS_SHARING[0]:
            return real_read(root, tree, paths)
        ids = [blob_ids.get((root, tree, path)) for path in paths]
        missing = [path for path, blob in zip(paths, ids, strict=True) if blob is None or blob not in texts]
        read = dict(zip(missing, real_read(root, tree, missing), strict=True))
        answer = []
        for path, blob in zip(paths, ids, strict=True):
            if path in read:
                answer.append(read[path])
                if blob is not None:
                    texts[blob] = read[path]
            else:
                answer.append(texts[blob])  # type: ignore[index]  # not missing: its id is known
        return answer

    def imported_tops(source: str) -> set[str]:
        if not _PROCESS_SHARING[0]:
            return real_tops(source)
        if source not in tops:
            tops[source] = real_tops(source)
        return set(tops[source])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plan, "_run", run)
        patch.setattr(gitref, "run_ref_process", ref_process)
        patch.setattr(gitref, "_check_out", check_out)
        patch.setattr(gitref, "_tree_entries", tree_entries)
        patch.setattr(gitref, "_read_blobs", read_blobs)
        patch.setattr(ref_program, "imported_tops", imported_tops)
        try:
            yield
        finally:
            ZYGOTE.close()


def _imports_nothing_of_its_own(folder: Path) -> bool:
    """True when each module or package in `folder` (a `.py` file, or a folder holding Python
    files) is already imported, from a file outside `folder`: a program run with `folder` first
    on the import path then imports nothing from it (`__main__.py` aside, whose text is in the key)."""
    if folder.resolve() == ROOT:
        return True
    inside = folder.resolve()
    for entry in folder.iterdir():
        if entry.name == "__main__.py" or not (entry.suffix == ".py" or (entry.is_dir() and any(entry.glob("*.py")))):
            continue
        where = getattr(sys.modules.get(entry.stem if entry.suffix == ".py" else entry.name), "__file__", None)
        if where is None or Path(where).resolve().is_relative_to(inside):
            return False
    return True


def _entries_digest(entries: Iterable[bytes]) -> str:
    """A digest of a revision's files by their `git ls-tree` records (path, mode, type and object
    id: git's digest of the content), whatever their order."""
    digest = hashlib.blake2b(b"entries")
    for entry in sorted(entries):
        digest.update(entry + b"\0")
    return digest.hexdigest()


def _tree_digest(folder: Path) -> str:
    """A digest of every file under `folder`: relative path and content."""
    digest = hashlib.blake2b()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(f"{path.relative_to(folder).as_posix()}\0{path.stat().st_size}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """Sharing on or off from before the test's first fixture (a module-scoped one included)
    is set up until after its last is torn down."""
    _SHARING[0] = may_share(item)
    _PROCESS_SHARING[0] = _SHARING[0]
    _PATCH[0] = None
    try:
        yield
    finally:
        _SHARING[0] = _PROCESS_SHARING[0] = False
        _PATCH[0] = None


@pytest.fixture(autouse=True)
def _plan_sharing(request: pytest.FixtureRequest) -> Iterator[None]:
    """Keep the test's `monkeypatch` (set up here, before any other function-scoped fixture
    can use it) for `sharing_now` to read at each run."""
    if "monkeypatch" in request.fixturenames:
        _PATCH[0] = request.getfixturevalue("monkeypatch")
    yield
