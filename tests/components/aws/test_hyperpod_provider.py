"""The HyperPod dynamic provider's create / update / delete: create and delete against moto
(5.2.6 implements CreateCluster, DescribeCluster and DeleteCluster; it checks the instance types
and that the lifecycle script's bucket starts with `sagemaker-`), and UpdateCluster, which moto
does not implement, against botocore's Stubber: each request is validated against the SageMaker
API model and answered in its documented response shape."""

from __future__ import annotations

import boto3
import pytest
from botocore.stub import Stubber
from moto import mock_aws

from clouds.aws import hyperpod as hp
from clouds.aws.mock import ACCOUNT_ID
from components.aws import hyperpod_provider
from components.aws.hyperpod_provider import HyperPodClusterProvider
from tests.clusters import example_config

REGION = "us-east-1"
ROLE = f"arn:aws:iam::{ACCOUNT_ID}:role/c-hyperpod"
BUCKET = hp.bucket_name("c", ACCOUNT_ID)
NETWORK = {"SecurityGroupIds": ["sg-0123456789abcdef0"], "Subnets": ["subnet-0123456789abcdef0"]}
ARN = f"arn:aws:sagemaker:{REGION}:{ACCOUNT_ID}:cluster/abcdef123456"


def _request(**changes):
    config = example_config("aws", platform="hyperpod", purchase="on-demand", file_system=None, **changes)
    return hp.cluster_request("c", config, ROLE, BUCKET, NETWORK)


def _props(**changes):
    return {"region": REGION, "request": _request(**changes), "tags": {"trainstack:cluster": "c"}}


@pytest.fixture()
def moto_sagemaker(monkeypatch):
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    with mock_aws():
        yield boto3.client("sagemaker", region_name=REGION)


def test_create_then_delete_against_moto(moto_sagemaker):
    provider = HyperPodClusterProvider()
    created = provider.create(_props())
    assert created.id == "c" and created.outs["status"] == "InService"
    assert created.outs["cluster_arn"].startswith(f"arn:aws:sagemaker:{REGION}:{ACCOUNT_ID}:cluster/")
    found = moto_sagemaker.describe_cluster(ClusterName="c")
    groups = {g["InstanceGroupName"]: g for g in found["InstanceGroups"]}
    assert groups["workers-p4d-24xlarge"]["TargetCount"] == 2 and groups["controller"]["TargetCount"] == 1
    assert found["VpcConfig"] == NETWORK
    provider.delete("c", created.outs)
    assert moto_sagemaker.list_clusters()["ClusterSummaries"] == []
    provider.delete("c", created.outs)  # already gone: nothing to do, no error


def test_moto_refuses_what_hyperpod_refuses(moto_sagemaker):
    props = _props()
    props["request"]["InstanceGroups"][0]["LifeCycleConfig"]["SourceS3Uri"] = "s3://team-bucket/lifecycle/"
    with pytest.raises(Exception, match="does not start with 's3://sagemaker'"):
        HyperPodClusterProvider().create(props)


@pytest.mark.parametrize(
    ("changes", "replaces", "changed"),
    [
        pytest.param({"nodes": 4}, [], True, id="nodes-in-place"),
        pytest.param({"instance_type": "p5.48xlarge"}, [], True, id="type-in-place"),
        pytest.param({}, [], False, id="nothing"),
    ],
)
def test_diff_replaces_only_what_is_fixed_at_create(changes, replaces, changed):
    diff = HyperPodClusterProvider().diff("c", _props(), _props(**changes))
    assert (diff.replaces, diff.changes) == (replaces, changed)


def test_a_new_vpc_or_region_replaces_the_cluster_deleting_it_first():
    moved = _props()
    moved["request"]["VpcConfig"] = {**NETWORK, "Subnets": ["subnet-0fedcba9876543210"]}
    diff = HyperPodClusterProvider().diff("c", _props(), moved)
    assert diff.replaces == ["request"] and diff.delete_before_replace is True
    assert HyperPodClusterProvider().diff("c", _props(), {**_props(), "region": "us-west-2"}).replaces == ["region"]


def _stubbed(monkeypatch):
    client = boto3.client("sagemaker", region_name=REGION, aws_access_key_id="x", aws_secret_access_key="x")
    stub = Stubber(client)
    monkeypatch.setattr(hyperpod_provider, "_client", lambda region: client)
    return stub


def _described(status, message=""):
    answer = {
        "ClusterArn": ARN,
        "ClusterName": "c",
        "ClusterStatus": status,
        "InstanceGroups": [],
    }
    return {**answer, "FailureMessage": message} if message else answer


def test_update_resizes_and_swaps_the_worker_group_in_place(monkeypatch):
    stub = _stubbed(monkeypatch)
    olds = {**_props(), "cluster_arn": ARN, "status": "InService"}
    news = {**_props(nodes=4, instance_type="p5.48xlarge"), "tags": {"trainstack:cluster": "c", "team": "nlp"}}
    expected = hp.update_request(olds["request"], news["request"])
    assert expected["InstanceGroupsToDelete"] == ["workers-p4d-24xlarge"]
    assert expected["InstanceGroups"][1]["InstanceGroupName"] == "workers-p5-48xlarge"
    assert expected["InstanceGroups"][1]["InstanceCount"] == 4
    stub.add_response("update_cluster", {"ClusterArn": ARN}, expected)
    stub.add_response(
        "add_tags",
        {"Tags": [{"Key": "team", "Value": "nlp"}]},
        {"ResourceArn": ARN, "Tags": [{"Key": "team", "Value": "nlp"}]},
    )
    stub.add_response("describe_cluster", _described("InService"), {"ClusterName": "c"})
    with stub:
        updated = HyperPodClusterProvider().update("c", olds, news)
    stub.assert_no_pending_responses()
    assert updated.outs["status"] == "InService" and updated.outs["cluster_arn"] == ARN


def test_a_tag_change_alone_sends_no_update_cluster(monkeypatch):
    stub = _stubbed(monkeypatch)
    olds = {**_props(), "tags": {"trainstack:cluster": "c", "old": "1"}, "cluster_arn": ARN, "status": "InService"}
    stub.add_response("delete_tags", {}, {"ResourceArn": ARN, "TagKeys": ["old"]})
    with stub:
        HyperPodClusterProvider().update("c", olds, _props())
    stub.assert_no_pending_responses()


def test_a_failed_create_deletes_the_cluster_and_says_why(monkeypatch):
    stub = _stubbed(monkeypatch)
    props = _props()
    stub.add_response(
        "create_cluster",
        {"ClusterArn": ARN},
        {**props["request"], "Tags": [{"Key": "trainstack:cluster", "Value": "c"}]},
    )
    stub.add_response(
        "describe_cluster",
        _described("Failed", "InsufficientInstanceCapacity for ml.p4d.24xlarge"),
        {"ClusterName": "c"},
    )
    stub.add_response("delete_cluster", {"ClusterArn": ARN}, {"ClusterName": "c"})
    with stub, pytest.raises(RuntimeError, match="c is Failed: InsufficientInstanceCapacity for ml.p4d.24xlarge"):
        HyperPodClusterProvider().create(props)
    stub.assert_no_pending_responses()


def test_waits_poll_until_in_service_and_give_up_at_the_limit(monkeypatch):
    stub = _stubbed(monkeypatch)
    monkeypatch.setattr(hyperpod_provider.time, "sleep", lambda s: None)
    stub.add_response("describe_cluster", _described("Creating"), {"ClusterName": "c"})
    stub.add_response("describe_cluster", _described("InService"), {"ClusterName": "c"})
    stub.add_response("describe_cluster", _described("Updating"), {"ClusterName": "c"})
    client = hyperpod_provider._client(REGION)
    with stub:
        assert hyperpod_provider.wait_in_service(client, "c") == "InService"
        with pytest.raises(RuntimeError, match="still Updating after 0 min"):
            hyperpod_provider.wait_in_service(client, "c", limit_s=0)
