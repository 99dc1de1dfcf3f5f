"""Moving a deployed stack from per-node instances to the node group keeps the file system.

`plan --against` at the last revision whose AWS nodes were per-node EC2 instances
(`PER_NODE_REVISION`), against today's program: the instances go, the group comes, and the
FSx file system is neither replaced nor deleted.
"""

import shutil
import subprocess
from pathlib import Path

import pytest

from trainstack.review import build_review

ROOT = Path(__file__).resolve().parents[2]
PER_NODE_REVISION = "1b9fefd1d4bc75544917f8d1ee1c9b1880c6df53"  # main before AWS node groups (#14)


def _have_revision() -> bool:
    if shutil.which("git") is None:
        return False
    found = subprocess.run(["git", "cat-file", "-e", f"{PER_NODE_REVISION}^{{commit}}"], cwd=ROOT,
                           capture_output=True, check=False)
    return found.returncode == 0


@pytest.mark.skipif(not _have_revision(), reason="needs git and the repository's history (a full clone) "
                                                  f"to plan the per-node revision {PER_NODE_REVISION[:7]}")
def test_per_node_instances_to_the_group_keeps_the_file_system():
    review = build_review("training-a100", ROOT, against=PER_NODE_REVISION)
    actions = {c["name"]: c["action"] for c in review["changes"]}
    assert actions["training-a100-node-0"] == actions["training-a100-node-1"] == "delete"
    assert actions["training-a100-nodes"] == "create"
    assert "training-a100-fsx" not in actions  # unchanged: same URN, same inputs
    assert review["data_loss"] == []
