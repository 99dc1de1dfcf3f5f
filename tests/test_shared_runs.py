"""The session's sharing of plans and builds (tests/shared_runs.py) is on where it should be."""

import os

import pytest

from tests.shared_runs import _tree_digest, may_share

pytestmark = pytest.mark.skipif(os.environ.get("TRAINSTACK_FRESH_RUNS") == "1", reason="sharing turned off")


def test_a_test_without_monkeypatch_shares_runs(request):
    """No autouse fixture may pull in `monkeypatch`: every test would then plan afresh
    (it did, unnoticed, from Dec 2 to Dec 4 2026: conftest's `no_terminal_width`)."""
    assert "monkeypatch" not in request.fixturenames
    assert may_share(request)


def test_a_test_with_monkeypatch_plans_afresh(request, monkeypatch):
    assert not may_share(request)


@pytest.mark.fresh_runs
def test_a_test_marked_fresh_runs_plans_afresh(request):
    assert not may_share(request)


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
