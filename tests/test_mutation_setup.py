"""The mutation-testing setup (pyproject's [tool.mutmut]) copies what its selected tests read;
the clean run itself is `make mutate-check` in CI (tests/mutation_setup.py)."""

from pathlib import Path

from tests.mutation_setup import ROOT, config, copied_paths, make_copy


def test_every_copied_path_and_selected_test_exists():
    settings = config()
    assert all((ROOT / p).exists() for p in settings["also_copy"]), settings["also_copy"]
    assert all((ROOT / t).is_file() for t in settings["pytest_add_cli_args_test_selection"])
    # test_stack_price.py prices the committed stacks: without stacks/ the clean run fails.
    assert "stacks/" in copied_paths(settings)


def test_the_copy_holds_the_committed_stacks(tmp_path: Path):
    make_copy(tmp_path, {"source_paths": [], "also_copy": ["stacks/"]})
    copied = sorted(p.name for p in (tmp_path / "stacks").iterdir())
    assert copied == sorted(p.name for p in (ROOT / "stacks").iterdir() if p.name != "__pycache__")
    assert (tmp_path / "pyproject.toml").is_file()  # one of mutmut's own defaults
