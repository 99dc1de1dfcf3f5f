"""Articles and valid-value lists in messages (`clouds.words`)."""

import pytest

from clouds.words import article, did_you_mean, listed, usd, usd_rate


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


@pytest.mark.parametrize(
    ("amount", "shown"),
    [
        pytest.param(0.43, "$0.43", id="cents-under-a-dollar"),
        pytest.param(-0.004, "$0.00", id="no-minus-on-zero"),
        pytest.param(-3.5, "-$3.50", id="negative"),
        pytest.param(2.4, "$2.40", id="cents-under-100"),
        pytest.param(99.994, "$99.99", id="just-under-100"),
        pytest.param(105.7, "$106", id="whole-dollars-from-100"),
        pytest.param(12329.4, "$12,329", id="thousands"),
    ],
)
def test_usd_keeps_cents_where_whole_dollars_would_hide_them(amount, shown):
    assert usd(amount) == shown


@pytest.mark.parametrize(
    ("amount", "shown"),
    [
        pytest.param(12.3314, "$12.3314", id="as-recorded-four-decimals"),
        pytest.param(1.0, "$1.00", id="at-least-cents"),
        pytest.param(30828.5, "$30,828.50", id="grouped-with-cents"),
        pytest.param(1234567.89, "$1,234,567.89", id="no-exponent-at-a-million"),
        pytest.param(12345.67, "$12,345.67", id="cents-kept-past-ten-thousand"),
        pytest.param(-0.5, "-$0.50", id="negative"),
    ],
)
def test_usd_rate_keeps_every_cent_a_price_has(amount, shown):
    """`check` compares a stack's recorded price with the catalog's: `:g` showed $30828.5 and
    $1.23457e+06, and two prices a few cents apart from $10,000 up as the same figure."""
    assert usd_rate(amount) == shown
