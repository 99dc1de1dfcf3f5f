"""The session's sharing of plans and builds (tests/shared_runs.py) is on where it should be."""

import os
import shutil
import subprocess
import sys
import types

import pytest

from clouds import clock
from tests import shared_runs
from tests.shared_runs import _entries_digest, _imports_nothing_of_its_own, _tree_digest, afresh, shared, sharing_now

pytestmark = pytest.mark.skipif(os.environ.get("TRAINSTACK_FRESH_RUNS") == "1", reason="sharing turned off")


def test_a_test_without_monkeypatch_shares_runs(request):
    """No autouse fixture may pull in `monkeypatch` (it did, unnoticed, from Dec 2 to Dec 4
    2026: conftest's `no_terminal_width`, now part of `fresh_test_state`, when any use of it meant fresh runs)."""
    assert "monkeypatch" not in request.fixturenames
    assert sharing_now()


def test_environment_and_working_directory_keep_sharing_and_key_the_runs(monkeypatch, tmp_path):
    """`setenv`, `delenv` and `chdir` keep sharing; a run is answered only from one made under
    the same environment variables."""
    builds: list[str] = []

    def build() -> int:
        builds.append(os.environ.get("TRAINSTACK_SHARING_PROBE", ""))
        return len(builds)

    key = f"{__name__}:{tmp_path}"  # this test's own
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRAINSTACK_SHARING_PROBE", raising=False)
    assert sharing_now()
    assert [shared("probe", key, build), shared("probe", key, build)] == [1, 1]
    monkeypatch.setenv("TRAINSTACK_SHARING_PROBE", "1")
    assert sharing_now()
    assert [shared("probe", key, build), shared("probe", key, build)] == [2, 2]
    assert builds == ["", "1"]


def test_any_other_monkeypatch_plans_afresh_from_then_on(monkeypatch, tmp_path):
    key = f"{__name__}:{tmp_path}"
    assert shared("probe", key, lambda: "kept") == "kept"
    monkeypatch.setattr(clock, "NOW_VARIABLE", clock.NOW_VARIABLE)  # even a change that changes nothing
    assert not sharing_now()
    assert shared("probe", key, lambda: "fresh") == "fresh"


def test_a_dictionary_other_than_the_environment_plans_afresh(monkeypatch):
    monkeypatch.setitem(shared_runs.__dict__, "T", shared_runs.T)
    assert not sharing_now()


def test_a_run_made_afresh_is_neither_answered_nor_kept(tmp_path):
    """Inside `afresh()` a run is made again and not kept; outside, sharing goes on as before."""
    key = f"{__name__}:{tmp_path}"
    assert shared("probe", key, lambda: "kept") == "kept"
    processes = shared_runs._PROCESS_SHARING[0]
    with afresh():
        assert not sharing_now() and not shared_runs._PROCESS_SHARING[0]  # nor `plan --against` children
        assert shared("probe", key, lambda: "fresh") == "fresh"
        assert shared("probe", f"{key}:inside", lambda: "inside") == "inside"
    assert sharing_now() and shared_runs._PROCESS_SHARING[0] == processes
    assert shared("probe", key, lambda: "again") == "kept"
    assert shared("probe", f"{key}:inside", lambda: "after") == "after"  # nothing kept from inside


@pytest.mark.fresh_runs
def test_a_test_marked_fresh_runs_plans_afresh(request):
    assert not sharing_now()


@pytest.fixture(scope="module")
def sharing_in_a_module_fixture() -> bool:
    return sharing_now()


def test_a_module_fixture_shares_as_its_test_does(sharing_in_a_module_fixture):
    """(It was set up before any function fixture, and planned afresh, until Dec 7 2026:
    tests/components/test_parity.py's `plan` and tests/clouds/test_bootstrap_tools.py's `bootstraps`.)"""
    assert sharing_in_a_module_fixture


def test_the_old_revisions_files_are_keyed_by_content(tmp_path):
    """`plan --against` child runs are shared between identical extracted trees only."""
    first, second = tmp_path / "a", tmp_path / "b"
    for root in (first, second):
        (root / "pkg").mkdir(parents=True)
        (root / "pkg" / "mod.py").write_text("X = 1\n")
        (root / "__main__.py").write_text("import pkg.mod\n")
    assert _tree_digest(first) == _tree_digest(second)
    (second / "pkg" / "mod.py").write_text("X = 2\n")
    assert _tree_digest(first) != _tree_digest(second)
    (second / "pkg" / "mod.py").write_text("X = 1\n")
    (second / "pkg" / "mod.py").rename(second / "pkg" / "other.py")
    assert _tree_digest(first) != _tree_digest(second)


def test_a_program_beside_code_not_imported_from_elsewhere_plans_afresh(tmp_path, monkeypatch):
    """A program's folder is first on the import path during its run: it shares only when every
    module or package there is already imported from another file (a copy of today's project)."""
    (tmp_path / "__main__.py").write_text("import clouds\n")
    (tmp_path / "stacks").mkdir()
    (tmp_path / "stacks" / "Pulumi.x.yaml").write_text("config: {}\n")
    (tmp_path / "clouds").mkdir()
    (tmp_path / "clouds" / "__init__.py").write_text("")  # today's `clouds` is imported (above)
    assert _imports_nothing_of_its_own(tmp_path) and _imports_nothing_of_its_own(shared_runs.ROOT)
    (tmp_path / "helpers.py").write_text("X = 1\n")  # imported by no one yet: it would come from here
    assert not _imports_nothing_of_its_own(tmp_path)
    mine = types.ModuleType("helpers")
    mine.__file__ = str(tmp_path / "helpers.py")  # imported, but from this very folder
    monkeypatch.setitem(sys.modules, "helpers", mine)
    assert not _imports_nothing_of_its_own(tmp_path)
    (tmp_path / "helpers.py").unlink()
    (tmp_path / "nodeagent").mkdir()
    (tmp_path / "nodeagent" / "ship.py").write_text("")  # a folder of Python files: a package too
    monkeypatch.delitem(sys.modules, "nodeagent", raising=False)
    assert not _imports_nothing_of_its_own(tmp_path)


def test_an_old_revision_not_yet_written_is_keyed_by_its_files_git_records():
    """`plan --against` revisions are written only for a child that must run; the answer is
    shared between revisions of the same files (path, mode, object id: `git ls-tree` records,
    in any order), never another's."""
    main = b"100644 blob 3f2b2a0a6f1d1a0f2c9e4a52e1c4b0a3f0c2d5e1\t__main__.py"
    module = b"100644 blob 4b1a2d0c9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b\tpkg/mod.py"
    first = _entries_digest([main, module])
    assert _entries_digest([module, main]) == first
    assert _entries_digest([main, module.replace(b"4b1a", b"4b1b")]) != first  # other content
    assert _entries_digest([main, module.replace(b"100644", b"120000")]) != first  # a link: refused if it leaves
    assert _entries_digest([main, module.replace(b"100644", b"100755")]) != first
    assert _entries_digest([main]) != first


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_revision_s_sources_are_read_by_blob_id_once_per_session(monkeypatch):
    """`plan --against` reads what the revision's program imports from git's blobs; a blob read
    once (by its id, which names its content) is answered again without git, under any tree."""
    from trainstack.review import gitref

    root, paths = shared_runs.ROOT, ["__main__.py", "clouds/__init__.py"]
    gitref._tree_entries(root, "HEAD:")
    shown = [
        subprocess.run(["git", "show", f"HEAD:{p}"], cwd=root, capture_output=True, text=True).stdout for p in paths
    ]
    assert gitref._read_blobs(root, "HEAD:", paths) == shown
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True).stdout.strip()
    gitref._tree_entries(root, f"{commit}:")  # the same blobs under another name of the tree
    monkeypatch.setattr(subprocess, "run", None)  # no git from here on
    assert gitref._read_blobs(root, f"{commit}:", paths) == shown
