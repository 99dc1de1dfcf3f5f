"""A flex-start GCP stack's capacity signal: `status` reads its MIG resize requests (Compute
Engine API v1 `instanceGroupManagerResizeRequests.list`, a recorded answer in the API's format,
served over HTTP by `responses`) and says whether the request still waits for capacity and why;
`check` says that Google answers nothing before a request is made."""

from __future__ import annotations

import json

import pytest
import responses

from profiles.preflight import gcp_api
from profiles.preflight.gcp_signals import signals
from tests.cli.helpers import ROOT
from tests.components.gcp.gcp_harness import make_config
from trainstack.status.gcp_live import groups_status
from trainstack.status.read import gcp_resize_request

ANSWERS = ROOT / "tests" / "fixtures" / "status"
RECORDED = json.loads((ANSWERS / "gcp-resize-requests.json").read_text())["items"][0]
WAITING = (
    "flexdemo-flex: 0 of 2 running; latest error (2026-12-07T04:40:12.118-08:00): ZONE_RESOURCE_POOL_EXHAUSTED "
    "(capacity): The zone 'projects/p/zones/us-central1-a' does not have enough resources available to fulfill "
    "the request. Try a different zone, or try again later. (its last attempt; the ACCEPTED request waits for "
    "capacity for all 2 nodes)"
)
QUOTA = {"errors": [{"code": "QUOTA_EXCEEDED", "message": "Quota 'PREEMPTIBLE_NVIDIA_A100_GPUS' exceeded."}]}


@pytest.mark.parametrize(
    ("changes", "line", "kind"),
    [
        pytest.param({}, WAITING, "capacity", id="accepted-after-a-failed-attempt"),
        pytest.param(
            {"status": {}},
            "flexdemo-flex: 0 of 2 running; latest error (2026-12-07T04:40:12.118-08:00): the ACCEPTED request "
            "waits for capacity for all 2 nodes (no failed attempt recorded)",
            None,
            id="accepted-fresh",
        ),
        pytest.param(
            {"state": "SUCCEEDED", "status": {}}, "flexdemo-flex: 2 of 2 running; no failed scaling", None, id="created"
        ),
        pytest.param(
            {"state": "FAILED", "status": {"error": QUOTA}},
            "flexdemo-flex: 0 of 2 running; latest error (2026-12-07T04:40:12.118-08:00): QUOTA_EXCEEDED (quota): "
            "Quota 'PREEMPTIBLE_NVIDIA_A100_GPUS' exceeded. (the request FAILED: no retry)",
            "quota",
            id="failed-on-quota",
        ),
        pytest.param(
            {"state": "CANCELLED", "status": {}},
            "flexdemo-flex: 0 of 2 running; latest error (2026-12-07T04:40:12.118-08:00): CANCELLED: the flex-start "
            "request creates no nodes",
            None,
            id="cancelled",
        ),
    ],
)
def test_each_resize_request_state_is_read(changes: dict, line: str, kind: str | None) -> None:
    status = gcp_resize_request({**RECORDED, **changes}, "gcp")
    assert status.line() == line
    assert (status.failure.kind if status.failure else None) == kind


@responses.activate
def test_status_of_a_flex_start_stack_reads_its_groups_requests() -> None:
    where = "projects/p/zones/us-central1-a"
    api = f"https://compute.googleapis.com/compute/v1/{where}/instanceGroupManagers"
    group = {"name": "flexdemo-nodes-4b5c6d7", "targetSize": 0, "currentActions": {"none": 0}}
    responses.get(api, json={"items": [group]})
    responses.get(f"{api}/flexdemo-nodes-4b5c6d7/listErrors", json={})
    responses.get(
        f"{api}/flexdemo-nodes-4b5c6d7/resizeRequests",
        json=json.loads((ANSWERS / "gcp-resize-requests.json").read_text()),
    )
    found = groups_status(lambda path: gcp_api.listed(path, "token-1"), where, "flexdemo", "gcp", flex_start=True)
    assert [s.line() for s in found] == ["flexdemo-nodes-4b5c6d7: 0 of 0 running; no failed scaling", WAITING]
    assert len(responses.calls) == 3


def test_check_says_no_flex_start_availability_is_published_before_a_request() -> None:
    cluster = make_config(purchase="on-demand", flex_start=True, hours=20)
    (finding,) = signals(cluster, {})  # no credentials asked, no API called: nothing answers this
    assert (finding.check, finding.status) == ("flex-start", "info")
    assert "publishes no flex-start availability before a request is made" in finding.detail
    assert "trainstack status" in finding.fix
