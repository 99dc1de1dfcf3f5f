"""The written stack keeps the chosen row's hours unrounded, so `plan` (which prices the
stack's hours) gives `resolve`'s USD/job to the cent. T14: 64 x p5en spot for 9.89405 h at
$437.504/hour; hours rounded to 9.894 made plan $4,358.97 beside resolve's $4,358.99."""

import pytest

from profiles.catalog.loader import load_catalog
from profiles.resolver import resolve
from profiles.spec import parse_spec
from profiles.stack.price import price_from_catalog
from profiles.stack.writer import cluster_config

H200 = {
    "name": "h200-any",
    "accelerators": "H200:8",
    "nodes": "auto",
    "interconnect": "rdma",
    "purchase": "any",
    "work": {"gpu_hours": 5000, "reference": "H100"},
    "deadline": "3d",
    "spot": {"checkpoint_interval": "1h"},
    "file_system": {"capacity": "9600GiB", "throughput": 250},
}


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param({}, id="t14-h200-spot"),
        pytest.param({"work": {"gpu_hours": 1234.5, "reference": "H100"}}, id="other-work"),
    ],
)
def test_plan_of_the_written_stack_gives_resolves_job_cost(fields):
    spec = parse_spec(H200 | fields)
    catalog = load_catalog()
    row = resolve(spec, catalog.offerings, top=1).choice.candidate
    config = cluster_config(spec, row, catalog.version)
    assert config.hours == row.hours
    planned = price_from_catalog(config).usd_total
    assert planned is not None and round(planned, 2) == round(row.usd_total, 2)
