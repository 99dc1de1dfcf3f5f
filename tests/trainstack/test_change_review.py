"""The review of three everyday edits to a running AWS stack with a job and a data link (the
committed training-a100 with both added), from the real plans of both sides: what happens to
the head, the job and the link.

- a job edit (`job.command`): the head's bootstrap holds no job setting, so only its job
  channel (tags, updated on the running instance) changes; the job gets a new rendezvous id,
  and the review says every worker restarts on it together, never mixing two jobs;
- a node-count edit: the same channel carries the count, the job id stays, and the review
  states the `--nnodes` every running worker restarts with;
- a data-source edit: the FSx data repository association on /data is replaced, the old one
  deleted first (FSx keeps one association per path), and the review's row says so.
"""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

import pytest
import yaml

from trainstack.plan.runner import run_plan
from trainstack.review.diff import diff_plans
from trainstack.review.markdown import review_markdown
from trainstack.review.report import review_json

ROOT = Path(__file__).resolve().parents[2]
STACK = "training-a100"
BASE = yaml.safe_load((ROOT / "stacks" / f"Pulumi.{STACK}.yaml").read_text())
JOB = {"command": "/fsx/code/train.py --lr 3e-4", "min_nodes": 1}
DATA = {"source": "s3://team-data/imagenet", "size_gib": 140}


def _plan(tmp_path: Path, label: str, **changes):
    project = tmp_path / label
    (project / "stacks").mkdir(parents=True)
    shutil.copy(ROOT / "__main__.py", project)
    shutil.copy(ROOT / "Pulumi.yaml", project)
    document = copy.deepcopy(BASE)
    cluster = document["config"]["trainstack:cluster"]
    cluster.update(job=dict(JOB), data=dict(DATA))
    for key, value in changes.items():
        if key in ("command", "min_nodes"):
            cluster["job"][key] = value
        elif key == "source":
            cluster["data"]["source"] = value
        else:
            cluster[key] = value
    (project / "stacks" / f"Pulumi.{STACK}.yaml").write_text(yaml.safe_dump(document))
    return run_plan(STACK, project, priced=False)


def _review(tmp_path: Path, **changes) -> dict:
    before, after = _plan(tmp_path, "before"), _plan(tmp_path, "after", **changes)
    changed = diff_plans(before.resources, after.resources, STACK)
    return review_json(STACK, "main", changed, before, after, [], None)


def _actions(review: dict) -> dict[str, str]:
    return {c["name"]: c["action"] for c in review["changes"]}


def _head_change(review: dict) -> dict:
    (head,) = [c for c in review["changes"] if c["name"] == f"{STACK}-head"]
    return head


def test_a_job_edit_restarts_every_worker_together_and_never_mixes_two_jobs(tmp_path):
    review = _review(tmp_path, command="/fsx/code/train.py --lr 1e-4")
    actions = _actions(review)
    head = _head_change(review)  # only the job channel's tags: updated on the running instance
    assert head["action"] == "update" and f"{STACK}-head-eni" not in actions
    assert all(path.startswith("tags.trainstack:job:") for path in head["changed"])
    assert actions[f"{STACK}-lt"] == "update" and review["nodes"] == {
        "replaced": [],
        "kept": [f"{STACK}-lt"],
        "removed": [],
        "deleted": [],
    }
    job = review["job"]
    assert job["head"].startswith("updated in place (its job channel: tags)") and "nodes" not in job
    assert "rendezvous id" in job["job"] and "all together" in job["job"] and "never train in one job" in job["job"]
    text = review_markdown({**review, "policies": {"passed": True, "results": []}})
    assert "**Head:** updated in place" in text and "**Job:** the job's program changes" in text


def test_a_node_count_edit_reaches_the_running_workers(tmp_path):
    review = _review(tmp_path, nodes=4)
    actions = _actions(review)
    assert _head_change(review)["action"] == "update" and actions[f"{STACK}-nodes"] == "update"
    job = review["job"]
    assert job["head"].startswith("updated in place") and job["job"].startswith("unchanged")
    assert "2 -> 4 nodes" in job["nodes"] and "every running worker restarts its torchrun" in job["nodes"]
    assert "from --nnodes=1:2 to --nnodes=1:4 together" in job["nodes"]


def test_a_data_source_edit_replaces_the_link_deleting_the_old_one_first(tmp_path):
    review = _review(tmp_path, source="s3://team-data/imagenet-v2")
    (link,) = [
        c for c in review["changes"] if c["type"] == "aws:fsx/dataRepositoryAssociation:DataRepositoryAssociation"
    ]
    assert (link["action"], link["delete_first"]) == ("replace", True)
    assert "aws:fsx/lustreFileSystem:LustreFileSystem" not in {c["type"] for c in review["changes"]}
    assert review["job"]["head"].startswith("unchanged") and review["job"]["job"].startswith("unchanged")
    text = review_markdown({**review, "policies": {"passed": True, "results": []}})
    assert f"🔁 replace (the old one is deleted first) | `{link['type']}` | `{link['name']}`" in text


@pytest.mark.parametrize("provider", ["aws", "azure", "gcp"])
def test_the_heads_bootstrap_holds_no_job_setting(provider):
    from clouds.job_bootstrap import job_script
    from tests.clusters import example_config

    def head(**job):
        config = example_config(provider, purchase="on-demand", nodes=2, job={"command": "/fsx/a.py", **job})
        return job_script("head", "c", config, "10.0.0.5", "/fsx", "/etc/env")

    base = head()
    assert base == head(command="/fsx/b.py --x", env={"A": "1"}, min_nodes=1, nproc_per_node=4)
    assert (
        f'{{"cloud": "{provider}", "job_doc": "/fsx/trainstack/jobs/c.json", '
        '"rdzv_file": "/fsx/trainstack/rendezvous/c", "rdzv_port": 29400}'
    ) in base


@pytest.mark.parametrize(
    ("changed", "head"),
    [
        pytest.param(("tags.trainstack:job:00",), "updated in place (its job channel: tags)", id="aws-tags"),
        pytest.param(("metadata.trainstack-job",), "updated in place (its job channel: metadata)", id="gcp-metadata"),
        pytest.param(("userData",), "updated in place (its job channel: userData)", id="azure-user-data"),
        pytest.param(("metadata.startup-script",), "updated (metadata.startup-script)", id="not-the-channel"),
        pytest.param(
            ("userDataBase64",), "updated (userDataBase64); on AWS a user-data change stops", id="aws-user-data"
        ),
    ],
)
def test_the_head_line_names_an_update_of_the_job_channel_alone_as_in_place(changed, head):
    """Each cloud's job channel (AWS tags, GCP `trainstack-job` metadata, Azure user data) is
    updated on the running head; any other head update is named as such."""
    from types import SimpleNamespace

    from trainstack.review.diff import Change
    from trainstack.review.job_lines import job_lines

    side = SimpleNamespace(job={"id": "aaaaaaaa", "nodes": 2, "min_nodes": 2, "platform": "vm"})
    change = Change("update", "t", "c-head", "urn:c-head", changed=changed)
    assert job_lines(side, side, [change])["head"].startswith(head)
