"""`trainstack plan --markdown / --json --against REF` on a temporary git repository."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from profiles.catalog.loader import load_catalog
from tests.cli.helpers import documented_keys
from trainstack.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
FSX = "training-a100-fsx"
IGNORE = shutil.ignore_patterns("__pycache__", "data", "*.pyc")
GIT_VARIABLES = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE")
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="--against needs git")


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


def write_stack(repo: Path, config: dict | None = None, **cluster) -> dict:
    document = yaml.safe_load((ROOT / "stacks" / "Pulumi.training-a100.yaml").read_text())
    document["config"]["trainstack:cluster"].update(cluster)
    document["config"].update(config or {})
    (repo / "stacks").mkdir(exist_ok=True)
    (repo / "stacks" / "Pulumi.training-a100.yaml").write_text(yaml.safe_dump(document))
    return document["config"]["trainstack:cluster"]


@pytest.fixture(scope="module")
def committed(tmp_path_factory) -> Path:
    """The repository every test starts from, made once: a project committed to git in a
    subfolder (`infra/`): today's program (every package it imports, as a checkout has them, so
    the revision plans with its own `clouds/`), the a100 stack."""
    with pytest.MonkeyPatch.context() as env:
        for variable in GIT_VARIABLES:  # never reach the outer repository
            env.delenv(variable, raising=False)
        return _commit_project(tmp_path_factory.mktemp("committed"))


def _commit_project(root: Path) -> Path:
    project = root / "infra"
    project.mkdir()
    for name in ("__main__.py", "Pulumi.yaml"):
        shutil.copy(ROOT / name, project / name)
    # the packages the program imports, so the old revision plans with its own code (not another
    # checkout's editable install)
    for package in ("components", "profiles", "clouds", "facts", "nodeagent"):
        shutil.copytree(ROOT / package, project / package, ignore=IGNORE)
    write_stack(project)
    git(root, "init", "-q", "-b", "main")
    # Borrow this checkout's object store (read only): `git add` then writes only the objects it
    # lacks (the stack file, any uncommitted edit), not ~470 files (~0.2 s of CPU).
    common = subprocess.run(
        ["git", "rev-parse", "--path-format=absolute", "--git-common-dir"], cwd=ROOT, capture_output=True, text=True
    )
    if common.returncode == 0:
        (root / ".git" / "objects" / "info" / "alternates").write_text(f"{common.stdout.strip()}/objects\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "a100 stack")
    return root


@pytest.fixture()
def repo(committed, tmp_path, monkeypatch):
    """This test's own clone of `committed` (its objects shared), the working directory in it.

    Only the project's own files and `stacks/` are checked out (a sparse checkout: about 5 files
    instead of some 470, each file created costing ~0.5 ms of system CPU here): `--against`
    reads the revision from git's objects, never the working tree, and today's side plans with
    this process's packages (already imported; `tests/shared_runs.py`). A test that edits a
    package file checks out its folder first (`check_out`)."""
    for variable in GIT_VARIABLES:  # never reach the outer repository
        monkeypatch.delenv(variable, raising=False)
    git(tmp_path, "clone", "-q", "--shared", "--sparse", str(committed), str(tmp_path))  # top-level files only
    git(tmp_path, "sparse-checkout", "add", "infra/stacks")  # cone mode: infra/'s own files too
    project = tmp_path / "infra"
    monkeypatch.chdir(project)
    return project


def check_out(repo: Path, folder: str) -> None:
    """Add `folder` (relative to the project) to the sparse checkout of `repo`."""
    git(repo.parent, "sparse-checkout", "add", f"infra/{folder}")


def plan(*args):
    return CliRunner().invoke(app, ["plan", "-s", "training-a100", *args])


def test_more_on_demand_p5_nodes_replace_nodes_and_keep_the_file_system(repo):
    old = yaml.safe_load((repo / "stacks" / "Pulumi.training-a100.yaml").read_text())["config"]["trainstack:cluster"]
    new = write_stack(
        repo, nodes=3, instance_type="p5.48xlarge", accelerator="H100", purchase="on-demand", usd_per_hour=98.32
    )
    result = plan("--json", "--against", "main")
    assert result.exit_code == 0, result.output
    review = json.loads(result.stdout)

    actions = {c["name"]: c["action"] for c in review["changes"]}
    assert actions["training-a100-nodes"] == "update"  # the group: size, type and market in place
    assert actions["training-a100-lt"] == "update"
    assert FSX not in actions and review["data_loss"] == []  # unchanged: never replaced or deleted
    group = next(c for c in review["changes"] if c["name"] == "training-a100-nodes")
    assert {"desiredCapacity", "mixedInstancesPolicy"} <= {key.split(".")[0] for key in group["changed"]}

    cost = review["cost"]
    assert cost["before"]["usd_compute_per_hour"] == old["usd_per_hour"]
    # The stack file says $98.32/hour; 3 on-demand p5 in its zone cost what the catalog says.
    p5 = next(
        o
        for o in load_catalog(providers=("aws",)).offerings
        if (o.instance_type, o.zone) == ("p5.48xlarge", new["zone"])
    )
    assert cost["after"]["usd_compute_per_hour"] == pytest.approx(3 * p5.on_demand_usd_per_hour, abs=1e-4)
    # the hourly figure adds the kept FSx: $1.5315/hour (4,800 GiB at 250 MB/s/TiB, F5 x FJ1 ratio)
    assert cost["after"]["usd_per_hour"] == pytest.approx(3 * p5.on_demand_usd_per_hour + 1.5315, abs=1e-4)
    assert "records $98.32/hour" in cost["after"]["price_note"]
    storage = cost["after"]["usd_storage"]
    assert cost["after"]["usd_per_job"] == pytest.approx(
        3 * p5.on_demand_usd_per_hour * new["hours"] + storage, abs=0.01
    )
    assert review["policies"]["passed"] is True
    # docs/cli.md names every key of the review JSON (new-user pass 2, finding 20)
    keys = set(review) | set(group) | set(review["nodes"]) | set(cost) | set(cost["after"])
    keys |= set(review["purchase"]) | set(review["policies"]) | set(review["policies"]["results"][0])
    assert keys - documented_keys() == set()


def test_markdown_comment_runs_the_old_component_code(repo):
    check_out(repo, "components/aws")
    compute = repo / "components" / "aws" / "compute.py"
    compute.write_text(compute.read_text().replace("ROOT_VOLUME_GIB = 200", "ROOT_VOLUME_GIB = 100"))
    git(repo, "commit", "-q", "-am", "smaller root volume")
    write_stack(repo, config={"trainstack:max_usd_per_hour": 4.5})  # today's code (200 GiB), a tight budget

    result = plan("--markdown", "--against", "HEAD")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.startswith("<!-- trainstack-plan:training-a100 -->")
    assert "### trainstack plan: `training-a100` against `HEAD`" in text
    assert "| ✏️ update | `aws:ec2/launchTemplate:LaunchTemplate` | `training-a100-lt` |" in text
    assert "`blockDeviceMappings[0].ebs.volumeSize`" in text  # 100 GiB at HEAD -> 200 GiB now
    assert "| ❌ | `budget` |" in text and "| ✅ | `imdsv2-required` |" in text
    # 2 x $6.1657 (p4d.24xlarge spot, eun1-az3) + $1.5315 FSx (4,800 GiB, 250 MB/s/TiB)
    assert "| USD/hour | 13.86 | 13.86 | +0.00 |" in text
    assert "policies ❌ 9/10 passed" in text


def test_unchanged_stack_in_a_fresh_process_plans_identically(repo):
    review = json.loads(plan("--json", "--against", "main").stdout)
    assert review["changes"] == [] and review["summary"]["same"] > 20


def test_stack_missing_at_ref_is_all_creates(repo):
    git(repo, "rm", "-q", "stacks/Pulumi.training-a100.yaml")
    git(repo, "commit", "-q", "-m", "drop stack")
    write_stack(repo)
    review = json.loads(plan("--json", "--against", "main").stdout)
    assert review["cost"]["before"] is None
    assert {c["action"] for c in review["changes"]} == {"create"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(
            ("--markdown", "--against", "no-such-branch"),
            "--against no-such-branch: not a git revision",
            id="unknown-ref",
        ),
        pytest.param(("--markdown", "--json"), "choose one", id="both-formats"),
    ],
)
def test_user_errors_are_one_line_exit_2(repo, args, message):
    result = plan(*args)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_bad_budget_is_one_line_exit_2(repo):
    write_stack(repo, config={"trainstack:max_usd_per_hour": "lots"})
    result = plan("--markdown")
    assert result.exit_code == 2
    assert "trainstack:max_usd_per_hour: 'lots' is not a positive number" in result.output


def test_an_old_revision_is_priced_with_todays_catalog_and_code(repo):
    """A revision whose pricing code predates today's interface still reviews, and both sides
    are priced from today's catalog: an unchanged stack shows no cost change."""
    check_out(repo, "profiles/stack")
    pricing = repo / "profiles" / "stack" / "price.py"
    today = pricing.read_text()
    pricing.write_text("# an older revision: no price_from_catalog here\n")
    git(repo.parent, "commit", "-q", "-am", "older pricing code")
    pricing.write_text(today)
    write_stack(repo, usd_per_hour=1.0)  # the file's own number changes; the catalog price does not
    result = plan("--against", "HEAD", "--json")
    assert result.exit_code == 0, result.output
    cost = json.loads(result.stdout)["cost"]
    assert cost["before"]["usd_per_hour"] == cost["after"]["usd_per_hour"] > 1.0
    assert cost["delta_usd_per_hour"] == 0.0


def test_a_rename_done_as_the_readme_says_replaces_nothing(repo):
    """`pulumi stack rename renamed -s training-a100` moves the stack file; the new file lists
    the old name under trainstack:previous_names. The review against the commit before the
    rename compares with the old stack's plan and finds every resource the same."""
    git(repo, "mv", "stacks/Pulumi.training-a100.yaml", "stacks/Pulumi.renamed.yaml")
    stack_file = repo / "stacks" / "Pulumi.renamed.yaml"
    document = yaml.safe_load(stack_file.read_text())
    document["config"]["trainstack:previous_names"] = ["training-a100"]
    stack_file.write_text(yaml.safe_dump(document))
    result = CliRunner().invoke(app, ["plan", "-s", "renamed", "--json", "--against", "main"])
    assert result.exit_code == 0, result.output
    review = json.loads(result.stdout)
    assert review["changes"] == [] and review["data_loss"] == []
    assert review["summary"]["same"] > 20


def test_a_tag_only_edit_replaces_nothing_but_updates_the_tags(repo):
    write_stack(repo, tags={"team": "ml-research"})
    review = json.loads(plan("--json", "--against", "main").stdout)
    replaced = [c["name"] for c in review["changes"] if c["action"] in ("replace", "delete", "create")]
    updated = {c["name"] for c in review["changes"] if c["action"] == "update"}
    assert "training-a100-fsx" in updated and "training-a100-lt" in updated
    # The nodes run in an Auto Scaling group on the template's $Latest: no node is replaced.
    assert replaced == [] and review["data_loss"] == []


def test_markdown_without_against_does_not_call_a_committed_stack_new(repo):
    result = plan("--markdown")
    assert result.exit_code == 0, result.output
    title = result.stdout.splitlines()[1]
    assert "(new stack)" not in title and "pass `--against origin/main`" in title
    assert "**new:" not in result.stdout


def test_markdown_of_an_uncommitted_stack_says_new(repo):
    shutil.copy(repo / "stacks" / "Pulumi.training-a100.yaml", repo / "stacks" / "Pulumi.brand-new.yaml")
    result = CliRunner().invoke(app, ["plan", "-s", "brand-new", "--markdown"])
    assert result.exit_code == 0, result.output
    assert "(new stack)" in result.stdout.splitlines()[1]


def test_a_revision_whose_stack_does_not_plan_names_its_file_not_a_temporary_copy(repo):
    path = repo / "stacks" / "Pulumi.training-a100.yaml"
    path.write_text(path.read_text().replace("    nodes: 2\n", "    nodes: 2\n    nodes: 3\n", 1))
    git(repo, "commit", "-q", "-am", "nodes twice")
    write_stack(repo)  # today's file is fine
    result = plan("--against", "HEAD")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(
        "error: --against HEAD: the stack at HEAD does not plan: stacks/Pulumi.training-a100.yaml: duplicate key 'nodes'"
    ), result.stderr
    assert "trainstack-ref-" not in result.stderr and "error: error:" not in result.stderr
