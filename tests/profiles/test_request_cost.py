"""Bucket request charges per job, with hand-computed values."""

from __future__ import annotations

import pytest

from clouds.registry import NAMES
from profiles.cost import requests as rq


def test_prices_are_sourced_and_dated_and_azure_has_none():
    prices = {name: rq.request_price(name) for name in NAMES}
    assert {name for name, price in prices.items() if price} == {"aws", "gcp"}
    for price in filter(None, prices.values()):
        assert price.source and price.observed
        assert price.read_usd_per_1000 < price.list_usd_per_1000


@pytest.mark.parametrize(
    ("provider", "files", "passes", "reads", "lists", "usd"),
    [
        # 1.28M files: 1,280,000 x 0.0004/1,000 + 1,280 x 0.005/1,000 = 0.512 + 0.0064
        pytest.param("aws", 1_280_000, 1, 1_280_000, 1_280, 0.5184, id="imagenet-once"),
        pytest.param("gcp", 1_280_000, 1, 1_280_000, 1_280, 0.5184, id="gcs-class-a-b"),
        # a file system smaller than the data reads the bucket every pass: 90,000 GETs, one LIST
        pytest.param("aws", 1000, 90, 90_000, 1, 0.036 + 0.000005, id="every-pass"),
        pytest.param("aws", 1001, 1, 1001, 2, 0.0004004 + 0.00001, id="second-list-page"),
    ],
)
def test_request_cost(provider, files, passes, reads, lists, usd):
    cost = rq.request_cost(provider, files, passes)
    assert cost is not None
    assert (cost.reads, cost.lists) == (reads, lists)
    assert cost.usd == pytest.approx(usd)


def test_no_sourced_price_means_not_counted():
    assert rq.request_cost("azure", 1000) is None


@pytest.mark.parametrize(
    ("passes", "data", "capacity", "expected"),
    [
        pytest.param(90, 2048, 4800, 1, id="file-system-holds-it"),
        pytest.param(90, 2048, 2048, 1, id="exactly"),
        pytest.param(90, 2048, 1200, 90, id="too-small-rereads"),
        pytest.param(90, None, 1200, 1, id="size-unknown"),
    ],
)
def test_bucket_passes(passes, data, capacity, expected):
    assert rq.bucket_passes(passes, data, capacity) == expected


@pytest.mark.parametrize(
    ("size", "files", "mean", "expected"),
    [
        pytest.param(2048, 1_280_000, None, 1_280_000, id="given"),
        pytest.param(2048, None, 0.5, 4_194_304, id="size-over-mean"),  # 2,048 x 1,024 / 0.5
        pytest.param(2048, 7, 0.5, 7, id="count-wins"),
        pytest.param(None, None, 0.5, None, id="unknown"),
        pytest.param(2048, None, None, None, id="no-mean"),
    ],
)
def test_file_count(size, files, mean, expected):
    assert rq.file_count(size, files, mean) == expected


def test_describe_names_the_counts_price_and_source():
    cost = rq.request_cost("gcp", 1_280_000)
    assert cost is not None
    assert cost.describe() == (
        "data: bucket requests $0.52 (1,280,000 GETs + 1,280 LISTs, Cloud Storage Standard us-east1, "
        "list price: G1, undated)"
    )


def test_describe_counts_the_exports_puts():
    # 1,280,000 Class B GETs x $0.0004/1,000 + 1,280 LISTs and 40,000 PUTs x $0.005/1,000 (G1)
    cost = rq.request_cost("gcp", 1_280_000, writes=40_000)
    assert cost is not None
    assert cost.describe() == (
        "data: bucket requests $0.72 (1,280,000 GETs + 1,280 LISTs + 40,000 PUTs, Cloud Storage Standard "
        "us-east1, list price: G1, undated)"
    )
