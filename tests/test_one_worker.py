"""The modules `tests/conftest.py` keeps on one xdist worker exist under those names (a rename
would silently spread them again), and the scheduler's units are those groups and single tests."""

from pathlib import Path

from tests.conftest import _GROUP_OF, ONE_WORKER

ROOT = Path(__file__).resolve().parents[1]


def test_every_grouped_module_exists_and_is_in_one_group():
    paths = [path for group in ONE_WORKER.values() for path in group]
    assert [p for p in paths if not (ROOT / p).is_file()] == []
    assert len(paths) == len(set(paths)) == len(_GROUP_OF)
