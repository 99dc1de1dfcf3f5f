"""GCP labels and ids."""

from __future__ import annotations

import re

import pytest

from clouds.gcp.labels import (
    cluster_labels,
    gcp_id,
    label_collisions,
    sanitize_label_key,
    sanitize_label_value,
)


def test_cluster_labels_base_and_tags() -> None:
    labels = cluster_labels("train", {"Team": "ML:Research", "cost-center": "42"})
    assert labels == {
        "trainstack-cluster": "train",
        "trainstack-provider": "gcp",
        "team": "ml_research",
        "cost-center": "42",
    }


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        pytest.param("trainstack:cluster", "trainstack_cluster", id="colon"),
        pytest.param("2024", "k2024", id="leading-digit"),
        pytest.param("Owner Name", "owner_name", id="space-upper"),
        pytest.param("x" * 80, "x" * 63, id="truncated"),
    ],
)
def test_sanitize_key(key: str, expected: str) -> None:
    assert sanitize_label_key(key) == expected


def test_sanitize_value_allows_empty_and_digits() -> None:
    assert sanitize_label_value("") == ""
    assert sanitize_label_value("v1.2/3") == "v1_2_3"


def test_collisions() -> None:
    assert label_collisions({"Team": "a", "team": "b", "x": "c"}) == [("Team", "team", "team")]
    assert label_collisions({"a": "1", "b": "2"}) == []


@pytest.mark.parametrize(
    ("text", "limit"),
    [("train-nodes", 30), ("a" * 50 + "-nodes", 30), ("9lives_cluster-nodes", 30)],
)
def test_gcp_id_is_rfc1035_and_bounded(text: str, limit: int) -> None:
    value = gcp_id(text, limit)
    assert len(value) <= limit
    assert re.fullmatch(r"[a-z]([-a-z0-9]*[a-z0-9])?", value)
    assert gcp_id("train-nodes", 30) == "train-nodes"
    assert gcp_id("a" * 50 + "-x", 30) != gcp_id("a" * 50 + "-y", 30)


def test_international_lowercase_labels_are_kept_whole():
    """GCP allows international characters ([\\p{Ll}\\p{Lo}\\p{N}_-]); the labels were refused at
    plan and the sanitizer would have turned each into `_`."""
    from clouds.gcp.labels import cluster_labels

    labels = cluster_labels("c", {"équipe": "données", "項目": "研究", "Team X": "A:B"})
    assert labels["équipe"] == "données" and labels["項目"] == "研究" and labels["team_x"] == "a_b"
