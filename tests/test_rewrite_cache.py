"""`tests.rewrite_cache`: the workers' shared warm-up writes the cache pytest itself reads."""

from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, get_cache_dir

from tests.rewrite_cache import rewritten_modules, warm


def cached(path):
    return get_cache_dir(path) / f"{path.name[:-3]}{PYC_TAIL}"


def test_a_worker_writes_what_is_missing_in_the_form_pytest_reads(tmp_path, pytestconfig):
    files = []
    for name in ("test_a.py", "test_b.py", "test_c.py"):
        (tmp_path / name).write_text(f"def test_{name[5]}():\n    assert [1] == [{name[5]!r}]\n")
        files.append(tmp_path / name)

    assert warm(pytestconfig, files, worker=1, workers=2) == 3
    assert warm(pytestconfig, files, worker=0, workers=2) == 0  # another worker's files are kept

    namespace: dict = {}
    exec(_read_pyc(files[0], cached(files[0])), namespace)  # None (not pytest's cache) would fail here
    try:
        namespace["test_a"]()
    except AssertionError as failure:
        assert "At index 0 diff: 1 != 'a'" in str(failure)  # the assert was rewritten
    else:
        raise AssertionError("the rewritten test passed")


def test_the_modules_are_the_test_files_and_conftests():
    names = {path.name for path in rewritten_modules()}
    assert {"conftest.py", "test_rewrite_cache.py", "test_layers.py"} <= names
    assert all(name == "conftest.py" or name.startswith("test_") for name in names)
