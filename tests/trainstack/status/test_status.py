"""`trainstack status` reads nodes running vs asked and the latest capacity error: AWS groups from
moto (its DescribeScalingActivities answers no activities, so the failed launch is a recorded
answer in the API's format), GCP and Azure from recorded answers in their REST APIs' formats,
served over HTTP by `responses` (the request paths asserted)."""

from __future__ import annotations

import json
import shutil

import boto3
import pytest
import responses
import yaml
from moto import mock_aws

from tests.aws_live import registered_image
from tests.cli.helpers import ROOT, one_error_line, run
from trainstack.status.aws_live import groups_status
from trainstack.status.gcp_live import is_node_group, scope
from trainstack.status.read import aws_group, azure_scale_set, gcp_group, tpu_slice

ANSWERS = ROOT / "tests" / "fixtures" / "status"


def _answer(name: str) -> dict:
    return json.loads((ANSWERS / name).read_text())


def test_aws_latest_failed_activity_is_read_with_its_code() -> None:
    group = {
        "AutoScalingGroupName": "train-nodes-0a1b2c3",
        "DesiredCapacity": 2,
        "Instances": [
            {"InstanceId": "i-1", "LifecycleState": "InService", "HealthStatus": "Healthy"},
            {"InstanceId": "i-2", "LifecycleState": "Pending", "HealthStatus": "Healthy"},
        ],
    }
    status = aws_group(group, _answer("aws-activities-spot-short.json"), "aws")
    assert (status.asked, status.running) == (2, 1)
    assert status.failure is not None and (status.failure.kind, status.failure.code) == (
        "capacity",
        "InsufficientInstanceCapacity",
    )
    assert status.when == "2026-12-07T05:10:04.501Z"
    assert status.line().startswith(
        "train-nodes-0a1b2c3: 1 of 2 running; latest error (2026-12-07T05:10:04.501Z): "
        "InsufficientInstanceCapacity (capacity): Could not launch Spot Instances."
    )


def test_gcp_newest_instance_error_and_running_vms() -> None:
    status = gcp_group(_answer("gcp-mig.json"), _answer("gcp-list-errors.json"), "gcp")
    assert (status.name, status.asked, status.running) == ("train-nodes-9f8e7d6", 2, 0)
    assert status.failure.code == "ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS" and status.failure.kind == "capacity"
    assert status.when == "2026-12-07T05:12:09.312-08:00"
    assert (
        gcp_group(_answer("gcp-mig.json"), {}, "gcp").line() == "train-nodes-9f8e7d6: 0 of 2 running; no failed scaling"
    )


def test_azure_instance_view_allocation_failure() -> None:
    status = azure_scale_set(_answer("azure-vmss.json"), _answer("azure-instance-view.json"), "azure")
    assert (status.asked, status.running) == (2, 1)
    assert status.failure.code == "AllocationFailed"


@mock_aws
def test_aws_groups_of_the_cluster_from_moto_and_the_cli_line(tmp_path, monkeypatch) -> None:
    region = "eu-north-1"  # the committed training-a100 stack's region
    ec2 = boto3.client("ec2", region_name=region)
    ami = registered_image(ec2, monkeypatch)
    ec2.create_launch_template(
        LaunchTemplateName="node-lt", LaunchTemplateData={"ImageId": ami, "InstanceType": "m5.large"}
    )
    asg = boto3.client("autoscaling", region_name=region)
    for name, cluster, size in (("train-nodes-0a1b2c3", "train", 2), ("other-nodes-1", "other", 1)):
        asg.create_auto_scaling_group(
            AutoScalingGroupName=name,
            LaunchTemplate={"LaunchTemplateName": "node-lt", "Version": "$Latest"},
            MinSize=size,
            MaxSize=size,
            DesiredCapacity=size,
            AvailabilityZones=[f"{region}a"],
            Tags=[{"Key": "trainstack:cluster", "Value": cluster, "PropagateAtLaunch": True}],
        )
    [status] = groups_status(asg, "train", "aws")
    assert (status.name, status.asked, status.running, status.error) == ("train-nodes-0a1b2c3", 2, 2, None)
    # the CLI on an AWS stack: one line per group, exit 0 when every group is full
    for name in ("__main__.py", "Pulumi.yaml"):
        shutil.copy(ROOT / name, tmp_path)
    (tmp_path / "stacks").mkdir()
    shutil.copy(ROOT / "stacks" / "Pulumi.training-a100.yaml", tmp_path / "stacks" / "Pulumi.train.yaml")
    monkeypatch.setenv("AWS_DEFAULT_REGION", region)
    result = run("status", "-s", "train", "--project-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == ["train-nodes-0a1b2c3: 2 of 2 running; no failed scaling"]
    # renamed as the README says (the resources keep the name under trainstack:previous_names):
    # status follows the cluster's name, as `run` does, not the new stack name
    document = yaml.safe_load((tmp_path / "stacks" / "Pulumi.train.yaml").read_text())
    document["config"]["trainstack:previous_names"] = ["train"]
    (tmp_path / "stacks" / "Pulumi.renamed.yaml").write_text(yaml.safe_dump(document))
    result = run("status", "-s", "renamed", "--project-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == ["train-nodes-0a1b2c3: 2 of 2 running; no failed scaling"]


def _project(tmp_path, stack: str):
    for name in ("__main__.py", "Pulumi.yaml"):
        shutil.copy(ROOT / name, tmp_path)
    (tmp_path / "stacks").mkdir()
    shutil.copy(ROOT / "stacks" / stack, tmp_path / "stacks" / "Pulumi.train.yaml")
    return str(tmp_path)


def test_status_on_a_cloud_without_a_live_reading_says_so(tmp_path) -> None:
    folder = _project(tmp_path, "Pulumi.training-a100-alicloud.yaml")
    one_error_line(run("status", "-s", "train", "--project-dir", folder), "not built yet", code=1)


@pytest.mark.parametrize(
    ("group", "ours"),
    [
        ("train-nodes-9f8e7d6", True),
        ("train-nodes-on-demand", True),
        ("train-nodes", True),
        ("train2-nodes-0a0b0c0", False),
        ("train-nodes-on-demand-extra", False),
        ("other-train-nodes-9f8e7d6", False),
    ],
)
def test_gcp_node_groups_are_found_by_their_names(group, ours) -> None:
    assert is_node_group("train", group) is ours


@responses.activate
def test_gcp_status_reads_the_zonal_groups_and_their_errors(tmp_path, monkeypatch) -> None:
    """The committed GCP stack (spot, one zone): its group and its on-demand side, not another cluster's."""
    monkeypatch.setenv("GOOGLE_OAUTH_ACCESS_TOKEN", "token-1")
    monkeypatch.setenv("GOOGLE_PROJECT", "p")
    where = "https://compute.googleapis.com/compute/v1/projects/p/zones/europe-north1-c/instanceGroupManagers"
    responses.get(where, json=_answer("gcp-mig-list.json"))
    responses.get(f"{where}/train-nodes-9f8e7d6/listErrors", json=_answer("gcp-list-errors.json"))
    responses.get(f"{where}/train-nodes-on-demand/listErrors", json={})
    result = run("status", "-s", "train", "--project-dir", _project(tmp_path, "Pulumi.training-a3-gcp.yaml"))
    assert result.exit_code == 1, result.output  # one group runs fewer nodes than asked
    assert result.stdout.splitlines() == [
        "train-nodes-9f8e7d6: 1 of 2 running; latest error (2026-12-07T05:12:09.312-08:00): "
        "ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS (capacity): The zone "
        "'projects/p/zones/us-central1-a' does not have enough resources available to fulfill the request. "
        "'(resource type:compute)'.",
        "train-nodes-on-demand: 0 of 0 running; no failed scaling",
    ]
    assert all(call.request.headers["Authorization"] == "Bearer token-1" for call in responses.calls)


@responses.activate
def test_gcp_status_refused_is_one_line(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("GOOGLE_OAUTH_ACCESS_TOKEN", "expired")
    monkeypatch.setenv("GOOGLE_PROJECT", "p")
    error = {
        "error": {
            "code": 401,
            "message": "Request had invalid authentication credentials.",
            "status": "UNAUTHENTICATED",
        }
    }
    where = "https://compute.googleapis.com/compute/v1/projects/p/zones/europe-north1-c/instanceGroupManagers"
    responses.get(where, json=error, status=401)
    result = run("status", "-s", "train", "--project-dir", _project(tmp_path, "Pulumi.training-a3-gcp.yaml"))
    one_error_line(result, "(401): UNAUTHENTICATED: Request had invalid authentication credentials.", code=1)
    assert "gcloud auth login" in result.stderr


@responses.activate
def test_azure_status_reads_the_tagged_scale_set_and_its_instance_view(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("AZURE_ACCESS_TOKEN", "token-2")
    monkeypatch.setenv("AZURE_SUBSCRIPTION_ID", "00000000-0000-0000-0000-000000000000")
    arm = "https://management.azure.com/subscriptions/00000000-0000-0000-0000-000000000000"
    responses.get(f"{arm}/providers/Microsoft.Compute/virtualMachineScaleSets", json=_answer("azure-vmss-list.json"))
    responses.get(
        f"{arm}/resourceGroups/train-rg9d8c7b6/providers/Microsoft.Compute/virtualMachineScaleSets/"
        "train-nodes4e5f6a7/instanceView",
        json=_answer("azure-instance-view.json"),
    )
    result = run("status", "-s", "train", "--project-dir", _project(tmp_path, "Pulumi.training-h100-azure.yaml"))
    assert result.exit_code == 1, result.output
    assert result.stdout.splitlines() == [
        "train-nodes4e5f6a7: 1 of 2 running; latest error (2026-12-07T05:20:31.5+00:00): AllocationFailed "
        "(capacity): ProvisioningState/failed/AllocationFailed: Allocation failed. We do not have sufficient "
        "capacity for the requested VM size in this region. Read more about improving likelihood of allocation "
        "success at http://aka.ms/allocation-guidance"
    ]
    assert [c.request.url.split("api-version=")[1] for c in responses.calls] == ["2024-11-01", "2024-11-01"]


@responses.activate
def test_azure_flexible_scale_set_is_read_from_its_vms(monkeypatch) -> None:
    """A Flexible scale set answers no instance view: its VMs' statuses are listed, filtered to it."""
    from types import SimpleNamespace

    from trainstack.status import azure_live

    monkeypatch.setenv("AZURE_ACCESS_TOKEN", "token-3")
    monkeypatch.setenv("AZURE_SUBSCRIPTION_ID", "00000000-0000-0000-0000-000000000000")
    compute = (
        "https://management.azure.com/subscriptions/00000000-0000-0000-0000-000000000000/providers/Microsoft.Compute"
    )
    responses.get(f"{compute}/virtualMachineScaleSets", json=_answer("azure-vmss-list.json"))
    responses.get(f"{compute}/virtualMachines", json=_answer("azure-vm-list-flexible.json"))
    [status] = azure_live.status(SimpleNamespace(provider="azure"), "flex", {})  # type: ignore[arg-type]
    assert (status.name, status.asked, status.running) == ("flex-nodes1a2b3c4", 3, 1)
    assert status.failure is not None and status.failure.code == "SkuNotAvailable"
    assert status.when == "2026-12-07T05:04:40.1+00:00"
    sent = responses.calls[1].request
    assert sent.params == {
        "api-version": "2024-11-01",
        "statusOnly": "true",
        "$filter": "virtualMachineScaleSet/id eq '/subscriptions/00000000-0000-0000-0000-000000000000/"
        "resourceGroups/flex-rg5e6f7a8/providers/Microsoft.Compute/virtualMachineScaleSets/flex-nodes1a2b3c4'",
    }


def test_gcp_groups_with_fallback_types_are_regional() -> None:
    """A cluster with `fallback_types` has a regional group (instance flexibility) kept to its zone."""
    from clouds.contract import ClusterConfig
    from tests.clusters import BASE_CLUSTER

    fields = {**BASE_CLUSTER, "provider": "gcp", "region": "europe-north1", "zone": "europe-north1-c"}
    fields |= {"instance_type": "a2-highgpu-8g", "accelerator": "A100", "interconnect": "none"}
    zonal = ClusterConfig.model_validate(fields)
    assert scope(zonal, "p") == "projects/p/zones/europe-north1-c"
    regional = zonal.model_copy(update={"fallback_types": ("a2-ultragpu-8g",)})
    assert scope(regional, "p") == "projects/p/regions/europe-north1"


@pytest.mark.parametrize(
    ("state", "running", "text"),
    [
        ({"state": "ACTIVE"}, 1, "train-tpu-0: 1 of 1 running; no failed scaling"),
        (
            {"state": "WAITING_FOR_RESOURCES"},
            0,
            "train-tpu-0: 0 of 1 running; latest error (2026-12-07T04:00:12.345678Z): WAITING_FOR_RESOURCES "
            "(capacity): the slice waits for TPU capacity",
        ),
        (
            {
                "state": "FAILED",
                "failedData": {"error": {"code": 8, "message": "There is no more capacity in the zone"}},
            },
            0,
            "train-tpu-0: 0 of 1 running; latest error (2026-12-07T04:00:12.345678Z): FAILED: There is no more "
            "capacity in the zone",
        ),
        (
            {"state": "SUSPENDED", "stateInitiator": "SERVICE"},
            0,
            "train-tpu-0: 0 of 1 running; latest error (2026-12-07T04:00:12.345678Z): SUSPENDED: queued resource "
            "not running",
        ),
    ],
)
def test_tpu_queued_resource_states(state, running, text) -> None:
    answer = {**_answer("gcp-tpu-queued-resource.json"), "state": state}
    status = tpu_slice("train-tpu-0", answer, "gcp")
    assert (status.asked, status.running) == (1, running)
    assert status.line() == text


@responses.activate
def test_tpu_stack_status_reads_each_slice(tmp_path, monkeypatch) -> None:
    """The committed TPU stack (one v5p-32 slice as a queued resource): its slice waits for TPUs."""
    monkeypatch.setenv("GOOGLE_OAUTH_ACCESS_TOKEN", "t")
    monkeypatch.setenv("GOOGLE_PROJECT", "p")
    url = "https://tpu.googleapis.com/v2/projects/p/locations/us-central1-a/queuedResources/train-tpu-0"
    responses.get(url, json=_answer("gcp-tpu-queued-resource.json"))
    result = run("status", "-s", "train", "--project-dir", _project(tmp_path, "Pulumi.training-tpu-v5p.yaml"))
    assert result.exit_code == 1, result.output
    assert result.stdout.splitlines()[0].startswith("train-tpu-0: 0 of 1 running; latest error")
    assert tpu_slice("train-tpu-1", None, "gcp").line().startswith("train-tpu-1: 0 of 1 running; latest error")
