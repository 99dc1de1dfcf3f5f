"""Every fix a worded pydantic error suggests is itself a valid value."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, Field, ValidationError

from clouds.config import ConfigError, parse_cluster_config
from clouds.field_errors import describe
from tests.cases import cases
from tests.clusters import BASE_CLUSTER


class _Bounds(BaseModel):
    hours: float = Field(gt=0, description="run time")
    below: float = Field(lt=0, description="offset")
    fraction: float = Field(gt=0.5, description="share")
    nodes: int = Field(ge=1, description="number of nodes")
    capacity_gib: int = Field(description="requested capacity")


def _message(**values) -> str:
    good = {"hours": 1.0, "below": -1.0, "fraction": 0.75, "nodes": 1, "capacity_gib": 4800}
    with pytest.raises(ValidationError) as caught:
        _Bounds(**{**good, **values})
    error = caught.value.errors()[0]
    text = describe(error, _Bounds, str(error["loc"][0]))
    assert text is not None
    return text


@pytest.mark.parametrize(
    ("values", "example"),
    [
        ({"hours": 0}, "hours: 1"),
        ({"hours": -3}, "hours: 1"),
        ({"below": 0}, "below: -1"),
        ({"fraction": 0.25}, "fraction: 1"),
        ({"nodes": 0}, "nodes: 1"),
    ],
)
def test_the_suggested_fix_is_past_the_bound(values, example):
    message = _message(**values)
    assert message.endswith(f"write e.g. {example}")
    key, number = example.split(": ")
    _Bounds(**{"hours": 1.0, "below": -1.0, "fraction": 0.75, "nodes": 1, "capacity_gib": 1, key: float(number)})


@pytest.mark.parametrize(
    ("given", "example"),
    [
        ("4800GiB", "capacity_gib: 4800"),
        ("4.5TiB", "capacity_gib: 4608"),
        ("4800GB", "capacity_gib: 4471"),
        ("lots", "capacity_gib: 2"),
    ],
)
def test_a_number_with_a_unit_suggests_it_in_the_keys_unit(given, example):
    assert _message(capacity_gib=given).endswith(f"e.g. {example}")


@pytest.mark.parametrize(("cluster", "says"), cases("worded_shapes.yaml", "cluster", "says"))
def test_a_value_of_the_wrong_shape_is_worded_with_the_fix(cluster, says):
    with pytest.raises(ConfigError) as err:
        parse_cluster_config({**BASE_CLUSTER, **cluster})
    assert says in str(err.value) and "\n" not in str(err.value)
    assert not any(raw in str(err.value) for raw in ("Input should", "valid dictionary", "valid boolean"))


@pytest.mark.parametrize(
    "value",
    [pytest.param("cheap", id="text"), pytest.param(-1, id="negative")],
)
def test_a_bad_stack_price_is_called_the_nodes_compute_price(value):
    # The stack's usd_per_hour is compute only (`plan` adds the file system), not the whole cost.
    with pytest.raises(ConfigError) as err:
        parse_cluster_config({**BASE_CLUSTER, "usd_per_hour": value})
    assert "usd_per_hour: " in str(err.value) and "the compute price of the nodes" in str(err.value)
    assert "whole-cluster" not in str(err.value)


@pytest.mark.parametrize("throughput", [pytest.param(0, id="zero"), pytest.param(-250, id="negative")])
def test_a_stacks_throughput_below_its_bound_suggests_a_tier_that_is_sold(throughput):
    """`throughput_mbps_per_tib: 0` suggested 1, which FSx PERSISTENT_2, Azure Managed Lustre and
    SFS Turbo refuse; 250 is a tier of each (the workload's `throughput` suggests it too)."""
    fs = {**BASE_CLUSTER["file_system"], "throughput_mbps_per_tib": throughput}
    with pytest.raises(ConfigError) as err:
        parse_cluster_config({**BASE_CLUSTER, "file_system": fs})
    assert "must be more than 0; write e.g. throughput_mbps_per_tib: 250;" in str(err.value)
    from clouds.aws.validate import validate_args

    validate_args(parse_cluster_config({**BASE_CLUSTER, "file_system": {**fs, "throughput_mbps_per_tib": 250}}), "c")
