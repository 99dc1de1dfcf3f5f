"""The project's layout (#28): no import cycles, files under 300 lines, a small `profiles/` top level.

The import graph is read statically (`ast`) from every Python file outside `tests/`, so the
check needs nothing installed and sees imports that run only on some paths. Its edges:

- every `import` and `from ... import` counts, at module level, inside a function or under
  `if TYPE_CHECKING:`: a module that needs another only to call it later, or only for its
  types, still depends on it, and two modules that need each other are one concern split in
  two (or a shared piece that belongs below both);
- `from pkg import name` is an edge to `pkg.name` when that is a module of the project, else
  to `pkg` (its `__init__`); `import a.b.c` is an edge to `a.b.c`; relative imports resolve
  against the importing module's package;
- the parent packages Python initialises on the way (`profiles.spec` before
  `profiles.spec.rules`) are not edges: a package's `__init__` may re-export its modules'
  entry points, so long as none of those modules imports the package's `__init__` back.
"""

from __future__ import annotations

import ast
import functools
import os
from pathlib import Path

from tests.source_scan import scan_file

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 300  # the hard limit for non-test files (the guide aims at about 250)
MAX_PROFILES_MODULES = 12  # top-level modules of profiles/ beside its packages (`__init__.py` not counted)
# tests/, and the folders .gitignore names that hold generated copies of the code (`make mutate`'s mutants/)
SKIPPED = {"tests", "node_modules", "build", "dist", "mutants", "bench-kit"}


def project_files(root: Path = ROOT) -> list[Path]:
    """Every `.py` file of the project outside `tests/` (and hidden folders such as `.venv`).
    Skipped folders are not walked (`.venv` alone holds tens of thousands of files)."""
    found = []
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [name for name in subfolders if name not in SKIPPED and not name.startswith(".")]
        found.extend(Path(folder, name) for name in names if name.endswith(".py"))
    return sorted(found)


@functools.cache
def modules(root: Path = ROOT) -> dict[str, Path]:
    """Dotted module name -> its file (`pkg/__init__.py` is `pkg`)."""
    found = {}
    for path in project_files(root):
        parts = path.relative_to(root).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported(name: str, root: Path = ROOT) -> set[str]:
    """The project modules module `name` imports (the edges described in the docstring)."""
    known = modules(root)
    path = known[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in scan_file(path).imports:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) - node.level + 1], *([base] if base else [])])
            for alias in node.names:
                if f"{base}.{alias.name}" in known:
                    found.add(f"{base}.{alias.name}")
                elif base in known:
                    found.add(base)
    found.discard(name)
    return found


def import_cycles(root: Path = ROOT) -> list[list[str]]:
    """Each group of two or more modules that reach each other through imports (Tarjan's
    strongly connected components, iterative), sorted."""
    graph = {name: sorted(imported(name, root)) for name in modules(root)}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def enter(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)

    for start in graph:
        if start in index:
            continue
        enter(start)
        work = [(start, iter(graph[start]))]
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    enter(target)
                    work.append((target, iter(graph[target])))
                    break
                if target in stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = stack[stack.index(node) :]
                    del stack[stack.index(node) :]
                    if len(group) > 1:
                        cycles.append(sorted(group))
    return sorted(cycles)


def test_no_module_imports_one_that_imports_it_back():
    assert import_cycles() == []


def test_the_check_finds_a_cycle_of_any_length(tmp_path):
    """A three-module cycle through a function-level, a relative and a `TYPE_CHECKING` import
    is found; a package `__init__` re-exporting its modules is not a cycle."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text('"""Re-exports."""\nfrom pkg.a import A\nfrom pkg.d import D\n')
    (package / "a.py").write_text("from pkg import b\nA = 1\n")
    (package / "b.py").write_text("def f():\n    from .c import C\n    return C\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.a\nC = 2\n")
    (package / "d.py").write_text("from pkg.a import A as D\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "e.py").write_text("import pkg.d\n")
    (tmp_path / "f.py").write_text("import pkg.d\n")
    (tmp_path / "pkg" / "g.py").write_text("import f\nfrom pkg import A\n")
    assert imported("pkg.b", tmp_path) == {"pkg.c"}
    assert imported("pkg.g", tmp_path) == {"f", "pkg"}
    assert "tests.e" not in modules(tmp_path)
    assert import_cycles(tmp_path) == [["pkg.a", "pkg.b", "pkg.c"]]
    (package / "c.py").write_text("C = 2\n")
    modules.cache_clear()
    assert import_cycles(tmp_path) == []
    (package / "d.py").write_text("from pkg import A as D\n")  # the package's __init__ back
    modules.cache_clear()
    assert import_cycles(tmp_path) == [["pkg", "pkg.d"]]


def test_no_file_outside_tests_is_over_300_lines():
    long = {
        str(path.relative_to(ROOT)): lines
        for path in project_files()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def test_profiles_keeps_a_dozen_top_level_modules_beside_its_packages():
    top = sorted(p.name for p in (ROOT / "profiles").glob("*.py") if p.name != "__init__.py")
    assert len(top) <= MAX_PROFILES_MODULES, top
    packages = {p.name for p in (ROOT / "profiles").iterdir() if (p / "__init__.py").is_file()}
    assert {"spec", "stack", "preflight", "data_path", "cost", "measurements"} <= packages


def test_no_test_patches_the_clock_function():
    """Tests set the suite's clock with `TRAINSTACK_NOW` (`clouds.clock`), never by patching
    `clouds.clock.now`: a module first imported during such a test (`from clouds.clock import
    now`) keeps the patched function for the rest of the session, and a later test's run id
    came out with the wrong time."""
    patched = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "tests").rglob("*.py")
        if '"clouds.clock.now"' in path.read_text() and path.name != "test_layout.py"
    ]
    assert patched == []
