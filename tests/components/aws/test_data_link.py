"""The S3 -> FSx data link: URI parsing, the node's bucket-scoped policy, and the DRA under mocks."""

from __future__ import annotations

import json

import pulumi
import pulumi_aws as aws
import pytest

from clouds.aws.data import node_bucket_policy, split_uri
from components.aws.data_link import create_data_link
from tests.components.harness import install_mocks


@pytest.mark.parametrize(
    ("uri", "expected"),
    [
        pytest.param("s3://team-data/datasets/imagenet", ("team-data", "datasets/imagenet/"), id="prefix"),
        pytest.param("s3://team-data/datasets/imagenet/", ("team-data", "datasets/imagenet/"), id="trailing-slash"),
        pytest.param("s3://team-data", ("team-data", ""), id="whole-bucket"),
    ],
)
def test_split_uri(uri, expected):
    assert split_uri(uri) == expected


@pytest.mark.parametrize("uri", ["gs://team-data/x", "s3://", "s3://UPPER/x", "team-data/x"])
def test_a_non_s3_source_names_the_field_and_the_form(uri):
    with pytest.raises(ValueError, match=r"^data.source: .* is not an S3 URI; write it like s3://"):
        split_uri(uri)


def test_read_only_policy_reaches_only_the_prefix():
    policy = node_bucket_policy("aws", "team-data", "datasets/imagenet/", write_back=False)
    assert policy["Statement"] == [
        {
            "Sid": "ListDatasetPrefix",
            "Effect": "Allow",
            "Action": "s3:ListBucket",
            "Resource": "arn:aws:s3:::team-data",
            "Condition": {"StringLike": {"s3:prefix": ["datasets/imagenet/*"]}},
        },
        {
            "Sid": "ReadDataset",
            "Effect": "Allow",
            "Action": "s3:GetObject",
            "Resource": "arn:aws:s3:::team-data/datasets/imagenet/*",
        },
    ]


def test_write_back_adds_put_on_the_same_prefix_only():
    policy = node_bucket_policy("aws-cn", "team-data", "", write_back=True)
    actions = {s["Sid"]: s for s in policy["Statement"]}
    assert "Condition" not in actions["ListDatasetPrefix"]  # whole bucket
    assert actions["WriteBack"]["Action"] == ["s3:PutObject", "s3:AbortMultipartUpload"]
    assert actions["WriteBack"]["Resource"] == "arn:aws-cn:s3:::team-data/*"
    assert not any("Delete" in str(s["Action"]) for s in policy["Statement"])


@pytest.mark.parametrize("write_back", [False, True])
def test_data_link_under_mocks(write_back):
    _, monitor = install_mocks("us-east-1")

    @pulumi.runtime.test
    def program():
        fs = aws.fsx.LustreFileSystem(
            "c-fsx",
            storage_capacity=1200,
            subnet_ids="subnet-1",
            deployment_type="PERSISTENT_2",
            per_unit_storage_throughput=250,
        )
        role = aws.iam.Role("c-node-role", assume_role_policy="{}")
        link, policy = create_data_link(
            "c", "s3://team-data/imagenet", write_back, fs, role, {"k": "v"}, pulumi.ResourceOptions()
        )
        return pulumi.Output.all(link.urn, policy.urn)

    program()
    records = {r["name"]: r for r in monitor.records()}
    dra = records["c-data-link"]["inputs"]
    assert dra["dataRepositoryPath"] == "s3://team-data/imagenet/"
    assert dra["fileSystemPath"] == "/data" and dra["fileSystemId"] == "c-fsx-id"
    assert dra["batchImportMetaDataOnCreate"] is True and dra["deleteDataInFilesystem"] is False
    assert dra["s3"]["autoImportPolicy"]["events"] == ["NEW", "CHANGED", "DELETED"]
    assert ("autoExportPolicy" in dra["s3"]) is write_back
    if write_back:  # a deletion in the file system must never delete the team's objects
        assert dra["s3"]["autoExportPolicy"]["events"] == ["NEW", "CHANGED"]
    document = json.loads(records["c-node-bucket"]["inputs"]["policy"])
    assert [s["Sid"] for s in document["Statement"]][-1] == ("WriteBack" if write_back else "ReadDataset")
    assert records["c-node-bucket"]["inputs"]["role"] == "c-node-role-id"
