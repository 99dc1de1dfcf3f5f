"""Pure-function tables for `profiles/cost/`, the resolver and the node choice.

Each case pins a value computed by hand (shown beside it) so that a changed operator,
constant or comparison in the function gives a different answer. They are here because
`make mutate` (tests/mutation_equivalents.md) found the function's other tests could not
tell such a change apart. No Pulumi, no catalog load, no file I/O: the whole file runs in
well under a second.
"""

from __future__ import annotations

import pytest

from profiles.candidate import Candidate
from profiles.choice.gaps import clouds_without_rows
from profiles.cost.checkpoint import write_hours
from profiles.cost.cluster_cost import usd_per_cny
from profiles.cost.estimate import job_hours
from profiles.cost.inputs import spot_interruptions
from profiles.costing import candidates
from profiles.spec import parse_spec
from tests.profiles.offering_factory import aws_node, offering


@pytest.mark.parametrize(
    ("state", "mbps", "hours"),
    [
        (3.6e9, 1.0, 1.0),  # 3.6e9 B at 1e6 B/s = 3,600 s
        (7.2e9, 2.0, 1.0),
        (1.8e12, 500.0, 1.0),  # 1.8e12 / 5e8 = 3,600 s
        (3.6e9, 4.0, 0.25),
    ],
)
def test_write_hours_is_bytes_over_megabytes_per_second(state, mbps, hours):
    assert write_hours(state, mbps) == pytest.approx(hours, rel=1e-12)


# The spot fallback's gap fill on a row (`profiles.costing._fill`): 2 x p4de-like nodes at $40/h
# on-demand, $12/h spot, 72 h, 0.73 interruptions per node-month, checkpoints every hour and no
# restart time: 72 x 2 x 0.73 / 730 = 0.144 interruptions, each losing half an interval, so the
# run is 72.072 h; the fill is 72.072 x 2 x 0.73 / 730 interruptions x $28/h x 72.072 / 2 h.
FILL_SPEC = {
    "name": "fill",
    "accelerators": ["A100-80GB:8"],
    "nodes": 2,
    "hours": 72,
    "purchase": "spot",
    "spot": {"checkpoint_interval": "1h", "restart": "0h", "interruptions_per_node_month": 0.73},
    "file_system": {"capacity": "4800GiB"},
}
FILL_USD = 72.072 * 2 * 0.73 / 730 * 28.0 * 72.072 / 2  # $145.44


def _spot_row(node, **spot):
    spec = parse_spec({**FILL_SPEC, "spot": {**FILL_SPEC["spot"], **spot}})
    (row,) = [c for c in candidates(spec, node, job_hours(spec, node, 2), 2) if c.purchase == "spot"]
    return row


@pytest.mark.parametrize(
    ("fallback", "minutes"), [("on-demand after 30m", "30"), ("on-demand after 2h", "120")], ids=["30m", "2h"]
)
def test_a_spot_rows_gap_fill_is_the_on_demand_premium_for_half_the_run_per_interruption(fallback, minutes):
    row = _spot_row(aws_node(spot_usd_per_hour=12.0), fallback=fallback)
    assert row.hours == pytest.approx(72.072, rel=1e-12)
    assert row.usd_fill == pytest.approx(FILL_USD, rel=1e-12)
    assert row.usd_total == pytest.approx(12.0 * 2 * 72.072 + row.usd_storage + FILL_USD, rel=1e-12)
    assert row.notes[-1].startswith(
        f"spot fallback: on-demand fills a short spot group after {minutes} min, up to $145.44 per job (an upper bound"
    )


def test_the_gap_fill_uses_the_types_own_interruption_rate_when_the_spec_gives_none():
    node = aws_node(spot_usd_per_hour=12.0)
    spec = parse_spec({**FILL_SPEC, "spot": {"checkpoint_interval": "1h", "fallback": "on-demand after 30m"}})
    (row,) = [c for c in candidates(spec, node, job_hours(spec, node, 2), 2) if c.purchase == "spot"]
    rate = spot_interruptions(node)[0]
    assert rate != 0.73
    assert row.usd_fill == pytest.approx(row.hours * 2 * rate / 730 * 28.0 * row.hours / 2, rel=1e-12)


@pytest.mark.parametrize(
    "node",
    [
        pytest.param(offering(spot_usd_per_hour=12.0, on_demand_usd_per_hour=40.0), id="azure-has-no-fallback"),
        pytest.param(aws_node(spot_usd_per_hour=12.0, on_demand_usd_per_hour=None), id="no-on-demand-price"),
    ],
)
def test_no_gap_fill_where_the_cloud_has_no_fallback_or_no_on_demand_price(node):
    row = _spot_row(node, fallback="on-demand after 30m")
    assert row.usd_fill is None
    assert not any(n.startswith("spot fallback") for n in row.notes)
    assert row.usd_total == pytest.approx(12.0 * 2 * 72.072 + row.usd_storage, rel=1e-12)


# Why an allowed cloud gave no row (`profiles.choice.gaps.clouds_without_rows`), one case a rule.
_AWS, _GCP = aws_node(), offering(provider="gcp", region="us-central1", zone="us-central1-a")
_GCP_2 = _GCP._replace(zone="us-central1-b")


@pytest.mark.parametrize(
    ("allowed", "failed", "details", "gaps"),
    [
        pytest.param(["aws"], {"price": [_AWS]}, {}, {}, id="a-cloud-with-a-row-is-not-a-gap"),
        pytest.param(
            ["lambda"],
            {},
            {},
            {
                "lambda": "no priced offering in the catalog (`trainstack catalog info`; refresh with "
                "`trainstack catalog refresh --provider lambda`)"
            },
            id="a-cloud-with-no-offering",
        ),
        pytest.param(["gcp"], {"price": [_AWS]}, {}, {}, id="only-other-clouds-removed-says-nothing"),
        pytest.param(
            ["gcp"],
            {"price": [_GCP, _GCP_2], "accelerator": [_GCP], "interconnect": [_AWS, _GCP]},
            {},
            {
                "gcp": "price: no offering of these accelerators has a price for the purchase asked; 2 offerings removed by it"
            },
            id="the-deepest-constraint-with-its-count",
        ),
        pytest.param(
            ["aws", "gcp"],
            {"gpu_memory": [_GCP], "region": [_GCP_2]},
            {("gcp", "gpu_memory"): "40 GiB < 80 GiB", ("gcp", "region"): "unused"},
            {"gcp": "gpu_memory: no offering with the GPU memory asked (40 GiB < 80 GiB); 1 offerings removed by it"},
            id="with-the-first-offerings-numbers",
        ),
    ],
)
def test_each_allowed_cloud_without_a_row_is_named_with_its_deepest_constraint(allowed, failed, details, gaps):
    found = [Candidate(_AWS, "on-demand", 1, 10.0, 40.0)]
    assert clouds_without_rows(allowed, [_AWS, _GCP, _GCP_2], found, failed, details) == gaps


@pytest.mark.parametrize(
    ("fields", "rate"),
    [
        pytest.param({"currency": "CNY", "on_demand_native": 70.0, "on_demand_usd_per_hour": 10.0}, 1 / 7, id="cny"),
        pytest.param({"currency": "USD", "on_demand_native": 70.0, "on_demand_usd_per_hour": 10.0}, None, id="usd"),
        pytest.param(
            {"currency": "CNY", "on_demand_native": None, "on_demand_usd_per_hour": 10.0}, None, id="no-native"
        ),
        pytest.param({"currency": "CNY", "on_demand_native": 0.0, "on_demand_usd_per_hour": 10.0}, None, id="native-0"),
        pytest.param({"currency": "CNY", "on_demand_native": 70.0, "on_demand_usd_per_hour": None}, None, id="no-usd"),
    ],
)
def test_a_cny_rows_rate_is_its_usd_over_its_native_price(fields, rate):
    found = usd_per_cny(offering(**fields))
    assert found == (None if rate is None else pytest.approx(rate, rel=1e-12))
