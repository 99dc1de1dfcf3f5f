"""The AWS side of `nodeagent.fill`: the cluster's two Auto Scaling groups through the AWS CLI
the Deep Learning AMI ships (`aws autoscaling describe-auto-scaling-groups` filtered by the
cluster's tag: instances `InService` and `Healthy`; `set-desired-capacity`), with the instance
profile's credentials. Standard library only."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from dataclasses import dataclass

from nodeagent.gcp_queued import ApiError

ROLE_TAG = "trainstack:fill"  # the on-demand group's tag (value `on-demand`); AWS
CLUSTER_TAG = "trainstack:cluster"


def aws_groups(answer: dict) -> tuple[dict, dict]:
    """(the spot group, the on-demand group) of a DescribeAutoScalingGroups answer for one
    cluster: the on-demand group carries `ROLE_TAG`, the spot group does not."""
    spot, on_demand = None, None
    for found in answer.get("AutoScalingGroups", []):
        tags = {tag.get("Key"): tag.get("Value") for tag in found.get("Tags", [])}
        if tags.get(ROLE_TAG) == "on-demand":
            on_demand = found
        else:
            spot = found
    if spot is None or on_demand is None:
        raise ApiError(404, "the cluster's spot and on-demand Auto Scaling groups were not both found")
    return spot, on_demand


def aws_running(group: dict) -> int:
    """Instances of a group that are `InService` and `Healthy`."""
    return sum(
        1
        for instance in group.get("Instances", [])
        if instance.get("LifecycleState") == "InService" and instance.get("HealthStatus") == "Healthy"
    )


@dataclass
class AwsGroups:
    """The cluster's two Auto Scaling groups, found by its `trainstack:cluster` tag through the
    AWS CLI (`run`: argv -> stdout)."""

    region: str
    cluster: str
    run: Callable[[list[str]], str]
    on_demand_name: str = ""

    def sizes(self) -> tuple[int, int]:
        """(running spot nodes, the on-demand group's desired capacity)."""
        argv = ["aws", "autoscaling", "describe-auto-scaling-groups", "--region", self.region, "--output", "json"]
        answer = json.loads(self.run([*argv, "--filters", f"Name=tag:{CLUSTER_TAG},Values={self.cluster}"]))
        spot, on_demand = aws_groups(answer)
        self.on_demand_name = on_demand["AutoScalingGroupName"]
        return aws_running(spot), int(on_demand.get("DesiredCapacity", 0))

    def resize(self, size: int) -> None:
        argv = ["aws", "autoscaling", "set-desired-capacity", "--region", self.region]
        self.run([*argv, "--auto-scaling-group-name", self.on_demand_name, "--desired-capacity", str(size)])


def _aws_cli(argv: list[str]) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    if done.returncode != 0:
        raise ApiError(done.returncode, done.stderr.strip()[:300])
    return done.stdout


def groups(config: dict) -> AwsGroups:
    """The cluster's groups named in the fill config (`region`, `cluster`)."""
    return AwsGroups(config["region"], config["cluster"], _aws_cli)
