"""The case tables in tests/cases/: every file is read by a test, and its ids are unique."""

from pathlib import Path

import pytest
import yaml

from tests.cases import CASES, cases

TESTS = Path(__file__).parent
FILES = sorted(path.name for path in CASES.glob("*.yaml"))
SOURCES = "\n".join(path.read_text() for path in TESTS.rglob("test_*.py"))


@pytest.mark.parametrize("name", FILES)
def test_each_case_file_is_read_by_a_test_and_its_ids_are_unique(name):
    assert f'cases("{name}"' in SOURCES
    ids = [case["id"] for case in yaml.safe_load((CASES / name).read_text())]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


def test_a_case_with_a_missing_or_unknown_key_is_refused(tmp_path, monkeypatch):
    import tests.cases as module

    (tmp_path / "t.yaml").write_text("- {id: a, given: 1}\n")
    monkeypatch.setattr(module, "CASES", tmp_path)
    module._read.cache_clear()
    with pytest.raises(ValueError, match=r"t\.yaml: case 'a' has keys \['given', 'id'\]; expected id, wanted"):
        cases("t.yaml", "wanted")
    module._read.cache_clear()
