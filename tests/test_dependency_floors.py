"""pyproject.toml declares what the code uses: every cloud SDK it lists is imported, and no
floor is below the release that introduced an API the code calls."""

import re
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("components", "policies", "profiles", "trainstack")
# Code that needs a release: (text in the code, folder, distribution, first release with it).
NEEDS = [
    pytest.param("InvokeOutputOptions", "components", "pulumi", (3, 141), id="pulumi-InvokeOutputOptions"),
    pytest.param("opts.parent", "policies", "pulumi-policy", (1, 14), id="policy-opts-parent"),
    pytest.param("gcp.lustre.", "components", "pulumi-gcp", (10, 2), id="gcp-lustre-as-tested"),
]


def declared() -> dict[str, str]:
    """distribution -> its requirement text (e.g. `>=3.141,<4`)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    found = {}
    # each cloud's SDKs are an extra; the test extra serves tests/, which `sources()` does not read
    extras = {name: reqs for name, reqs in project.get("optional-dependencies", {}).items() if name != "test"}
    for requirement in [*project["dependencies"], *(r for reqs in extras.values() for r in reqs)]:
        name = re.split(r"[<>=!~ \[;]", requirement, maxsplit=1)[0]
        if name == "trainstack":
            continue  # `all` names the other extras
        found[name.lower()] = requirement[len(name) :]
    return found


def floor(spec: str) -> tuple[int, ...]:
    match = re.search(r">=\s*([\d.]+)", spec)
    assert match, f"no >= floor in {spec!r}"
    return tuple(int(part) for part in match.group(1).split("."))


def sources(folder: str = "") -> str:
    folders = [folder] if folder else PACKAGES
    return "\n".join(path.read_text() for name in folders for path in (ROOT / name).rglob("*.py"))


@pytest.mark.parametrize(("marker", "folder", "distribution", "needed"), NEEDS)
def test_floors_cover_what_the_code_uses(marker, folder, distribution, needed):
    assert marker in sources(folder), "the code no longer uses it: drop the row"
    assert floor(declared()[distribution]) >= needed


def test_every_declared_cloud_sdk_is_imported():
    code = sources()
    sdks = [name for name in declared() if name.startswith("pulumi-") or name.endswith("-pulumi")]
    unused = [name for name in sdks if not re.search(rf"^\s*(import|from) {name.replace('-', '_')}\b", code, re.M)]
    assert unused == [], f"declared but never imported (every runner downloads their plugins): {unused}"
