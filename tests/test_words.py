"""Articles and valid-value lists in messages (`clouds.words`)."""

import pytest

from clouds.words import article, did_you_mean, listed


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("aws", "an aws"),
        ("azure", "an azure"),
        ("alicloud", "an alicloud"),
        ("gcp", "a gcp"),
        ("huaweicloud", "a huaweicloud"),
        ("tencentcloud", "a tencentcloud"),
        ("s3://", "an s3://"),
        ("gs://", "a gs://"),
        ("H100", "an H100"),
        ("T4", "a T4"),
        ("FSx", "an FSx"),
        ("us-east-1", "a us-east-1"),
        ("uksouth", "a uksouth"),
        ("eastus", "an eastus"),
        ("8-GPU", "an 8-GPU"),
    ],
)
def test_article(word, expected):
    assert article(word) == expected


def test_listed_puts_the_closest_first_and_counts_the_rest():
    assert listed(["b", "a", "us-east-1", "eu-west-1", "c"], "us-east-9", limit=3) == (
        "us-east-1, eu-west-1, a, ... (5 in all)"
    )


def test_did_you_mean_or_the_valid_values():
    assert did_you_mean("us-east-9", ["us-east-1", "eu-west-1"]) == "did you mean us-east-1?"
    assert did_you_mean("zzz", ["b", "a"], "valid") == "valid: a, b"
