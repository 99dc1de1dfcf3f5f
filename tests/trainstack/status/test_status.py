"""`trainstack status` reads nodes running vs asked and the latest capacity error: AWS groups from
moto (its DescribeScalingActivities answers no activities, so the failed launch is a recorded
answer in the API's format), GCP and Azure from recorded answers in their APIs' formats."""

from __future__ import annotations

import json
import shutil

import boto3
from moto import mock_aws

from tests.aws_live import registered_image
from tests.cli.helpers import ROOT, one_error_line, run
from trainstack.status.aws_live import groups_status
from trainstack.status.read import aws_group, azure_scale_set, gcp_group

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


def test_status_on_a_cloud_without_a_live_reading_says_so(tmp_path) -> None:
    for name in ("__main__.py", "Pulumi.yaml"):
        shutil.copy(ROOT / name, tmp_path)
    (tmp_path / "stacks").mkdir()
    shutil.copy(ROOT / "stacks" / "Pulumi.training-h100-azure.yaml", tmp_path / "stacks" / "Pulumi.train.yaml")
    one_error_line(run("status", "-s", "train", "--project-dir", str(tmp_path)), "not built yet", code=1)
