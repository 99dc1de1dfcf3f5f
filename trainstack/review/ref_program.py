"""The Pulumi program of another git revision: which of its packages it needs, and how it runs
beside today's plan runner (for `trainstack plan --against REF`, `trainstack.review.gitref`).

What to extract is derived from the revision itself, never listed by hand: starting from its
`__main__.py`, every top-level package or module of the revision's tree that the program
imports, and, in turn, every one those import (`import x`, `from x.y import z`, at any depth
in a file, and `importlib.import_module("x...")`). A revision from before `clouds/` existed
extracts `components/` and `profiles/`; today's extracts `clouds/`, `facts/`, `nodeagent/`
too, and whatever a later program comes to import.

`trainstack/` itself is never extracted: the plan runner and the mocks are today's, so both
sides are measured with the same instrument. `old_program_first` makes that work inside one
process: today's instrument is imported first, the program's packages are then dropped from
`sys.modules` so the program imports the revision's own, and a module the revision does not
have yet (one today's runner reads stacks with, say) comes from today's tree.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

# The instrument: today's, never the revision's.
INSTRUMENT = "trainstack"
_IMPORT = re.compile(
    r"^\s*(?:from\s+([A-Za-z_]\w*)[\w.]*\s+import\b|import\s+([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*))",
    re.MULTILINE,
)
_IMPORT_MODULE = re.compile(r"import_module\(\s*f?[\"']([A-Za-z_]\w*)")


def imported_tops(source: str) -> set[str]:
    """Top-level names `source` imports absolutely (relative imports stay inside their package)."""
    found: set[str] = set()
    for from_name, names in _IMPORT.findall(source):
        if from_name:
            found.add(from_name)
        else:
            found.update(name.strip().split(".")[0] for name in names.split(","))
    return found | set(_IMPORT_MODULE.findall(source))


def roots_of(paths: Iterable[str]) -> dict[str, list[str]]:
    """Top-level package or module name -> its `.py` files, for a tree's file paths."""
    roots: dict[str, list[str]] = {}
    for path in paths:
        if not path.endswith(".py"):
            continue
        top, _, rest = path.partition("/")
        name = top if rest else top[: -len(".py")]
        if name.isidentifier():
            roots.setdefault(name, []).append(path)
    return roots


def program_roots(paths: Sequence[str], read: Callable[[list[str]], list[str]]) -> list[str]:
    """The tree's top-level packages and modules the program (`__main__.py`) imports, transitively.

    Args:
        paths: every file path of the tree (relative to the project folder).
        read: the sources of the given paths, in order (e.g. read with `git cat-file --batch`).

    Returns:
        The extract list, sorted: package folders (`clouds`) and module files (`x.py`), never
        `trainstack` (the instrument). [] when the tree has no `__main__.py`.
    """
    if "__main__.py" not in paths:
        return []
    roots = roots_of(paths)
    roots.pop(INSTRUMENT, None)
    roots.pop("__main__", None)
    needed: set[str] = set()
    pending = imported_tops(read(["__main__.py"])[0]) & roots.keys()
    while pending:
        needed |= pending
        sources = read([f for name in sorted(pending) for f in roots[name]])
        pending = set().union(*map(imported_tops, sources)) & roots.keys() - needed
    return sorted(name if f"{name}.py" not in roots[name] else f"{name}.py" for name in needed)


class _TodayFillsGaps(importlib.abc.MetaPathFinder):
    """Gives every package of the revision's program today's folder of the same package as its
    last search location, so a module the revision lacks is found in today's tree."""

    def __init__(self, packages: set[str], old: Path, today: Path) -> None:
        self.packages, self.old, self.today = packages, old, today

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname.split(".")[0] not in self.packages:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        locations = getattr(spec, "submodule_search_locations", None)
        if spec is not None and locations is not None:
            twin = self.today / Path(*fullname.split("."))
            if twin.is_dir() and str(twin) not in locations and any(str(self.old) in p for p in locations):
                locations.append(str(twin))
        return spec


def old_program_first(old: Path, packages: Iterable[str]) -> None:
    """Make the revision's `packages` (extracted into `old`) the ones the program imports.

    Call after importing today's instrument (`trainstack.plan.runner`, which imports today's mocks and
    their `clouds` modules): those modules are dropped from `sys.modules` (the instrument keeps
    its references), `old` goes first on `sys.path`, and today's tree fills the revision's gaps.
    """
    names = {p.removesuffix(".py") for p in packages}
    today = Path(__file__).resolve().parents[2]
    for module in [m for m in sys.modules if m.split(".")[0] in names]:
        del sys.modules[module]
    sys.path.insert(0, str(old))
    sys.meta_path.insert(0, _TodayFillsGaps(names, old, today))
    importlib.invalidate_caches()
