"""The project's sources read once per test process for the tests that check them: its import
statements (tests/test_layout.py, tests/test_layers.py, tests/policies/test_pack_dependencies.py)
and its string literals (tests/clouds/test_cloud_names.py).

Each of those tests parsed every project file again (about 520 files: ~0.3 s of CPU a pass); a
scan is now kept per file content, so a file changed on disk (or a test's own temporary files)
is scanned anew. Only the nodes the tests read are kept, not whole syntax trees (~70 MB for the
project). The four modules run on one xdist worker (the `sources` group in tests/conftest.py).
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Scan:
    """What one source file holds, in `ast.walk` order.

    Attributes:
        imports: every `import` and `from ... import` statement, at any depth (inside functions
            and `if TYPE_CHECKING:` blocks too).
        literals: every string constant that is not a docstring (of the module, a class or a
            function), f-string parts and type tokens included.
    """

    imports: tuple[ast.Import | ast.ImportFrom, ...]
    literals: tuple[ast.Constant, ...]


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


@functools.cache
def scan_source(source: str) -> Scan:
    """The imports and non-docstring string literals of `source` (cached by its text).

    Raises:
        SyntaxError: `source` is not valid Python.
    """
    tree = ast.parse(source)
    skip = _docstrings(tree)
    imports: list[ast.Import | ast.ImportFrom] = []
    literals: list[ast.Constant] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imports.append(node)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            literals.append(node)
    return Scan(tuple(imports), tuple(literals))


def scan_file(path: Path) -> Scan:
    """`scan_source` of the file at `path` as it is now (read as UTF-8).

    Raises:
        SyntaxError: the file is not valid Python (its `filename` is `path`).
    """
    try:
        return scan_source(path.read_text(encoding="utf-8"))
    except SyntaxError as exc:
        exc.filename = str(path)
        raise
