"""`trainstack resolve --live`: the clouds' live spot answers rank the rows (a low score puts a
row after the rest, as a price outlier is), read from recorded answers in each API's documented
shape (botocore's Stubber for AWS, `responses` for Azure); without credentials one line says so
and the ranking is the offline one."""

from __future__ import annotations

import dataclasses
import json

import pytest
import responses

from profiles.catalog.loader import load_catalog
from profiles.choice.live import LiveScore, key, with_live_scores
from profiles.preflight import aws_signals, azure_signals
from profiles.preflight.finding import PreflightError
from profiles.resolver import resolve
from profiles.spec import load_spec
from tests.aws_live import credentials, stubbed
from tests.cli.helpers import ROOT, run
from trainstack.cli.resolve_live import live_rows

WORKLOAD = ROOT / "profiles" / "workloads" / "training-a100.yaml"


@pytest.fixture(scope="module")
def offline():
    spec = load_spec(WORKLOAD)
    rows = load_catalog(providers=spec.providers or None).offerings
    return spec, rows, resolve(spec, rows, top=5)


def test_a_low_live_score_ranks_the_pick_after_the_rest_and_a_high_one_is_a_note(offline):
    spec, rows, before = offline
    pick, second = before.choice.candidate, before.alternatives[0].candidate
    scores = {
        key(pick): LiveScore("AWS spot placement score 1 of 10 for 2 node(s) (x)", low=True),
        key(second): LiveScore("AWS spot placement score 9 of 10 for 2 node(s) (x)", low=False),
    }
    after = resolve(spec, rows, top=5, live=scores)
    assert after.choice.candidate.offering == second.offering
    assert "live: AWS spot placement score 9 of 10 for 2 node(s) (x)" in after.choice.candidate.notes
    ranked = [c for c in after.candidates if c.purchase == "spot"]
    demoted = next(c for c in ranked if c.offering == pick.offering)
    assert (
        demoted.caveats[-1] == "live: AWS spot placement score 1 of 10 for 2 node(s) (x): unlikely to get capacity now"
    )
    # ranked after every row without a caveat; nothing removed
    assert all(c.caveats for c in ranked[ranked.index(demoted) :])
    assert len(after.candidates) == len(before.candidates)


def test_only_spot_rows_take_a_live_answer(offline):
    _, _, before = offline
    spot = before.choice.candidate
    on_demand = dataclasses.replace(spot, purchase="on-demand")
    low = {key(spot): LiveScore("s", low=True)}
    assert with_live_scores([on_demand], low) == [on_demand]
    assert with_live_scores([spot], {}) == [spot]


def _aws_answers(monkeypatch, asks, low_zone: str):
    """One recorded GetSpotPlacementScores answer per (region, type, nodes) asked, in the order
    `live_scores` asks: every zone asked scores 8, `low_zone` 2."""
    ec2, stub = stubbed("ec2", "us-east-1")
    for region, instance_type, nodes in sorted({(r, t, n) for r, _, t, n in asks}):
        zones = sorted({z for r, z, t, n in asks if (r, t, n) == (region, instance_type, nodes)})
        scores = [{"Region": region, "AvailabilityZoneId": z, "Score": 2 if z == low_zone else 8} for z in zones]
        expected = {
            "InstanceTypes": [instance_type],
            "TargetCapacity": nodes,
            "TargetCapacityUnitType": "units",
            "SingleAvailabilityZone": True,
            "RegionNames": [region],
        }
        stub.add_response("get_spot_placement_scores", {"SpotPlacementScores": scores}, expected)
    monkeypatch.setattr(aws_signals, "client", lambda session, service, region: ec2)
    return stub


def _asks(resolution, top=5):
    return [
        (c.offering.region, c.offering.zone, c.offering.instance_type, c.nodes)
        for c in dict.fromkeys(live_rows(resolution, top))
        if c.purchase == "spot"
    ]


def test_resolve_live_moves_off_a_zone_aws_scores_low(offline, monkeypatch):
    credentials(monkeypatch)
    monkeypatch.setenv("TRAINSTACK_NOW", "2026-12-07T13:10:00Z")
    _, _, before = offline
    pick = before.choice.candidate.offering  # p4d.24xlarge spot in eun1-az3
    stub = _aws_answers(monkeypatch, _asks(before), pick.zone)
    result = run("resolve", str(WORKLOAD), "--live", "--json")
    assert result.exit_code == 0, result.output
    stub.assert_no_pending_responses()
    shown = json.loads(result.stdout)
    assert shown["choice"]["zone"] != pick.zone
    assert [w for w in shown["warnings"] if w.startswith("live:")] == [
        f"live: aws: {len(set(_asks(before)))} spot pool(s) scored; unlikely to fill now, ranked after the rest: "
        f"p4d.24xlarge in {pick.zone}"
    ]
    assert shown["choice"]["notes"][-1] == (
        "live: AWS spot placement score 8 of 10 for 2 node(s) (GetSpotPlacementScores, 2026-12-07 13:10 UTC)"
    )


def test_resolve_live_without_credentials_says_so_and_ranks_offline(offline, monkeypatch):
    credentials(monkeypatch, present=False)
    _, _, before = offline
    result = run("resolve", str(WORKLOAD), "--live", "--json")
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)
    assert shown["choice"]["zone"] == before.choice.candidate.offering.zone
    assert [w for w in shown["warnings"] if w.startswith("live:")] == [
        "live: aws: no AWS credentials; run `aws configure` or `aws sso login`, or set AWS_PROFILE; its rows rank offline"
    ]


@responses.activate
def test_azure_live_scores_one_request_per_region_and_count(monkeypatch):
    monkeypatch.setenv("AZURE_ACCESS_TOKEN", "t")
    monkeypatch.setenv("AZURE_SUBSCRIPTION_ID", "sub-1")
    monkeypatch.setenv("TRAINSTACK_NOW", "2026-12-07T13:10:00Z")
    url = "https://management.azure.com/subscriptions/sub-1/providers/Microsoft.Compute/locations/eastus/placementScores/spot/generate"
    rows = [
        {"sku": "Standard_ND96isr_H100_v5", "region": "eastus", "score": "Low", "isQuotaAvailable": True},
        {"sku": "Standard_ND96amsr_A100_v4", "region": "eastus", "score": "High", "isQuotaAvailable": True},
    ]
    responses.post(url, json={"placementScores": rows})
    asks = [("eastus", "eastus", "Standard_ND96isr_H100_v5", 2), ("eastus", "eastus", "Standard_ND96amsr_A100_v4", 2)]
    found = azure_signals.live_scores(asks)
    assert found[("eastus", "Standard_ND96isr_H100_v5")].low is True
    assert found[("eastus", "Standard_ND96amsr_A100_v4")] == LiveScore(
        "Azure spot placement score High for 2 node(s) (placementScores/spot/generate, 2026-12-07 13:10 UTC)", False
    )
    assert len(responses.calls) == 1
    assert json.loads(responses.calls[0].request.body)["desiredSizes"] == [
        {"sku": "Standard_ND96isr_H100_v5"},
        {"sku": "Standard_ND96amsr_A100_v4"},
    ]


def test_azure_live_without_credentials_raises_one_line(monkeypatch):
    monkeypatch.delenv("AZURE_ACCESS_TOKEN", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")  # no az
    with pytest.raises(PreflightError, match="no Azure credentials"):
        azure_signals.live_scores([("eastus", "eastus", "Standard_ND96isr_H100_v5", 2)])
