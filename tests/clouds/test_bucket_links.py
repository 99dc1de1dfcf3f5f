"""Every cloud either links a bucket to its file system (`clouds/<cloud>/data.py`) or says why
not (`Feature.BUCKET_LINK`); the link modules keep one contract and never claim another cloud's URIs."""

from __future__ import annotations

import pytest

from clouds.base import Feature
from clouds.data import DataConfig, data_problem, link_for
from clouds.registry import CLOUDS, NAMES

EXAMPLES = {
    "aws": "s3://team-data/imagenet",
    "gcp": "gs://team-data/imagenet",
    "azure": "https://teamdata.blob.core.windows.net/datasets/imagenet",
    "alicloud": "oss://team-data/imagenet",
}


@pytest.mark.parametrize("name", NAMES)
def test_a_cloud_links_a_bucket_or_says_why_not(name):
    linked = link_for(name) is not None
    reason = CLOUDS[name].why_not(Feature.BUCKET_LINK)
    assert linked != (reason is not None)
    if reason:
        problem = data_problem(name, DataConfig(source="cos://team-data-1250000000/x"), True)
        assert problem is not None and f"({reason})" in problem


@pytest.mark.parametrize("name", [n for n in NAMES if link_for(n) is not None])
def test_link_modules_keep_the_contract(name):
    link = link_for(name)
    assert link.LINK in {"lazy", "import"} and isinstance(link.NEEDS_FILE_SYSTEM, bool)
    assert link.SOURCE_KIND.startswith(("a ", "an "))
    example = EXAMPLES[name]
    link.split_uri(example)  # parses
    owners = [other for other in EXAMPLES if link_for(other).owns(example)]
    assert owners == [name]


def test_a_linked_cloud_given_a_bucket_no_cloud_links_says_so():
    problem = data_problem("aws", DataConfig(source="obs://team-data/x"), True)
    assert problem is not None and problem.startswith("data.source: no trainstack cloud links obs:// buckets yet")
    other = data_problem("aws", DataConfig(source="gs://team-data/x"), True)
    assert other is not None and "is not an S3 bucket (s3://BUCKET/PREFIX), the only kind aws can link" in other


@pytest.mark.parametrize("source", ["team-data/imagenet", "/data/imagenet", "imagenet"])
def test_a_source_without_a_scheme_is_called_no_bucket_uri(source):
    """A stack's `data.source: team-data/imagenet` was told "no trainstack cloud links
    team-data/imagenet:// buckets yet": a scheme nobody typed."""
    problem = data_problem("aws", DataConfig(source=source), True)
    assert problem is not None and problem.startswith(f"data.source: '{source}' is not a bucket URI (no SCHEME://)")
    assert "://" + " " not in problem and f"{source}://" not in problem and "s3://BUCKET/PREFIX" in problem


@pytest.mark.parametrize(
    ("provider", "holder"),
    [pytest.param(p, h, id=f"{h}-bucket-on-{p}") for p in NAMES for h in EXAMPLES if p != h],
)
def test_another_clouds_bucket_is_named_as_that_clouds_with_the_fix(provider, holder):
    # Finding 10 (session 13): an oss:// bucket on a tencentcloud row blamed tencentcloud's missing link.
    problem = data_problem(provider, DataConfig(source=EXAMPLES[holder]), True)
    assert problem is not None and f"{CLOUDS[holder].display_name}'s ({holder}) bucket" in problem
    assert f"({holder})" in problem.rsplit(";", 1)[-1] or f"train on {holder}" in problem
    if link_for(provider) is None:
        assert "cannot link a bucket" not in problem and f"{provider} links no bucket" in problem
