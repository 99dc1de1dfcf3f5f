"""TPU slices a smaller queued-resource stack stops requesting: the review says they keep running
(the controller never deletes a running slice; `pulumi up` does not hold them)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.clusters import example_config
from trainstack.plan.cluster_lines import requested_outside
from trainstack.plan.result import PlanResult
from trainstack.review.markdown import review_markdown
from trainstack.review.report import review_json

QUEUED = {"queued_resource": True, "purchase": "spot"}


@pytest.mark.parametrize(
    ("name", "changes", "ids"),
    [
        pytest.param("gcp-tpu", {**QUEUED, "nodes": 3}, ("s-tpu-0", "s-tpu-1", "s-tpu-2"), id="queued-slices"),
        pytest.param("gcp-tpu", {"queued_resource": False}, (), id="tpu-vms-in-the-stack"),
        pytest.param("gcp", {}, (), id="gpu-vms"),
        pytest.param("aws", {}, (), id="another-cloud"),
    ],
)
def test_what_a_stack_keeps_requested_outside_its_state(name: str, changes: dict, ids: tuple) -> None:
    assert requested_outside(example_config(name, **changes), "s") == ids


def test_an_older_revisions_cluster_without_the_field_requests_nothing_outside() -> None:
    class Old:  # a cluster model from before `queued_resource`
        provider, nodes = "gcp", 2

    assert requested_outside(Old(), "s") == ()


def _plan(ids: tuple[str, ...], usd: float, zone: str = "us-east5-a", spec: str = "tpu-v5p-32 spot") -> PlanResult:
    return PlanResult(
        [], usd, usd * 10, {}, hours=10.0, zone=zone, requested_outside=ids, requested_spec=spec if ids else ""
    )


def _review(before: tuple[str, ...], after: tuple[str, ...]) -> dict[str, Any]:
    return review_json("s", "HEAD", [], _plan(before, 40.0), _plan(after, 20.0), [], None)


def test_a_smaller_queued_stack_names_the_slices_left_running_and_how_to_delete_them() -> None:
    review = _review(("s-tpu-0", "s-tpu-1", "s-tpu-2", "s-tpu-3"), ("s-tpu-0", "s-tpu-1"))
    assert review["left_running"] == {"ids": ["s-tpu-2", "s-tpu-3"], "zone": "us-east5-a"}
    text = review_markdown(review)
    assert "> ⚠️ **2 TPU slices left running:** `s-tpu-2`, `s-tpu-3` are no longer requested in us-east5-a" in text
    assert "they keep running and billing, and are not in the after price" in text
    assert "gcloud compute tpus queued-resources delete ID --zone us-east5-a --force" in text


@pytest.mark.parametrize(
    ("before", "after"),
    [
        pytest.param(("s-tpu-0",), ("s-tpu-0", "s-tpu-1"), id="more-slices"),
        pytest.param(("s-tpu-0",), ("s-tpu-0",), id="same-slices"),
        pytest.param((), (), id="no-queued-slices"),
    ],
)
def test_no_slice_left_running_when_none_stops_being_requested(before: tuple, after: tuple) -> None:
    review = _review(before, after)
    assert review["left_running"] is None and "left running" not in review_markdown(review)


def test_a_new_stack_leaves_nothing_running() -> None:
    review = review_json("s", None, [], None, _plan(("s-tpu-0",), 20.0), [], None)
    assert review["left_running"] is None


def test_the_old_revisions_slices_come_from_its_stack_as_planned_at_that_revision(monkeypatch, tmp_path) -> None:
    # `plan --against`: the old revision plans in a child that prints its resources and cluster
    # as JSON; the slices its controller requested are read from that cluster with today's rule.
    import json
    import subprocess

    from tests.clusters import example
    from trainstack.review import gitref

    old = example("gcp-tpu", **QUEUED, nodes=4)
    answer = json.dumps({"resources": [], "outputs": {}, "hours": 72, "cluster": old})
    done = subprocess.CompletedProcess([], 0, stdout=answer, stderr="")
    monkeypatch.setattr(gitref, "run_ref_process", lambda *args: done)
    result = gitref._plan_in_subprocess("s", tmp_path / "old", "HEAD~1", [])
    assert result.requested_outside == ("s-tpu-0", "s-tpu-1", "s-tpu-2", "s-tpu-3")
    assert (result.zone, result.region) == ("us-east5-a", "us-east5")


def test_a_queued_stack_moved_to_another_zone_leaves_every_old_slice_running() -> None:
    """The new controller requests the same ids in the new zone; the old zone's slices are no
    one's to delete (the old controller is gone, `pulumi up` never held them)."""
    ids = ("s-tpu-0", "s-tpu-1")
    review = review_json("s", "HEAD", [], _plan(ids, 40.0), _plan(ids, 40.0, zone="us-central1-a"), [], None)
    assert review["left_running"] == {"ids": ["s-tpu-0", "s-tpu-1"], "zone": "us-east5-a"}
    assert review["kept_as_before"] is None
    text = review_markdown(review)
    assert "gcloud compute tpus queued-resources delete ID --zone us-east5-a --force" in text
    assert "`s-tpu-0`, `s-tpu-1` are no longer requested in us-east5-a" in text
    one = review_json("s", "HEAD", [], _plan(ids[:1], 20.0), _plan(ids[:1], 20.0, zone="us-central1-a"), [], None)
    assert "**1 TPU slice left running:** `s-tpu-0` is no longer requested in us-east5-a" in review_markdown(one)
    assert "it keeps running and billing, and is not in the after price" in review_markdown(one)


@pytest.mark.parametrize(
    ("before", "after", "kept"),
    [
        pytest.param("tpu-v5p-32 spot", "tpu-v5p-32 on-demand", ["s-tpu-0"], id="spot-to-on-demand"),
        pytest.param("tpu-v5p-32 spot", "tpu-v5p-64 spot", ["s-tpu-0"], id="bigger-slices"),
        pytest.param("tpu-v5p-32 spot", "tpu-v5p-32 spot", None, id="same-request"),
    ],
)
def test_slices_whose_request_changes_keep_running_as_they_were(before: str, after: str, kept: list | None) -> None:
    """The controller keeps an ACTIVE queued resource (nodeagent.gcp_queued.action): a new type
    or purchase option reaches a running slice only when it is re-created."""
    old, new = _plan(("s-tpu-0",), 13.37, spec=before), _plan(("s-tpu-0", "s-tpu-1"), 67.53, spec=after)
    review = review_json("s", "HEAD", [], old, new, [], None)
    expected = {"ids": kept, "zone": "us-east5-a", "before": before, "after": after} if kept else None
    assert review["kept_as_before"] == expected
    text = review_markdown(review)
    assert (f"> ⚠️ **1 TPU slice keeps running as {before}:** `s-tpu-0` is requested as {after}" in text) is bool(kept)
    assert (f"The after price is for {after}." in text) is bool(kept)


@pytest.mark.parametrize(
    ("changes", "spec"),
    [
        pytest.param({**QUEUED, "nodes": 2}, "tpu-v5p-8 spot", id="queued-spot"),
        pytest.param({"queued_resource": False}, "", id="tpu-vms-in-the-stack"),
    ],
)
def test_the_request_is_the_type_and_purchase_option(changes: dict, spec: str) -> None:
    from trainstack.plan.cluster_lines import requested_spec

    config = example_config("gcp-tpu", **changes)
    assert requested_spec(config, "s") == (spec and f"{config.instance_type} spot")
