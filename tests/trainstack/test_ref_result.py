"""The compared revision's side of `plan --against` (trainstack.review.gitref.ref_result) carries
what the review compares: the job above all, or the head / job / node-count lines
(docs/deploying.md) never appear in a real review (they did only where a test planned both
sides with `run_plan`)."""

from __future__ import annotations

import copy
from pathlib import Path

import yaml

from trainstack.review.gitref import ref_result
from trainstack.review.markdown import review_markdown
from trainstack.review.report import review_json

ROOT = Path(__file__).resolve().parents[2]
BASE = yaml.safe_load((ROOT / "stacks" / "Pulumi.training-a100.yaml").read_text())["config"]["trainstack:cluster"]


def _side(**job) -> dict:
    cluster = copy.deepcopy(BASE)
    cluster["job"] = {"command": "/fsx/code/train.py --lr 3e-4", "min_nodes": 1, **job}
    return {"resources": [], "outputs": {}, "hours": cluster["hours"], "cluster": cluster}


def test_the_revision_side_carries_its_job_place_and_purchase() -> None:
    before = ref_result(_side(), "training-a100", "main")
    assert before.job is not None and before.job["nodes"] == 2 and before.job["min_nodes"] == 1
    assert (before.provider, before.region, before.zone, before.purchase) == ("aws", "eu-north-1", "eun1-az3", "spot")


def test_a_job_edit_reviewed_against_a_revision_says_what_the_workers_do() -> None:
    before = ref_result(_side(), "training-a100", "main")
    after = ref_result(_side(command="/fsx/code/train.py --lr 1e-4"), "training-a100", "main")
    review = review_json("training-a100", "main", [], before, after, [], None)
    assert review["job"] is not None
    assert review["job"]["job"].startswith(f"the job's program changes (rendezvous id ...-{before.job['id']} -> ")
    assert "**Job:** the job's program changes" in review_markdown(review)


def test_an_unchanged_job_says_so() -> None:
    before, after = ref_result(_side(), "training-a100", "main"), ref_result(_side(), "training-a100", "main")
    review = review_json("training-a100", "main", [], before, after, [], None)
    assert review["job"]["job"] == "unchanged: the same program and rendezvous id on every node"


SAGEMAKER = yaml.safe_load((ROOT / "stacks" / "Pulumi.training-a100-sagemaker.yaml").read_text())["config"][
    "trainstack:cluster"
]


def _managed(**changes) -> dict:
    cluster = copy.deepcopy(SAGEMAKER)
    cluster.update(changes)
    return {"resources": [], "outputs": {}, "hours": cluster["hours"], "cluster": cluster}


def test_a_managed_platform_job_edit_names_the_next_run_not_a_head_or_workers() -> None:
    """SageMaker has no head or rendezvous: the job is submitted by `trainstack run`; a command
    or node-count edit reaches the next run only (a submitted training job is not modified)."""
    before = ref_result(_managed(), "training-a100-sagemaker", "main")
    job = dict(SAGEMAKER["job"], command="train.py --epochs 20")
    after = ref_result(_managed(job=job, nodes=3), "training-a100-sagemaker", "main")
    lines = review_json("training-a100-sagemaker", "main", [], before, after, [], None)["job"]
    assert lines == {
        "job": "the job changes (its program, its nodes (2 -> 3)), but sagemaker runs the job `trainstack run` "
        "submits, not `pulumi up`: a job already submitted keeps what it was submitted with until it ends or is "
        "stopped, and the change takes effect at the next `trainstack run`"
    }
    unchanged = review_json("training-a100-sagemaker", "main", [], before, before, [], None)
    assert unchanged["job"] is None


def test_a_job_moved_between_vms_and_a_platform_says_what_stops_and_what_starts_it() -> None:
    vm = ref_result(_side(), "training-a100", "main")
    managed = ref_result(_managed(), "training-a100-sagemaker", "main")
    to_platform = review_json("s", "main", [], vm, managed, [], None)["job"]
    assert to_platform == {
        "job": "the job moves from the stack's VMs to sagemaker: `pulumi up` deletes the nodes and the job running "
        "on them; start it on sagemaker with `trainstack run`"
    }
    to_vms = review_json("s", "main", [], managed, vm, [], None)["job"]
    assert to_vms == {
        "job": "the job moves from sagemaker to the stack's VMs: a job sagemaker is running keeps running and "
        "billing until it ends or you stop it (`pulumi up` does not hold it); the new nodes start it when they boot"
    }


def test_a_managed_platform_purchase_edit_names_the_next_run() -> None:
    """SageMaker spot -> on-demand: no Pulumi resource changes, the price does; the line says why."""
    before = ref_result(_managed(), "training-a100-sagemaker", "main")
    after = ref_result(_managed(purchase="on-demand"), "training-a100-sagemaker", "main")
    line = review_json("training-a100-sagemaker", "main", [], before, after, [], None)["job"]["job"]
    assert line.startswith("the job changes (its purchase option (spot -> on-demand)), but sagemaker runs the job")
