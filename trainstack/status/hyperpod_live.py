"""The live answers `trainstack status` reads for a SageMaker HyperPod stack, through boto3:
DescribeCluster (the cluster's and each instance group's status, target and current counts,
the cluster's FailureMessage) and ListClusterNodes (each node's InstanceStatus: `Running`,
`Pending`, `DeepHealthCheckInProgress`, `Failure` with its message ...), both in the SageMaker
API reference's shapes. A platform with a live pool reading names it in its `status:` entry
(`clouds.platforms.Platform.status`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clouds.capacity_errors import classify
from clouds.contract import ClusterConfig
from trainstack.status.read import GroupStatus


def cluster_groups(cluster: Mapping[str, Any], nodes: list[Mapping[str, Any]], provider: str) -> list[GroupStatus]:
    """One `GroupStatus` per instance group of a DescribeCluster answer, `<cluster>/<group>`:
    asked = the group's TargetCount, running = its nodes whose InstanceStatus is `Running`; the
    error, when there is one, is the first failed node's message, else a group or cluster that
    is not in service (with HyperPod's FailureMessage), read with the cloud's capacity codes."""
    name, state = cluster.get("ClusterName", "?"), cluster.get("ClusterStatus", "?")
    found = []
    for group in cluster.get("InstanceGroups", []):
        label = group.get("InstanceGroupName", "?")
        mine = [n for n in nodes if n.get("InstanceGroupName") == label]
        running = sum(1 for n in mine if n.get("InstanceStatus", {}).get("Status") == "Running")
        failed = [n for n in mine if n.get("InstanceStatus", {}).get("Status") == "Failure"]
        message = None
        if failed:
            node = failed[0]
            message = f"node {node.get('InstanceId', '?')}: {node['InstanceStatus'].get('Message') or 'Failure'}"
        elif group.get("Status", "InService") != "InService":
            message = f"instance group {group['Status']}"
        elif state != "InService":
            message = f"cluster {state}" + (f": {cluster['FailureMessage']}" if cluster.get("FailureMessage") else "")
        asked = int(group.get("TargetCount", group.get("CurrentCount", 0)))
        when = str(failed[0].get("LaunchTime", "")) if failed else ""
        failure = classify(provider, message) if message else None
        found.append(GroupStatus(f"{name}/{label}", asked, running, message, when, failure))
    return found


def read(api: Any, cluster_name: str, provider: str) -> list[GroupStatus]:
    """DescribeCluster and every page of ListClusterNodes from a `sagemaker` client; [] when
    the cluster does not exist (not deployed, or deleted)."""
    from botocore.exceptions import ClientError

    try:
        described = api.describe_cluster(ClusterName=cluster_name)
    except ClientError as exc:
        error = exc.response.get("Error", {})
        missing = "could not find" in str(error.get("Message", "")).lower()
        if error.get("Code") == "ResourceNotFound" or (error.get("Code") == "ValidationException" and missing):
            return []
        raise
    nodes: list[Mapping[str, Any]] = []
    for page in api.get_paginator("list_cluster_nodes").paginate(ClusterName=cluster_name):
        nodes += page.get("ClusterNodeSummaries", [])
    return cluster_groups(described, nodes, provider)


def status(cluster: ClusterConfig, name: str, settings: Mapping[str, Any]) -> list[GroupStatus]:
    """The HyperPod cluster of stack `name` in its region, with the default credentials."""
    from clouds.aws.hyperpod import cluster_name
    from profiles.preflight.aws_api import client, new_session

    return read(client(new_session(), "sagemaker", cluster.region), cluster_name(name), cluster.provider)
