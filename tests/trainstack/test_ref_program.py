"""`plan --against REF` extracts what the revision's program imports, derived from its own code,
and plans real earlier revisions of this repository beside today's instrument."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from trainstack.plan.runner import PlanError
from trainstack.review import gitref
from trainstack.review.ref_program import imported_tops, program_roots

ROOT = Path(__file__).resolve().parents[2]
FIRST_REVIEW = "f2fcbde"  # the commit that added plan --against: components/ and profiles/ only
BEFORE_CLOUD_OBJECTS = "449af4f"  # main just before structure's Cloud objects and mocks in clouds/<cloud>/


def tree(files: dict[str, str]):
    return sorted(files), lambda paths: [files[p] for p in paths]


def test_imports_are_found_at_any_depth_and_through_import_module():
    source = (
        "import pulumi, os.path\nfrom clouds.config import x\n\ndef f():\n    import facts.aws as a\n"
        "    from . import sibling\n    return importlib.import_module(f'components.{name}.cluster')\n"
    )
    assert imported_tops(source) == {"pulumi", "os", "clouds", "facts", "components"}


def test_the_extract_follows_the_program_s_imports_and_never_takes_the_instrument():
    paths, read = tree(
        {
            "__main__.py": "import pulumi\nfrom components.registry import component_for\nimport helpers\n",
            "helpers.py": "X = 1\n",
            "components/__init__.py": "",
            "components/registry.py": "from clouds.contract import C\nimport trainstack.plan.mocks\n",
            "clouds/contract.py": "from facts import aws\n",
            "facts/aws.py": "import re\n",
            "policies/rules.py": "from clouds import contract\n",  # the program never imports it
            "tests/test_x.py": "import components\n",
            "trainstack/plan/mocks.py": "import clouds\n",
        }
    )
    assert program_roots(paths, read) == ["clouds", "components", "facts", "helpers.py"]


def test_no_program_no_extract():
    assert program_roots(["README.md"], lambda paths: []) == []


def _have(revision: str) -> bool:
    if shutil.which("git") is None:
        return False
    found = subprocess.run(["git", "cat-file", "-e", f"{revision}^{{commit}}"], cwd=ROOT, capture_output=True)
    return found.returncode == 0


needs_history = pytest.mark.skipif(
    not (_have(FIRST_REVIEW) and _have(BEFORE_CLOUD_OBJECTS)),
    reason="needs git and the repository's history (a full clone)",
)


@needs_history
@pytest.mark.parametrize(
    ("revision", "expected"),
    [
        pytest.param(FIRST_REVIEW, ["components", "profiles"], id="first-review"),
        pytest.param(BEFORE_CLOUD_OBJECTS, ["clouds", "components", "facts", "nodeagent", "profiles"], id="layers"),
    ],
)
def test_the_extract_at_real_revisions(revision, expected):
    at = f"{revision}:"
    files = subprocess.run(["git", "ls-tree", "-r", "--name-only", at], cwd=ROOT, capture_output=True, text=True)
    assert program_roots(files.stdout.splitlines(), lambda paths: gitref._read_blobs(ROOT, at, paths)) == expected


@needs_history
def test_a_revision_before_the_cloud_objects_plans_with_today_s_mocks():
    """Today's mocks import clouds.base and clouds/<cloud>/mock.py, which the revision's own
    clouds/ package lacks; its program still plans with its own clouds/ (no error), and its
    resource tree is the revision's (its component token, its file system)."""
    old = gitref.plan_at_ref("training-a100", ROOT, BEFORE_CLOUD_OBJECTS)
    assert old is not None
    names = {r["name"]: r["type"] for r in old.resources}
    assert names["training-a100"] == "trainstack:aws:GpuCluster"
    assert names["training-a100-fsx"] == "aws:fsx/lustreFileSystem:LustreFileSystem"
    assert names["training-a100-nodes"] == "aws:autoscaling/group:Group"
    assert old.region == "us-east-1"


def _commit(repo: Path, links: dict[str, str]) -> None:
    """A one-commit repository: a program importing `pkg`, its stack, and `links` (path ->
    target) as symbolic links."""
    for path, text in {
        "__main__.py": "import pkg\n",
        "Pulumi.yaml": "name: p\nruntime: python\n",
        "stacks/Pulumi.s.yaml": "config: {}\n",
        "pkg/__init__.py": "X = 1\n",
    }.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)
    for path, target in links.items():
        (repo / path).symlink_to(target)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "x"]):
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", *args],
            cwd=repo,
            check=True,
            capture_output=True,
            env={"PATH": os.environ["PATH"], "HOME": str(repo)},
        )


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
@pytest.mark.fresh_runs  # the files written are what it checks (sharing writes them only for a child)
@pytest.mark.parametrize(
    ("links", "refused"),
    [
        pytest.param({"pkg/alias.py": "__init__.py", "pkg/here": ".", "pkg/loop": "loop"}, None, id="inside"),
        pytest.param({"pkg/secret.py": "/etc/passwd"}, "pkg/secret.py", id="absolute"),
        pytest.param({"pkg/secret.py": "../../outside.py"}, "pkg/secret.py", id="relative-up"),
        # textually inside (pkg/here/../.. is the top), but `here` is pkg itself: one level above
        pytest.param({"pkg/here": ".", "pkg/up": "here/../.."}, "pkg/up", id="through-another-link"),
    ],
)
def test_a_symbolic_link_out_of_the_revision_is_refused_before_the_plan_runs(tmp_path, links, refused):
    """The revision's files are written by git (`checkout-index`), which writes a symbolic link
    as a link; one that resolves outside the revision's folder (followed through the others, as
    the program would) is refused in one line, before its program runs (the data filter's rule)."""
    repo, into = tmp_path / "repo", tmp_path / "out" / "program"
    repo.mkdir()
    _commit(repo, links)
    entries = gitref._tree_entries(repo, "HEAD:")
    assert sorted(entries) == sorted(["__main__.py", "Pulumi.yaml", "pkg/__init__.py", "stacks/Pulumi.s.yaml", *links])
    if refused is None:
        gitref._check_out(repo, entries, into, "HEAD")
        assert {path: os.readlink(into / path) for path in links} == links  # links, not copies
        assert (into / "pkg" / "alias.py").read_text() == "X = 1\n"
        return
    with pytest.raises(PlanError) as raised:
        gitref.plan_at_ref("s", repo, "HEAD")
    assert str(raised.value) == (
        f"--against HEAD: {refused} at HEAD is a symbolic link out of the revision ({links[refused]}); not planned"
    )
