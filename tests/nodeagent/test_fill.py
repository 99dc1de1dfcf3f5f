"""The on-demand fill watcher: its decision on a hand-computed table, and its reading of each
cloud's answer (AWS: DescribeAutoScalingGroups as moto answers it; GCP: instanceGroupManagers.get
in the Compute Engine API's documented shape)."""

from __future__ import annotations

import json

import boto3
import pytest
from moto import mock_aws

from nodeagent.aws_fill import AwsGroups
from nodeagent.fill import fill_target, run
from nodeagent.gcp_fill import GcpGroups
from nodeagent.gcp_queued import ApiError
from tests.aws_live import registered_image

HOUR = 3600.0


@pytest.mark.parametrize(
    ("running", "on_demand", "since", "now", "expected"),
    [
        pytest.param(4, 0, None, 100.0, (0, None), id="whole-spot-nothing"),
        pytest.param(4, 2, 50.0, 100.0, (0, None), id="spot-back-releases-on-demand"),
        pytest.param(2, 0, None, 100.0, (0, 100.0), id="short-starts-the-clock"),
        pytest.param(2, 0, 100.0, 100.0 + 0.5 * HOUR - 1, (0, 100.0), id="short-not-long-enough"),
        pytest.param(2, 0, 100.0, 100.0 + 0.5 * HOUR, (2, 100.0), id="short-30m-fills-the-gap"),
        pytest.param(3, 2, 100.0, 200.0, (1, 100.0), id="spot-partly-back-shrinks-before-the-wait"),
        pytest.param(0, 1, 100.0, 100.0 + HOUR, (4, 100.0), id="all-gone-fills-all"),
    ],
)
def test_fill_target(running, on_demand, since, now, expected):
    assert fill_target(running, 4, on_demand, since, now, 0.5 * HOUR) == expected


@mock_aws
def test_aws_reads_the_groups_as_ec2_auto_scaling_answers_and_resizes(monkeypatch):
    region = "us-east-1"
    ec2 = boto3.client("ec2", region_name=region)
    ami = registered_image(ec2, monkeypatch)
    ec2.create_launch_template(
        LaunchTemplateName="node-lt", LaunchTemplateData={"ImageId": ami, "InstanceType": "p4d.24xlarge"}
    )
    asg = boto3.client("autoscaling", region_name=region)
    zone = f"{region}a"
    tagged = {"c-nodes-0a1b2c3": [], "c-nodes-on-demand-4d5e6f7": [("trainstack:fill", "on-demand")], "d-nodes-1": []}
    for name, extra in tagged.items():
        cluster = name.split("-")[0]
        asg.create_auto_scaling_group(
            AutoScalingGroupName=name,
            LaunchTemplate={"LaunchTemplateName": "node-lt", "Version": "$Latest"},
            MinSize=0,
            MaxSize=2,
            DesiredCapacity=0 if "on-demand" in name else 1,
            AvailabilityZones=[zone],
            Tags=[
                {"Key": key, "Value": value, "PropagateAtLaunch": True}
                for key, value in [("trainstack:cluster", cluster), *extra]
            ],
        )

    def cli(argv: list[str]) -> str:  # the AWS CLI prints the API's answer as JSON
        if argv[2] == "describe-auto-scaling-groups":
            name, values = argv[-1].removeprefix("Name=").split(",Values=")
            filters = [{"Name": name, "Values": [values]}]
            return json.dumps(asg.describe_auto_scaling_groups(Filters=filters), default=str)
        name = argv[argv.index("--auto-scaling-group-name") + 1]
        asg.set_desired_capacity(AutoScalingGroupName=name, DesiredCapacity=int(argv[-1]))
        return ""

    groups = AwsGroups(region, "c", cli)
    assert groups.sizes() == (1, 0)  # one of two spot nodes running
    config = {"nodes": 2, "after_seconds": 1800, "poll_seconds": 60}
    ticks = iter([0.0, 1800.0])
    run(config, groups, clock=lambda: next(ticks), sleep=lambda s: None, passes=2)
    answer = asg.describe_auto_scaling_groups(AutoScalingGroupNames=["c-nodes-on-demand-4d5e6f7"])
    assert answer["AutoScalingGroups"][0]["DesiredCapacity"] == 1  # filled after 30 minutes short


def test_gcp_reads_each_group_by_name_and_resizes_the_on_demand_group():
    base = "https://compute.googleapis.com/compute/v1/projects/p/zones/us-central1-a/instanceGroupManagers"
    answers = {  # instanceGroupManagers.get, Compute Engine API v1 (InstanceGroupManager)
        f"{base}/c-nodes-9f8e7d6": {
            "kind": "compute#instanceGroupManager",
            "name": "c-nodes-9f8e7d6",
            "targetSize": 4,
            "currentActions": {"none": 1, "creating": 3, "recreating": 0, "deleting": 0},
        },
        f"{base}/c-nodes-on-demand": {
            "kind": "compute#instanceGroupManager",
            "name": "c-nodes-on-demand",
            "targetSize": 0,
            "currentActions": {"none": 0},
        },
    }
    calls = []

    def call(url, method="GET", headers=None, body=None):
        calls.append((method, url, headers["Authorization"]))
        return answers[url] if method == "GET" else {"kind": "compute#operation"}

    groups = GcpGroups("p", "zones/us-central1-a", "c", "c-nodes-9f8e7d6", lambda: "tok", call)
    run({"nodes": 4, "after_seconds": 0}, groups, clock=lambda: 10.0, sleep=lambda s: None, passes=1)
    assert [c[0] for c in calls] == ["GET", "GET", "POST"]  # no list: the role holds get on these two only
    assert calls[-1] == ("POST", f"{base}/c-nodes-on-demand/resize?size=3", "Bearer tok")


def test_gcp_a_group_answered_under_another_name_is_not_resized():
    def call(url, method="GET", headers=None, body=None):
        assert method == "GET"
        return {"name": "someone-else", "targetSize": 9, "currentActions": {"none": 9}}

    groups = GcpGroups("p", "zones/us-central1-a", "c", "c-nodes-1", lambda: "tok", call)
    with pytest.raises(ApiError, match="c-nodes-1 not found"):
        groups.sizes()
