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
    # and a region change rightly replaces the file system).
    project = tmp_path / "head"
    subprocess.run(
        ["git", "worktree", "add", "--detach", str(project), "HEAD"], cwd=ROOT, check=True, capture_output=True
    )
    try:
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


@pytest.mark.skipif(
    not _have_revision(GCP_PER_NODE_REVISION), reason="needs git and the repository's history (a full clone)"
)
def test_gcp_per_node_instances_to_the_managed_instance_group_keeps_the_file_system():
    review = build_review("training-a3-gcp", ROOT, against=GCP_PER_NODE_REVISION)
    actions = {c["name"]: c["action"] for c in review["changes"]}
    assert actions["training-a3-gcp-node-0"] == actions["training-a3-gcp-node-1"] == "delete"
    assert actions["training-a3-gcp-nodes"] == actions["training-a3-gcp-template"] == "create"
    assert "training-a3-gcp-fs" not in actions  # unchanged: same URN, same inputs
    assert "training-a3-gcp-placement" not in actions  # the compact policy is kept
    assert review["data_loss"] == []


ALICLOUD_PER_NODE_REVISION = "b91a60da494b0a39e4ac05a0552991d2c31d3f6c"  # main before the Alibaba ESS group (#14)


@pytest.mark.skipif(
    not _have_revision(ALICLOUD_PER_NODE_REVISION), reason="needs git and the repository's history (a full clone)"
)
def test_alicloud_per_node_instances_to_the_ess_group_keeps_the_cpfs():
    stack = "training-a100-alicloud"
    review = build_review(stack, ROOT, against=ALICLOUD_PER_NODE_REVISION)
    actions = {c["name"]: c["action"] for c in review["changes"]}
    assert actions[f"{stack}-node-0"] == actions[f"{stack}-node-1"] == "delete"
    assert actions[f"{stack}-ds"] == "delete"  # the ESS group takes no deployment set
    assert actions[f"{stack}-nodes"] == actions[f"{stack}-node-config"] == "create"
    for kept in (f"{stack}-cpfs", f"{stack}-cpfs-mount", f"{stack}-vsw", f"{stack}-vpc"):
        assert kept not in actions  # unchanged: same URN, same inputs
    assert review["data_loss"] == []


VOLCENGINE_PER_NODE_REVISION = (
    "1e3610cba53480d687ce932929cea298505738b7"  # main with the Alibaba group, before the Volcengine group (#14)
)


@pytest.mark.skipif(
    not _have_revision(VOLCENGINE_PER_NODE_REVISION), reason="needs git and the repository's history (a full clone)"
)
def test_volcengine_per_node_instances_to_the_scaling_group_keeps_the_vepfs():
    stack = "training-a10-volcengine"
    review = build_review(stack, ROOT, against=VOLCENGINE_PER_NODE_REVISION)
    actions = {c["name"]: c["action"] for c in review["changes"]}
    assert actions[f"{stack}-node-0"] == actions[f"{stack}-node-1"] == "delete"
    assert actions[f"{stack}-dps"] == "delete"  # the scaling configuration takes no deployment set
    for created in ("nodes", "node-config", "node-config-active", "nodes-enabled"):
        assert actions[f"{stack}-{created}"] == "create"
    for kept in ("vepfs", "mount", "mount-vepfs", "subnet", "vpc"):
        assert f"{stack}-{kept}" not in actions  # unchanged: same URN, same inputs
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
