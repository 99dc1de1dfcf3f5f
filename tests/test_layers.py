"""The packages import one way: facts <- clouds <- {profiles, components} <- trainstack/policies;
inside trainstack, plan <- review <- cli.

`profiles/` (the decision side) and `components/` (the Pulumi side) never import each other;
what both need sits in `facts/` and `clouds/`, which import neither, nor Pulumi.
Every import statement is read with `ast`, including the ones inside functions.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.source_scan import scan_source

ROOT = Path(__file__).resolve().parents[1]

# package -> top-level names its modules must not import.
FORBIDDEN: dict[str, set[str]] = {
    "facts": {"clouds", "profiles", "components", "trainstack", "policies", "pulumi"},
    "clouds": {"profiles", "components", "trainstack", "policies", "pulumi"},
    "profiles": {"components", "trainstack", "policies", "pulumi"},
    "components": {"profiles", "trainstack", "policies"},
    # the node agent runs on nodes with the standard library (torch only inside functions)
    "nodeagent": {"facts", "clouds", "profiles", "components", "trainstack", "policies", "pulumi", "pydantic", "yaml"},
    # trainstack's subpackages by concern: the plan runner below the review, both below the CLI
    "trainstack.plan": {"trainstack.cli", "trainstack.review", "typer"},
    "trainstack.review": {"trainstack.cli", "typer"},
}


def imported_modules(source: str) -> list[tuple[int, str]]:
    """(line, dotted module) of every absolute import in `source`, at any depth."""
    found = []
    for node in scan_source(source).imports:
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def cross_imports(package: str, root: Path = ROOT) -> list[str]:
    """`path:line imports module` for each import of `package` that `FORBIDDEN` refuses."""
    refused = FORBIDDEN[package]
    bad = []
    for path in sorted((root / package.replace(".", "/")).rglob("*.py")):
        for line, module in imported_modules(path.read_text()):
            top = module.split(".")[0]
            within = any(module == name or module.startswith(name + ".") for name in refused)
            if within or (top.startswith("pulumi_") and "pulumi" in refused):
                bad.append(f"{path.relative_to(root)}:{line} imports {module}")
    return bad


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_only_downward(package):
    assert cross_imports(package) == []


def test_the_checker_names_a_nested_cross_import(tmp_path):
    (tmp_path / "clouds").mkdir()
    (tmp_path / "clouds" / "x.py").write_text(
        "import re\n\ndef f():\n    from components.aws.fsx import fsx_sizing\n    import pulumi_aws\n"
    )
    assert cross_imports("clouds", tmp_path) == [
        "clouds/x.py:4 imports components.aws.fsx",
        "clouds/x.py:5 imports pulumi_aws",
    ]


def test_the_checker_names_a_subpackage_reaching_up(tmp_path):
    (tmp_path / "trainstack" / "plan").mkdir(parents=True)
    (tmp_path / "trainstack" / "plan" / "x.py").write_text(
        "from trainstack.plan.mocks import M\nfrom trainstack.cli.render import tree\nimport trainstack.clients\n"
    )
    assert cross_imports("trainstack.plan", tmp_path) == ["trainstack/plan/x.py:2 imports trainstack.cli.render"]
