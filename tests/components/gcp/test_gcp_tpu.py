"""TPU slice names, chips and runtimes (catalog README TPU naming; TPU runtimes page)."""

from __future__ import annotations

import pytest

from clouds.gcp.tpu import (
    is_tpu,
    tpu_accelerator_type,
    tpu_chips,
    tpu_name_for_chips,
    tpu_runtime_version,
)


@pytest.mark.parametrize(
    ("name", "api_name", "chips", "runtime"),
    [
        pytest.param("tpu-v4-8", "v4-8", 4, "tpu-ubuntu2204-base", id="v4-8"),
        pytest.param("tpu-v4-32", "v4-32", 16, "tpu-ubuntu2204-base", id="v4-32"),
        pytest.param("tpu-v5p-8", "v5p-8", 4, "v2-alpha-tpuv5", id="v5p-8"),
        pytest.param("tpu-v5litepod-8", "v5litepod-8", 8, "v2-alpha-tpuv5-lite", id="v5e-8"),
        pytest.param("tpu-v5litepod-16", "v5litepod-16", 16, "v2-alpha-tpuv5-lite", id="v5e-16"),
        pytest.param("tpu-v6e-8", "v6e-8", 8, "v2-alpha-tpuv6e", id="v6e-8"),
        pytest.param("tpu-v6e-16", "v6e-16", 16, "v2-alpha-tpuv6e", id="v6e-16"),
        pytest.param("tpu-v3-8", "v3-8", 4, "tpu-ubuntu2204-base", id="v3-8"),
    ],
)
def test_name_conversions(name: str, api_name: str, chips: int, runtime: str) -> None:
    assert is_tpu(name)
    assert tpu_accelerator_type(name) == api_name
    assert tpu_chips(name) == chips
    assert tpu_runtime_version(name) == runtime


@pytest.mark.parametrize(
    ("generation", "chips", "api_name"),
    [
        pytest.param("v5p", 4, "v5p-8", id="v5p-4-chips"),
        pytest.param("v5e", 8, "v5litepod-8", id="v5e-alias-8-chips"),
        pytest.param("tpu-v5litepod", 16, "v5litepod-16", id="v5litepod-16-chips"),
        pytest.param("v4", 16, "v4-32", id="v4-16-chips"),
        pytest.param("v6e", 8, "v6e-8", id="v6e-8-chips"),
    ],
)
def test_chips_to_name(generation: str, chips: int, api_name: str) -> None:
    assert tpu_name_for_chips(generation, chips) == api_name
    assert tpu_chips(api_name) == chips  # the inverse round-trips


@pytest.mark.parametrize("name", ["tpu-v9-8", "tpu-v5p", "a3-highgpu-8g", "tpu-v4-7", "tpu-v6e-0"])
def test_bad_names_are_rejected(name: str) -> None:
    with pytest.raises(ValueError, match="instance_type"):
        tpu_chips(name)


def test_bad_generation_and_chips() -> None:
    with pytest.raises(ValueError, match="generation"):
        tpu_name_for_chips("v7", 4)
    with pytest.raises(ValueError, match="chips"):
        tpu_name_for_chips("v5p", 0)
    assert not is_tpu("a2-highgpu-8g")


@pytest.mark.parametrize(
    ("name", "purchase", "says"),
    [
        pytest.param("tpu-v5p-32", "on-demand", True, id="v5p-on-demand"),
        pytest.param("tpu-v6e-8", "on-demand", True, id="v6e-on-demand"),
        pytest.param("tpu-v5p-32", "spot", False, id="v5p-spot"),
        pytest.param("tpu-v4-8", "on-demand", False, id="v4-on-demand"),
        pytest.param("a3-highgpu-8g", "on-demand", False, id="gpu"),
    ],
)
def test_an_on_demand_v5p_or_v6e_pick_says_capacity_needs_a_reservation(name, purchase, says):
    from clouds.gcp.tpu import capacity_note

    note = capacity_note(name, purchase)
    assert (note is not None) is says
    if says:
        assert "reservation or a queued resource" in note and "queued_resource: true" in note
        assert "reservation: {id: NAME}" in note


@pytest.mark.parametrize(
    ("purchase", "reservation", "expected"),
    [
        pytest.param("spot", None, {"spot": True}, id="spot"),
        pytest.param("on-demand", "v5p-resv", {"reserved": True}, id="reserved"),
        pytest.param("on-demand", None, None, id="on-demand"),
    ],
)
def test_tpu_scheduling(purchase, reservation, expected):
    from clouds.gcp.tpu import scheduling_config

    assert scheduling_config(purchase, reservation) == expected
