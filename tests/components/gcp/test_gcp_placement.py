"""Compact placement: COLLOCATED, max distance only for a3-* and never 1 (G6, G7)."""

from __future__ import annotations

import pytest

from clouds.gcp.placement import PlacementSpec, placement_spec, supports_compact_placement


@pytest.mark.parametrize(
    ("machine_type", "nodes", "expected"),
    [
        pytest.param("a3-highgpu-8g", 2, PlacementSpec("COLLOCATED", 2, None), id="a3-high-2"),
        pytest.param("a3-megagpu-8g", 256, PlacementSpec("COLLOCATED", 2, None), id="a3-mega-256"),
        pytest.param("a3-megagpu-8g", 257, PlacementSpec("COLLOCATED", 3, None), id="a3-mega-257"),
        pytest.param("a3-ultragpu-8g", 1500, PlacementSpec("COLLOCATED", 3, None), id="a3u-1500"),
        pytest.param("a2-highgpu-8g", 4, PlacementSpec("COLLOCATED", None, None), id="a2-unset"),
        pytest.param("a4-highgpu-8g", 4, PlacementSpec("COLLOCATED", None, None), id="a4-unset"),
        pytest.param("g2-standard-96", 4, PlacementSpec("COLLOCATED", None, None), id="g2-unset"),
        pytest.param("n1-standard-16", 4, None, id="n1-none"),
    ],
)
def test_placement_spec(machine_type: str, nodes: int, expected: PlacementSpec | None) -> None:
    assert placement_spec(machine_type, nodes) == expected


@pytest.mark.parametrize("nodes", [1, 2, 22, 23, 150, 256, 257, 1000, 1500])
@pytest.mark.parametrize("machine_type", ["a3-highgpu-8g", "a3-megagpu-8g", "a3-ultragpu-8g"])
def test_a3_never_gets_max_distance_1(machine_type: str, nodes: int) -> None:
    spec = placement_spec(machine_type, nodes)
    assert spec is not None and spec.max_distance in (2, 3)
    assert spec.vm_count is None


def test_too_many_a3_nodes_for_one_policy() -> None:
    with pytest.raises(ValueError, match="1500"):
        placement_spec("a3-highgpu-8g", 1501)


def test_series_support() -> None:
    assert supports_compact_placement("a2-ultragpu-8g")
    assert not supports_compact_placement("tpu-v5p-8")
    assert not supports_compact_placement("n1-standard-8")
