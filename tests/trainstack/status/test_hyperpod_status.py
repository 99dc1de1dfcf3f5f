"""`trainstack status` on a SageMaker HyperPod stack: each instance group's nodes running vs
asked, read from DescribeCluster and ListClusterNodes (moto for a created cluster; hand-written
answers in the SageMaker API reference's shapes for the failure cases moto never reports). The
CLI test (about 1.5 s: moto's SageMaker and one `status` run) is the only check of the lines the
command prints for a pool."""

from __future__ import annotations

import shutil

import boto3
import pytest
import yaml
from moto import mock_aws

from clouds.aws import hyperpod as hp
from clouds.aws.mock import ACCOUNT_ID
from components.aws.hyperpod_provider import HyperPodClusterProvider
from tests.cli.helpers import ROOT, one_error_line, run
from tests.clusters import example_config
from trainstack.status.hyperpod_live import cluster_groups, read

REGION = "us-east-1"
WORKERS = {"InstanceGroupName": "workers-p5-48xlarge", "TargetCount": 2, "CurrentCount": 2, "Status": "InService"}


def _node(node_id: str, status: str, message: str = "") -> dict:
    return {
        "InstanceGroupName": "workers-p5-48xlarge",
        "InstanceId": node_id,
        "InstanceStatus": {"Status": status, "Message": message},
        "LaunchTime": "2026-12-07T09:00:00Z",
    }


@pytest.mark.parametrize(
    ("cluster", "nodes", "line"),
    [
        pytest.param(
            {"ClusterStatus": "InService", "InstanceGroups": [WORKERS]},
            [_node("i-1", "Running"), _node("i-2", "Running")],
            "c/workers-p5-48xlarge: 2 of 2 running; no failed scaling",
            id="all-running",
        ),
        pytest.param(
            {"ClusterStatus": "InService", "InstanceGroups": [WORKERS]},
            [_node("i-1", "Running"), _node("i-2", "DeepHealthCheckInProgress")],
            "c/workers-p5-48xlarge: 1 of 2 running; no failed scaling",
            id="health-check",
        ),
        pytest.param(
            {"ClusterStatus": "InService", "InstanceGroups": [{**WORKERS, "Status": "Degraded"}]},
            [_node("i-1", "Running"), _node("i-2", "Failure", "InsufficientInstanceCapacity: no ml.p5.48xlarge")],
            "c/workers-p5-48xlarge: 1 of 2 running; latest error (2026-12-07T09:00:00Z): "
            "InsufficientInstanceCapacity (capacity): node i-2: InsufficientInstanceCapacity: no ml.p5.48xlarge",
            id="failed-node",
        ),
        pytest.param(
            {"ClusterStatus": "Failed", "FailureMessage": "Lifecycle script failed", "InstanceGroups": [WORKERS]},
            [],
            "c/workers-p5-48xlarge: 0 of 2 running; latest error (time unknown): cluster Failed: Lifecycle script failed",
            id="cluster-failed",
        ),
    ],
)
def test_groups_from_the_cluster_and_its_nodes(cluster, nodes, line):
    (group,) = cluster_groups({"ClusterName": "c", **cluster}, nodes, "aws")
    assert group.line() == line


@mock_aws
def test_a_created_cluster_from_moto_and_the_cli_lines(tmp_path, monkeypatch):
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    config = example_config("aws", platform="hyperpod", purchase="on-demand", file_system=None)
    network = {"SecurityGroupIds": ["sg-1"], "Subnets": ["subnet-1"]}
    role = f"arn:aws:iam::{ACCOUNT_ID}:role/train-hyperpod"
    request = hp.cluster_request("train", config, role, hp.bucket_name("train", ACCOUNT_ID), network)
    api = boto3.client("sagemaker", region_name=REGION)
    assert read(api, "train", "aws") == []  # not deployed yet
    HyperPodClusterProvider().create({"region": REGION, "request": request, "tags": {}})
    assert [(g.name, g.asked, g.running) for g in read(api, "train", "aws")] == [
        ("train/controller", 1, 1),
        ("train/workers-p4d-24xlarge", 2, 2),
    ]
    # the CLI on a HyperPod stack: one line per instance group, no job needed
    for name in ("__main__.py", "Pulumi.yaml"):
        shutil.copy(ROOT / name, tmp_path)
    (tmp_path / "stacks").mkdir()
    stack = {"config": {"aws:region": REGION, "trainstack:cluster": config.model_dump(mode="json", exclude_none=True)}}
    (tmp_path / "stacks" / "Pulumi.train.yaml").write_text(yaml.safe_dump(stack))
    result = run("status", "-s", "train", "--project-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "train/controller: 1 of 1 running; no failed scaling",
        "train/workers-p4d-24xlarge: 2 of 2 running; no failed scaling",
    ]
    api.delete_cluster(ClusterName="train")
    one_error_line(run("status", "-s", "train", "--project-dir", str(tmp_path)), "is it up?", code=1)
