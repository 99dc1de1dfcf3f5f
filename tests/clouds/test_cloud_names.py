"""Adding a cloud touches only its own files: outside them, a registry name (`alicloud`,
`huaweicloud`, ...) appears in no string literal but the registry's own line (#13).

A cloud's own files are any path with a folder named after it (`clouds/aws/`,
`components/aws/`) or a module named after it (`fetchers/aws.py`, `fetchers/alicloud_api.py`).
Docstrings are documentation and not scanned; Pulumi type tokens (`alicloud:ecs/...`), config
keys (`aws:region`), module targets (`clouds.aws.fsx:...`) and tables keyed by name all are.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from clouds.registry import NAMES
from tests.source_scan import scan_source

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("facts", "clouds", "components", "profiles", "trainstack", "policies", "nodeagent")
REGISTRY = Path("clouds", "registry.py")


def cloud_names_in(source: str) -> list[tuple[int, str]]:
    """(line, cloud name) of every non-docstring string literal naming a registered cloud."""
    hits = []
    for node in scan_source(source).literals:
        words = set(re.split(r"[^a-z0-9]+", node.value))
        hits += [(node.lineno, name) for name in NAMES if name in words]
    return sorted(hits)


def is_own_file(path: Path, name: str) -> bool:
    return name in path.parts[:-1] or path.stem == name or path.stem.startswith(f"{name}_")


def cross_cutting_hits() -> dict[Path, list[tuple[int, str]]]:
    found: dict[Path, list[tuple[int, str]]] = {}
    files = [Path("__main__.py"), *(p.relative_to(ROOT) for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))]
    for path in files:
        if path == REGISTRY:
            continue
        hits = [(line, name) for line, name in cloud_names_in((ROOT / path).read_text()) if not is_own_file(path, name)]
        if hits:
            found[path] = hits
    return found


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param('X = {"aws": 1}\n', [(1, "aws")], id="table-key"),
        pytest.param('T = "alicloud:ecs/instance:Instance"\n', [(1, "alicloud")], id="type-token"),
        pytest.param('T = "azure-native:compute:Disk"\n', [(1, "azure")], id="azure-native-token"),
        pytest.param('M = "clouds.gcp.fsx:rule"\n', [(1, "gcp")], id="module-target"),
        pytest.param('def f():\n    """Works on aws."""\n', [], id="docstring-skipped"),
        pytest.param('E = "GCP and Azure accept no other"\n', [], id="display-names-in-prose"),
        pytest.param('E = "awsome"\n', [], id="not-a-word"),
    ],
)
def test_the_scan_finds_cloud_names_in_literals(source, expected):
    assert cloud_names_in(source) == expected


def test_own_files_are_the_clouds_folders_and_modules():
    assert is_own_file(Path("components", "aws", "cluster.py"), "aws")
    assert is_own_file(Path("profiles", "catalog", "fetchers", "alicloud_api.py"), "alicloud")
    assert is_own_file(Path("profiles", "catalog", "sources", "gcp.py"), "gcp")
    assert not is_own_file(Path("profiles", "catalog", "fetchers", "aws.py"), "gcp")
    assert not is_own_file(Path("components", "job_bootstrap.py"), "aws")


def test_no_cross_cutting_module_names_a_cloud():
    hits = {str(path): found[:5] for path, found in cross_cutting_hits().items()}
    assert hits == {}, "derive these from the Cloud objects (clouds/<cloud>/__init__.py) instead"
