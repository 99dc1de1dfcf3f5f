"""Check that `make mutate` can start: run mutmut's selected tests from a mutants-like copy.

mutmut (3.x) copies `source_paths`, `also_copy` and its own defaults (tests/, pyproject.toml)
into `mutants/` and runs `pytest_add_cli_args_test_selection` there, unmutated, before any
mutant ("Running clean tests"); when a test reads a file the copy lacks (`stacks/`, once), that
clean run fails and `make mutate` reports 0 mutants caught. This script makes the same copy in a
temporary folder and runs the same tests in it with the same arguments, so CI (`.ci/run`, `make
mutate-check`) fails as soon as the mutation setup would, in the time of the selected tests
alone (about 30 s on 2 idle cores), instead of after `make mutate`'s 15 minutes.

Run: `python tests/mutation_setup.py` from the repository root; exit status is pytest's.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pytest's own dependency
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
# What mutmut 3.8 copies besides `source_paths` and `also_copy` (mutmut/configuration.py).
MUTMUT_DEFAULTS = ("tests/", "test/", "setup.cfg", "pyproject.toml")


def config(root: Path = ROOT) -> dict:
    """The `[tool.mutmut]` table of `root`'s pyproject.toml."""
    return tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]


def copied_paths(settings: dict) -> list[str]:
    """Every path mutmut copies into mutants/, in its order."""
    return [*settings["source_paths"], *settings.get("also_copy", []), *MUTMUT_DEFAULTS]


def make_copy(target: Path, settings: dict, root: Path = ROOT) -> None:
    """Copy what mutmut copies from `root` into `target` (missing paths skipped, as mutmut does)."""
    for name in copied_paths(settings):
        source = root / name
        if source.is_dir():
            shutil.copytree(source, target / name, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
        elif source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def main() -> int:
    settings = config()
    with tempfile.TemporaryDirectory(prefix="mutants-") as folder:
        target = Path(folder)
        make_copy(target, settings)
        command = [
            sys.executable,
            "-m",
            "pytest",
            *settings.get("pytest_add_cli_args", []),
            *settings["pytest_add_cli_args_test_selection"],
        ]
        env = {**os.environ, "PYTHONPATH": str(target)}
        return subprocess.run(command, cwd=target, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
