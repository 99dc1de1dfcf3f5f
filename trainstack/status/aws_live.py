"""The live answers `trainstack status` reads on AWS, through boto3: the cluster's Auto Scaling
groups by its `trainstack:cluster` tag (spot and, with a fallback, on-demand), and each one's
scaling activities (newest first). Each cloud with a live reading has a
`trainstack.status.<cloud>_live` module with `status(cluster, name, settings)`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clouds.contract import ClusterConfig
from trainstack.status.read import GroupStatus, aws_group

# Scaling activities read per group (newest first): enough to find the latest failure.
ACTIVITIES = 20


def groups_status(client: Any, cluster: str, provider: str) -> list[GroupStatus]:
    """The cluster's groups from an `autoscaling` client, in name order."""
    filters = [{"Name": "tag:trainstack:cluster", "Values": [cluster]}]
    groups = client.describe_auto_scaling_groups(Filters=filters).get("AutoScalingGroups", [])
    found = []
    for group in sorted(groups, key=lambda g: g["AutoScalingGroupName"]):
        name = group["AutoScalingGroupName"]
        activities = client.describe_scaling_activities(AutoScalingGroupName=name, MaxRecords=ACTIVITIES)
        found.append(aws_group(group, activities, provider))
    return found


def status(cluster: ClusterConfig, name: str, settings: Mapping[str, Any]) -> list[GroupStatus]:
    """The stack `name`'s groups in its region, with the default credentials (`settings`, the
    stack's `config:`, is not needed: the region is the cluster's)."""
    from profiles.preflight.aws_api import client, new_session

    return groups_status(client(new_session(), "autoscaling", cluster.region), name, cluster.provider)
