"""Capacity signals of `trainstack check` read from recorded answers in each API's documented
shape (tests/fixtures/capacity/README.md): pure readers as tables, the fetch paths through
botocore's Stubber (AWS) and `responses` (Azure, GCP REST)."""

from __future__ import annotations

import json

import pytest
import responses

from clouds.contract import ClusterConfig
from profiles.preflight import aws_signals, azure_signals, gcp_signals
from profiles.preflight.finding import PreflightError
from tests.aws_live import stubbed
from tests.cli.helpers import ROOT
from tests.clusters import BASE_CLUSTER

ANSWERS = ROOT / "tests" / "fixtures" / "capacity"


def answer(name: str) -> dict:
    return json.loads((ANSWERS / name).read_text())


def _aws(**overrides) -> ClusterConfig:
    fields = {
        **BASE_CLUSTER,
        "region": "eu-north-1",
        "zone": "eun1-az3",
        "nodes": 2,
        "purchase": "spot",
        "hours": 72.03,
    }
    return ClusterConfig.model_validate({**fields, **overrides})


@pytest.mark.parametrize(
    ("hours", "block"),
    [(0.5, 24), (24, 24), (24.01, 48), (72.03, 96), (336, 336), (337, 504), (4368, 4368), (9000, 4368)],
)
def test_block_hours_are_whole_days_then_whole_weeks(hours, block):
    assert aws_signals.block_hours(hours) == block


@pytest.mark.parametrize(
    ("zone", "status", "text"),
    [
        ("eun1-az3", "unknown", "AWS spot placement score 2 of 10 in eun1-az3; best zones: eun1-az1 9, eun1-az2 6"),
        ("eun1-az2", "info", "score 6 of 10 in eun1-az2; best zones: eun1-az1 9"),
        ("eun1-az1", "ok", "score 9 of 10 in eun1-az1; best zones: eun1-az2 6"),
    ],
)
def test_spot_score_in_the_stacks_zone(zone, status, text):
    found = aws_signals.placement_finding(_aws(zone=zone), answer("aws-spot-placement-scores.json"))
    assert (found.check, found.status) == ("spot-score", status)
    assert found.detail.startswith("2 x spot p4d.24xlarge in one zone of eu-north-1: ") and text in found.detail


def test_a_zone_aws_does_not_score_is_said():
    found = aws_signals.placement_finding(_aws(zone="eun1-az3"), {"SpotPlacementScores": []})
    assert found.status == "unknown" and "AWS scores 0 zones and eun1-az3 is not among them" in found.detail


def test_aws_signals_ask_for_the_groups_types_and_the_jobs_block():
    ec2, stub = stubbed("ec2", "eu-north-1")
    cluster = _aws(fallback_types=["p4de.24xlarge"])
    stub.add_response(
        "get_spot_placement_scores",
        answer("aws-spot-placement-scores.json"),
        {
            "InstanceTypes": ["p4d.24xlarge", "p4de.24xlarge"],
            "TargetCapacity": 2,
            "TargetCapacityUnitType": "units",
            "SingleAvailabilityZone": True,
            "RegionNames": ["eu-north-1"],
        },
    )
    for alone, zone_score in (("p4d.24xlarge", 2), ("p4de.24xlarge", 1)):  # each type alone, rank order
        scores = {
            "SpotPlacementScores": [{"Region": "eu-north-1", "AvailabilityZoneId": "eun1-az3", "Score": zone_score}]
        }
        stub.add_response(
            "get_spot_placement_scores",
            scores,
            {
                "InstanceTypes": [alone],
                "TargetCapacity": 2,
                "TargetCapacityUnitType": "units",
                "SingleAvailabilityZone": True,
                "RegionNames": ["eu-north-1"],
            },
        )
    stub.add_response(
        "describe_capacity_block_offerings",
        answer("aws-capacity-block-offerings.json"),
        {"InstanceType": "p4d.24xlarge", "InstanceCount": 2, "CapacityDurationHours": 96},
    )
    score, block = aws_signals.read_signals(cluster, ec2)
    stub.assert_no_pending_responses()
    assert score.detail.startswith("2 x spot p4d.24xlarge, p4de.24xlarge in one zone of eu-north-1")
    assert "; each type alone in eun1-az3: p4d.24xlarge 2, p4de.24xlarge 1 (not likely" in score.detail
    assert block.detail == (
        "2 x p4d.24xlarge for 96 h: 2 Capacity Block offering(s); earliest from 2026-12-10 11:30 UTC in "
        "eu-north-1b: USD 2,832.00 up front, $29.50/hour for the cluster (the stack records $20.50/hour)"
    )
    assert "--capacity-block-offering-id cb-0a1b2c3d4e5f60718" in block.fix


def test_a_denied_signal_is_unknown_and_the_rest_stands():
    ec2, stub = stubbed("ec2", "eu-north-1")
    stub.add_client_error("get_spot_placement_scores", service_error_code="UnauthorizedOperation", http_status_code=403)
    stub.add_response("describe_capacity_block_offerings", {"CapacityBlockOfferings": []})
    score, block = aws_signals.read_signals(_aws(), ec2)
    assert score.status == "unknown" and "AWS denied ec2:GetSpotPlacementScores in eu-north-1" in score.detail
    assert block.detail == "2 x p4d.24xlarge for 96 h: AWS offers no Capacity Block in eu-north-1 now"


def test_on_demand_stacks_get_no_spot_score_and_reserved_ones_no_block():
    ec2, stub = stubbed("ec2", "eu-north-1")
    stub.add_response("describe_capacity_block_offerings", {"CapacityBlockOfferings": []})
    assert [f.check for f in aws_signals.read_signals(_aws(purchase="on-demand"), ec2)] == ["capacity-block"]
    reserved = _aws(purchase="on-demand", reservation={"id": "cr-0123456789abcdef0", "kind": "capacity-reservation"})
    assert aws_signals.read_signals(reserved, ec2) == []


def _azure(**overrides) -> ClusterConfig:
    fields = {
        "provider": "azure",
        "region": "eastus",
        "zone": "eastus",
        "instance_type": "Standard_ND96isr_H100_v5",
        "accelerator": "H100",
        "accelerator_count": 8,
        "nodes": 2,
        "purchase": "spot",
        "interconnect": "rdma",
        "hours": 72.0,
    }
    return ClusterConfig.model_validate({**fields, **overrides})


@pytest.mark.parametrize(
    ("score", "quota", "status"),
    [
        ("High", True, "ok"),
        ("Medium", True, "info"),
        ("Low", True, "unknown"),
        ("High", False, "unknown"),
        ("DataNotFoundOrStale", True, "unknown"),
        ("RestrictedSkuNotAvailable", True, "unknown"),
    ],
)
def test_azure_score_table(score, quota, status):
    rows = [{"sku": "Standard_ND96isr_H100_v5", "region": "eastus", "score": score, "isQuotaAvailable": quota}]
    found = azure_signals.score_finding(_azure(), {"placementScores": rows})
    assert found.status == status and f"Azure spot placement score {score}" in found.detail
    assert ("Spot vCPU quota does not cover it" in found.detail) is (not quota)


def test_azure_zonal_stack_reads_its_zone_only():
    rows = [
        {"sku": "Standard_ND96isr_H100_v5", "region": "eastus", "availabilityZone": "1", "score": "Low"},
        {"sku": "Standard_ND96isr_H100_v5", "region": "eastus", "availabilityZone": "2", "score": "High"},
    ]
    found = azure_signals.score_finding(_azure(zone="2"), {"placementScores": rows})
    assert found.status == "ok" and found.detail.startswith("2 x Spot Standard_ND96isr_H100_v5 in zone 2 of eastus")
    assert azure_signals.request_body(_azure(zone="2"))["availabilityZones"] is True


@responses.activate
def test_azure_signal_posts_the_documented_request(monkeypatch):
    monkeypatch.setenv("AZURE_ACCESS_TOKEN", "t")
    monkeypatch.setenv("AZURE_SUBSCRIPTION_ID", "sub-1")
    url = (
        "https://management.azure.com/subscriptions/sub-1/providers/Microsoft.Compute/locations/eastus/"
        "placementScores/spot/generate"
    )
    responses.post(url, json=answer("azure-spot-placement-scores.json"))
    [found] = azure_signals.signals(_azure(), {})
    assert found.status == "unknown" and "Azure spot placement score Low" in found.detail
    sent = json.loads(responses.calls[0].request.body)
    assert sent == {
        "desiredLocations": ["eastus"],
        "desiredSizes": [{"sku": "Standard_ND96isr_H100_v5"}],
        "desiredCount": 2,
        "availabilityZones": False,
    }
    assert responses.calls[0].request.url.endswith("?api-version=2025-06-05")
    assert azure_signals.signals(_azure(purchase="on-demand"), {}) == []


@responses.activate
def test_azure_signal_without_the_role_is_one_unknown_line(monkeypatch):
    monkeypatch.setenv("AZURE_ACCESS_TOKEN", "t")
    monkeypatch.setenv("AZURE_SUBSCRIPTION_ID", "sub-1")
    error = {"error": {"code": "AuthorizationFailed", "message": "The client does not have authorization."}}
    responses.post(
        "https://management.azure.com/subscriptions/sub-1/providers/Microsoft.Compute/locations/eastus/"
        "placementScores/spot/generate",
        json=error,
        status=403,
    )
    [found] = azure_signals.signals(_azure(), {})
    assert (
        found.status == "unknown"
        and "(403): AuthorizationFailed: The client does not have authorization." in found.detail
    )


def _gcp(**overrides) -> ClusterConfig:
    fields = {
        "provider": "gcp",
        "region": "europe-north1",
        "zone": "europe-north1-c",
        "instance_type": "a3-highgpu-8g",
        "accelerator": "H100",
        "accelerator_count": 8,
        "nodes": 2,
        "purchase": "spot",
        "interconnect": "rdma",
        "hours": 72.0,
    }
    return ClusterConfig.model_validate({**fields, **overrides})


@responses.activate
def test_gcp_reservations_of_the_stacks_type_in_its_zone(monkeypatch):
    monkeypatch.setenv("GOOGLE_OAUTH_ACCESS_TOKEN", "t")
    url = "https://compute.googleapis.com/compute/v1/projects/from-stack/zones/europe-north1-c/reservations"
    responses.get(url, json=answer("gcp-reservations.json"))
    [found] = gcp_signals.signals(_gcp(), {"gcp:project": "from-stack"})
    assert found.detail == "a3-highgpu-8g in europe-north1-c: reservations a3-hold (1 of 2 a3-highgpu-8g free)"
    none = gcp_signals.reservation_finding(
        _gcp(instance_type="a2-highgpu-8g", accelerator="A100"), answer("gcp-reservations.json")["items"]
    )
    assert "the project holds no reservation" in none.detail


@pytest.mark.parametrize(
    ("read", "cluster", "text"),
    [
        pytest.param(gcp_signals.signals, _gcp, "no GCP credentials: gcloud is not installed", id="gcp"),
        pytest.param(azure_signals.signals, _azure, "no Azure credentials: az is not installed", id="azure"),
    ],
)
def test_without_credentials_the_signal_cannot_run(monkeypatch, tmp_path, read, cluster, text):
    """Missing credentials stop the live check (`check` exits 1, tests/cli/test_check_credentials.py);
    only a call the cloud refuses is an `unknown` line."""
    for name in ("GOOGLE_OAUTH_ACCESS_TOKEN", "AZURE_ACCESS_TOKEN", "AZURE_SUBSCRIPTION_ID"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # neither gcloud nor az
    with pytest.raises(PreflightError, match=f"^{text} \\(not on PATH\\); log in with"):
        read(cluster(), {})
