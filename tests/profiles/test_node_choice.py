"""The fewest nodes (and slice) that meet the deadline, unless a larger cluster is cheaper by
more than `node_margin`; equal cost goes to fewer accelerators; the bounded search prices
the same picks as costing every count."""

import dataclasses

import pytest

from profiles.candidate import Candidate
from profiles.choice.fewest import DEFAULT_NODE_MARGIN, best_per_purchase, fewest_per_family
from profiles.choice.nodes import offering_candidates
from profiles.cost.estimate import JobHours, job_hours
from profiles.costing import candidates
from profiles.spec import parse_spec
from tests.profiles.offering_factory import offering

M = DEFAULT_NODE_MARGIN


def _kept(hours, usd_per_node_hour, nodes, note=""):
    return Candidate(offering(), "on-demand", nodes, hours, usd_per_node_hour, notes=(note,))


def test_each_purchase_keeps_the_fewest_nodes_that_meet_the_deadline():
    one, two = _kept(20.0, 5.0, 1), _kept(11.0, 5.0, 2)  # $100 late, $110 on time for 12 h
    assert best_per_purchase([one, two], 12.0, M) == [two]
    assert best_per_purchase([one, two], None, M) == [one]
    # On the deadline counts as on time.
    on_the_line, early = _kept(12.0, 4.0, 1), _kept(11.0, 5.0, 2)
    assert best_per_purchase([early, on_the_line], 12.0, M) == [on_the_line]
    # All late: the fastest, whatever it costs.
    assert best_per_purchase([one, two], 5.0, M) == [two]


def test_equal_rows_keep_the_first():
    first, second = _kept(10.0, 5.0, 1, "first"), _kept(10.0, 5.0, 1, "second")
    for deadline in (None, 12.0, 5.0):
        assert best_per_purchase([first, second], deadline, M)[0] is first


@pytest.mark.parametrize(
    ("margin", "nodes", "note"),
    [
        # 1 node: 10 h x $5 = $50.00; 2 nodes: 4.9 h x 2 x $5 = $49.00, 2.0 % less.
        pytest.param(
            0.05,
            1,
            "1 x Standard_X: the fewest accelerators on time; 2 x Standard_X would cost 2.0% less ($49.00, 4.9 h), "
            "within the 5% margin (`node_margin`), so the fewer are taken (less capacity and quota to get)",
            id="saving-within-the-margin-keeps-one-node",
        ),
        # $50.00 / $49.00 - 1 = 2.0 % more, above a 1 % margin: the larger count is taken and says why.
        pytest.param(
            0.01,
            2,
            "2 x Standard_X, not 1 x Standard_X (fewer accelerators, also on time): that costs $50.00, 2.0% more, "
            "above the 1% margin (`node_margin`)",
            id="saving-above-the-margin-takes-two-nodes",
        ),
    ],
)
def test_a_larger_count_is_taken_only_beyond_the_margin(margin, nodes, note):
    (pick,) = best_per_purchase([_kept(10.0, 5.0, 1), _kept(4.9, 5.0, 2)], 12.0, margin)
    assert pick.nodes == nodes
    assert pick.notes[-1] == note


def test_equal_cost_goes_to_fewer_nodes_even_at_no_margin():
    # 1 x 10 h and 2 x 5 h at $5/node-hour: $50.00 both; the 2-node run is faster.
    (pick,) = best_per_purchase([_kept(5.0, 5.0, 2), _kept(10.0, 5.0, 1)], 12.0, 0.0)
    assert pick.nodes == 1
    assert "2 x Standard_X would cost the same ($50.00, 5.0 h)" in pick.notes[-1]


def _slice(chips, usd_per_hour, hours):
    tpu = offering(
        provider="gcp",
        region="us-east5",
        zone="us-east5-a",
        instance_type=f"tpu-v5p-{chips * 2}",
        accelerator="tpu-v5p",
        accelerator_count=chips,
        form_factor="TPU",
        interconnect="tpu-ici",
    )
    return Candidate(tpu, "on-demand", 1, hours, usd_per_hour)


def test_tpu_slices_of_one_family_take_the_fewest_chips_on_time():
    # v5p-8 (4 chips) 40 h x $16.80 = $672.00; v5p-16 20 h x $33.60 = $672.00; v5p-32 10 h x $67.20
    # x 0.99 = $665.28 (1.0 % less): all meet 48 h, the 4-chip slice is taken.
    rows = [_slice(16, 67.20 * 0.99, 10.0), _slice(8, 33.60, 20.0), _slice(4, 16.80, 40.0)]
    (pick,) = fewest_per_family(rows, 48.0, M)
    assert pick.offering.instance_type == "tpu-v5p-8"
    assert "1 x tpu-v5p-32 would cost 1.0% less ($665.28, 10.0 h)" in pick.notes[-1]
    # Only the 8- and 16-chip slices meet 24 h: the 8-chip one.
    (pick,) = fewest_per_family(rows, 24.0, M)
    assert pick.offering.instance_type == "tpu-v5p-16"
    # A slice in another zone is another family: both stay.
    other = dataclasses.replace(rows[0], offering=rows[0].offering._replace(zone="us-east5-b"))
    assert len(fewest_per_family([*rows, other], 48.0, M)) == 2


def test_equal_cost_ranks_fewer_accelerators_first():
    small, large = _slice(4, 16.80, 40.0), _slice(8, 33.60, 20.0)  # $672.00 each
    assert sorted([large, small], key=Candidate.sort_key) == [small, large]


SPEC = {
    "accelerators": ["A100-80GB:8"],
    "nodes": "auto",
    "interconnect": "rdma",
    "purchase": "any",
    "work": {"params": "1.3B", "tokens": "100B", "mfu": 0.4},
    "spot": {"checkpoint_interval": "1h"},
    "file_system": {"capacity": "4800GiB", "throughput": 250},
}


def _exhaustive(spec, node):
    """What costing every count of the range and choosing would give."""
    found = []
    for nodes in spec.node_counts():
        estimate = job_hours(spec, node, nodes)
        if isinstance(estimate, JobHours):
            found += candidates(spec, node, estimate, nodes)
    return best_per_purchase(found, spec.deadline_hours, M if spec.node_margin is None else spec.node_margin)


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param({"deadline": "10d"}, id="deadline"),
        pytest.param({"deadline": "2d"}, id="tight-deadline"),
        pytest.param({}, id="no-deadline"),
        pytest.param({"deadline": "10d", "node_margin": "0%"}, id="no-margin"),
        pytest.param({"deadline": "1h"}, id="none-meets"),
        pytest.param({"deadline": "10d", "work": None, "hours": "72h"}, id="fixed-hours"),
    ],
)
@pytest.mark.parametrize("storage_share", [1.0, 0.01, 30.0], ids=["cheap-gpus", "dear-gpus", "dear-file-system"])
def test_the_bounded_search_picks_what_costing_every_count_picks(fields, storage_share):
    spec = parse_spec({**SPEC, **fields})
    node = offering(on_demand_usd_per_hour=30.0 / storage_share, spot_usd_per_hour=10.0 / storage_share)
    picks = offering_candidates(spec, node)
    assert [(c.purchase, c.nodes, round(c.usd_total, 2)) for c in picks] == [
        (c.purchase, c.nodes, round(c.usd_total, 2)) for c in _exhaustive(spec, node)
    ]


def test_node_margin_reads_a_percentage_or_a_fraction():
    assert parse_spec({**SPEC, "node_margin": "3%"}).node_margin == pytest.approx(0.03)
    assert parse_spec({**SPEC, "node_margin": 0.1}).node_margin == pytest.approx(0.1)
    with pytest.raises(ValueError, match="node_margin"):
        parse_spec({**SPEC, "node_margin": 2})
