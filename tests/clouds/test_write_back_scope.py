"""Write-back grants are scoped to the dataset's prefix on every cloud that links a bucket."""

from __future__ import annotations

import re

import pytest

from clouds.aws.data import node_bucket_policy
from clouds.azure.data import node_condition
from clouds.gcp.data import WRITE_ROLE, read_condition, write_condition


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


def test_gcp_reads_and_lists_only_under_the_prefix_and_never_deletes():
    assert read_condition("b", "imagenet/") == {
        "title": "trainstack dataset prefix",
        "description": "read only under gs://b/imagenet/",
        "expression": 'resource.name.startsWith("projects/_/buckets/b/objects/imagenet/") || '
        'api.getAttribute("storage.googleapis.com/objectListPrefix", "").startsWith("imagenet/")',
    }
    assert read_condition("b", "") is None  # the whole bucket is the dataset
    assert WRITE_ROLE == "roles/storage.objectCreator"  # storage.objects.create; objectUser also deletes


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


@pytest.mark.parametrize(
    ("uri", "says"),
    [
        pytest.param("s3://team-datasets/*", "holds '*', which would widen", id="s3-star"),
        pytest.param("s3://team-datasets/imagenet/*/train", "holds '*'", id="s3-inner-star"),
        pytest.param("s3://team-datasets/img?", "holds '?'", id="s3-question"),
        pytest.param("s3://team-datasets/${aws:username}", "holds '${'", id="s3-policy-variable"),
        pytest.param("s3://team-datasets/imagenet/../secrets", "'..' path segment", id="s3-dotdot"),
        pytest.param("s3://team-datasets/a//b", "an empty, '.' or '..' path segment", id="s3-empty-segment"),
        pytest.param('gs://team-datasets/a") || true || ("', "holds '\"'", id="gcs-cel-injection"),
    ],
)
def test_a_source_that_would_widen_the_policy_is_one_line(uri, says):
    from clouds.data import link_for

    link = link_for("aws" if uri.startswith("s3") else "gcp")
    with pytest.raises(ValueError, match=re.escape(says)) as caught:
        link.split_uri(uri)
    assert str(caught.value).startswith(f"data.source: '{uri}'") and "\n" not in str(caught.value)
