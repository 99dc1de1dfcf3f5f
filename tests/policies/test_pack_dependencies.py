"""The policy pack's own virtualenv: policies/requirements.txt holds what the pack imports."""

import ast
import json
import re
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

import pulumi
from pulumi_policy import StackValidationArgs

from policies import pack
from tests.source_scan import scan_file

ROOT = Path(__file__).resolve().parents[2]
LOCAL = {path.name for path in ROOT.iterdir() if (path / "__init__.py").exists()}


def _module_file(name: str) -> Path | None:
    path = ROOT.joinpath(*name.split("."))
    for candidate in (path / "__init__.py", path.with_suffix(".py")):
        if candidate.exists():
            return candidate
    return None


def third_party_imports() -> set[str]:
    """Top-level third-party modules the pack imports, followed through every project module
    it imports (lazy imports inside functions included)."""
    todo = [f"policies.{path.stem}" for path in (ROOT / "policies").glob("*.py")]
    seen: set[str] = set()
    found: set[str] = set()
    while todo:
        module = todo.pop()
        if module in seen or (source := _module_file(module)) is None:
            continue
        seen.add(module)
        for node in scan_file(source).imports:
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            for name in names:
                top = name.split(".")[0]
                if top in LOCAL:
                    todo.append(name)
                elif top not in sys.stdlib_module_names and top != "__future__":
                    found.add(top)
    return found


def required_distributions() -> set[str]:
    lines = (ROOT / "policies" / "requirements.txt").read_text().splitlines()
    names = [re.split(r"[<>=!~ \[;]", line.strip())[0] for line in lines if line.strip() and not line.startswith("#")]
    return {name.lower().replace("_", "-") for name in names}


def test_every_module_the_pack_imports_is_in_its_requirements():
    distributions = packages_distributions()
    needed = {dist.lower().replace("_", "-") for top in third_party_imports() for dist in distributions.get(top, [top])}
    assert {"pulumi", "pulumi-policy", "pydantic"} <= needed  # the budget rule reaches clouds.config
    assert needed <= required_distributions()


def test_no_budget_means_no_pricing(monkeypatch):
    def no_pricing(_raw):
        raise AssertionError("priced the cluster with no budget set")

    monkeypatch.setattr(pack, "_cluster_price", no_pricing)
    reported = []

    def body():
        pulumi.runtime.set_all_config({"trainstack:cluster": json.dumps({"provider": "aws"})})
        pack.validate_budget(StackValidationArgs([], {}), lambda message, urn: reported.append(message))

    import contextvars

    contextvars.copy_context().run(body)
    assert reported == []
