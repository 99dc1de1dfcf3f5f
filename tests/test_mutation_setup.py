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


def test_the_score_splits_cost_from_the_resolver_side_and_keeps_unchecked_mutants_apart():
    from tests.mutation_score import share, tally

    codes = {
        "profiles.cost.speed.x_peak_rate__mutmut_1": 1,  # killed
        "profiles.cost.speed.x_peak_rate__mutmut_2": -24,  # timed out: caught
        "profiles.cost.speed.x_peak_rate__mutmut_3": 0,
        "profiles.costing.x_candidates__mutmut_1": 1,  # `costing`, not `cost.`: the resolver side
        "profiles.choice.nodes.x__search__mutmut_1": 33,  # no test reaches it: alive
        "profiles.resolver.x_resolve__mutmut_1": None,  # not checked yet
    }
    sides = tally(codes)
    assert dict(sides["cost"]) == {"caught": 2, "survived": 1}
    assert dict(sides["resolver"]) == {"caught": 1, "no tests": 1, "unchecked": 1}
    assert share(sides["cost"]) == 2 / 3 and share(sides["resolver"]) == 1 / 2
