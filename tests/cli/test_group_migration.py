"""Moving a deployed stack from per-node instances to the node group keeps the file system (AWS, GCP).

`plan --against` at the last revision whose AWS nodes were per-node EC2 instances
(`PER_NODE_REVISION`), against today's program: the instances go, the group comes, and the
FSx file system is neither replaced nor deleted.
"""

import shutil
import subprocess
from pathlib import Path

import pytest

# The node agent reads its own sources when a plan builds user data; import it from this
# checkout, not from the temporary worktree a test plans in and then removes.
import nodeagent.scratch_unit  # noqa: F401
import nodeagent.ship  # noqa: F401
from trainstack.review.report import build_review

ROOT = Path(__file__).resolve().parents[2]
PER_NODE_REVISION = "1b9fefd1d4bc75544917f8d1ee1c9b1880c6df53"  # main before AWS node groups (#14)


def _have_revision(revision: str = PER_NODE_REVISION) -> bool:
    if shutil.which("git") is None:
        return False
    found = subprocess.run(
        ["git", "cat-file", "-e", f"{revision}^{{commit}}"], cwd=ROOT, capture_output=True, check=False
    )
    return found.returncode == 0


@pytest.mark.skipif(
    not _have_revision(),
    reason="needs git and the repository's history (a full clone) "
    f"to plan the per-node revision {PER_NODE_REVISION[:7]}",
)
def test_per_node_instances_to_the_group_keeps_the_file_system(tmp_path):
    import yaml

    # Today's program and stack in a worktree of HEAD, the stack placed where it stood at the
    # per-node revision (ap-southeast-2; the v8 catalog moved the committed pick to us-east-1,
    # and a region change rightly replaces the file system). Only the program's own files and
    # stacks/ are checked out (3 files and a folder, not the ~1,100 of the tree, each ~0.5 ms
    # of system CPU to create): the old revision is read from git's objects, and today's side
    # plans with this process's packages.
    project = tmp_path / "head"
    subprocess.run(
        ["git", "worktree", "add", "--detach", "--no-checkout", str(project), "HEAD"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    try:
        subprocess.run(
            ["git", "checkout", "HEAD", "--", "__main__.py", "Pulumi.yaml", "stacks"],
            cwd=project,
            check=True,
            capture_output=True,
        )
        path = project / "stacks" / "Pulumi.training-a100.yaml"
        document = yaml.safe_load(path.read_text())
        document["config"]["aws:region"] = "ap-southeast-2"
        document["config"]["trainstack:cluster"].update(region="ap-southeast-2", zone="apse2-az2")
        path.write_text(yaml.safe_dump(document))
        review = build_review("training-a100", project, against=PER_NODE_REVISION)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(project)], cwd=ROOT, capture_output=True)
    actions = {c["name"]: c["action"] for c in review["changes"]}
    assert actions["training-a100-node-0"] == actions["training-a100-node-1"] == "delete"
    assert actions["training-a100-nodes"] == "create"
    assert "training-a100-fsx" not in actions  # unchanged: same URN, same inputs
    assert review["data_loss"] == []


GCP_PER_NODE_REVISION = "8aba2f64da91ffb5c37669cfa795c45109d942d7"  # main before the GCP managed instance group (#14)
ALICLOUD_PER_NODE_REVISION = "b91a60da494b0a39e4ac05a0552991d2c31d3f6c"  # main before the Alibaba ESS group (#14)
VOLCENGINE_PER_NODE_REVISION = (
    "1e3610cba53480d687ce932929cea298505738b7"  # main with the Alibaba group, before the Volcengine group (#14)
)


def _group_move(revision: str, stack: str, deleted: str, created: str, kept: str, id: str) -> object:
    """One cloud's move from per-node instances to its node group: the stack planned against
    `revision`; the children (suffixes of the stack name, space-separated) `deleted`,
    `created`, and `kept` (unchanged: same URN, same inputs)."""
    skip = pytest.mark.skipif(
        not _have_revision(revision), reason="needs git and the repository's history (a full clone)"
    )
    return pytest.param(revision, stack, deleted.split(), created.split(), kept.split(), id=id, marks=skip)


@pytest.mark.parametrize(
    ("revision", "stack", "deleted", "created", "kept"),
    [
        # GCP: the managed instance group and its template come; the compact policy is kept.
        _group_move(GCP_PER_NODE_REVISION, "training-a3-gcp", "node-0 node-1", "nodes template", "fs placement", "gcp"),
        # Alibaba: the ESS group takes no deployment set (`ds` goes).
        _group_move(
            ALICLOUD_PER_NODE_REVISION,
            "training-a100-alicloud",
            "node-0 node-1 ds",
            "nodes node-config",
            "cpfs cpfs-mount vsw vpc",
            "alicloud",
        ),
        # Volcengine: the scaling configuration takes no deployment set (`dps` goes).
        _group_move(
            VOLCENGINE_PER_NODE_REVISION,
            "training-a10-volcengine",
            "node-0 node-1 dps",
            "nodes node-config node-config-active nodes-enabled",
            "vepfs mount mount-vepfs subnet vpc",
            "volcengine",
        ),
    ],
)
def test_per_node_instances_to_the_node_group_keep_the_file_system(revision, stack, deleted, created, kept):
    review = build_review(stack, ROOT, against=revision)
    actions = {c["name"]: c["action"] for c in review["changes"]}
    assert {child: actions.get(f"{stack}-{child}") for child in deleted} == dict.fromkeys(deleted, "delete")
    assert {child: actions.get(f"{stack}-{child}") for child in created} == dict.fromkeys(created, "create")
    assert [child for child in kept if f"{stack}-{child}" in actions] == []
    assert review["data_loss"] == []


CHINA_AS_PER_NODE_REVISION = (
    "348a358fa813315ee0c2e63a4ccf6eb91744d9e0"  # main before the Tencent and Huawei Auto Scaling groups (#14)
)


@pytest.mark.skipif(
    not _have_revision(CHINA_AS_PER_NODE_REVISION), reason="needs git and the repository's history (a full clone)"
)
@pytest.mark.parametrize(
    ("stack", "created", "kept"),
    [
        pytest.param(
            "training-a100-tencentcloud",
            ("nodes", "node-config"),
            ("cfs", "ccn", "ccn-vpc", "cfs-access", "cfs-rule", "pg", "subnet", "vpc"),
            id="tencent-cfs-turbo",
        ),
        pytest.param(
            "training-a100-huaweicloud",
            ("nodes", "node-config"),
            ("sfs", "sfs-sg", "sfs-sg-from-nodes", "group", "keypair", "subnet", "vpc"),
            id="huawei-sfs-turbo",
        ),
    ],
)
def test_china_per_node_instances_to_the_auto_scaling_group_keep_the_file_system(stack, created, kept):
    review = build_review(stack, ROOT, against=CHINA_AS_PER_NODE_REVISION)
    actions = {c["name"]: c["action"] for c in review["changes"]}
    assert actions[f"{stack}-node-0"] == actions[f"{stack}-node-1"] == "delete"
    for name in created:
        assert actions[f"{stack}-{name}"] == "create"
    for name in kept:
        assert f"{stack}-{name}" not in actions  # unchanged: same URN, same inputs
    assert review["data_loss"] == []
