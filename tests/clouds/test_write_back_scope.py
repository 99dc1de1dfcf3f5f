"""Write-back grants are scoped to the dataset's prefix on every cloud that links a bucket."""

from __future__ import annotations

import pytest

from clouds.aws.data import node_bucket_policy
from clouds.azure.data import node_condition
from clouds.gcp.data import write_condition


@pytest.mark.parametrize(
    ("prefix", "expression"),
    [
        pytest.param("imagenet/", 'resource.name.startsWith("projects/_/buckets/b/objects/imagenet/")', id="prefix"),
        pytest.param("", 'resource.name.startsWith("projects/_/buckets/b/objects/")', id="whole-bucket"),
    ],
)
def test_gcp_write_condition_names_the_object_prefix(prefix, expression):
    condition = write_condition("b", prefix)
    assert condition["expression"] == expression
    assert condition["title"] == "trainstack write-back prefix"


def test_azure_condition_only_with_write_back_and_never_deletes():
    assert node_condition("imagenet/", False) is None
    whole = node_condition("", True)
    assert whole is not None and "StringStartsWith ''" in whole
    assert whole.endswith(
        "((!(ActionMatches{'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/delete'})))"
    )


@pytest.mark.parametrize("write_back", [False, True])
def test_aws_writes_only_under_the_prefix_and_never_deletes(write_back):
    statements = node_bucket_policy("aws", "b", "imagenet/", write_back)["Statement"]
    writes = [s for s in statements if s["Sid"] == "WriteBack"]
    assert [w["Resource"] for w in writes] == (["arn:aws:s3:::b/imagenet/*"] if write_back else [])
    actions = [a for s in statements for a in ([s["Action"]] if isinstance(s["Action"], str) else s["Action"])]
    assert not any("Delete" in a for a in actions)
