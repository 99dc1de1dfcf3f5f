"""The fewest nodes (and slice) that meet the deadline, unless a larger cluster is cheaper by
more than `node_margin`; equal cost goes to fewer accelerators; the bounded search prices
the same picks as costing every count."""

import dataclasses

import pytest

from profiles.candidate import Candidate
from profiles.choice.fewest import DEFAULT_NODE_MARGIN, _kept_for, best_per_purchase, fewest_per_family
from profiles.choice.nodes import (
    offering_candidates,
    zone_copy_candidates,
)
from profiles.choice.search_bounds import (
    cheapest_on_time,
    first_on_time,
    job_floor,
    least_floor,
    reference_hours,
    within_margin,
)
from profiles.cost.estimate import JobHours, job_hours
from profiles.costing import candidates
from profiles.spec import parse_spec
from tests.profiles.offering_factory import aws_node, offering

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


# The bounded search's pure parts (`profiles.choice.nodes`), hand-computed. A spot row of 2 nodes
# at $10/node-hour: 102 h of which 2 h are 2 interruptions, so 100 h of work, 2 x 730 / (100 x 2)
# = 7.3 interruptions per node-month, and 2 / 2 - 1 h / 2 = 0.5 h of restart per interruption;
# its file system $2/h ($204), the bucket's requests $5.
SPOT_ROW = Candidate(
    offering(), "spot", 2, 102.0, 10.0, usd_storage=204.0, interruptions=2.0, added_hours=2.0, usd_requests=5.0
)


@pytest.mark.parametrize(
    ("row", "nodes", "hours", "interval", "reference", "floor"),
    [
        # 4 nodes, 50 h: 50 x 4 x 7.3 / 730 = 2 interruptions of 0.5 + 0.5 h: a 52 h run,
        # 10 x 4 x 52 + 2 x 52 + 5.
        pytest.param(SPOT_ROW, 4, 50.0, 1.0, 0.0, 2080.0 + 104.0 + 5.0, id="spot-at-another-count"),
        # The file system kept for the 60 h reference run instead of the 52 h one.
        pytest.param(SPOT_ROW, 4, 50.0, 1.0, 60.0, 2080.0 + 120.0 + 5.0, id="file-system-kept-for-the-reference"),
        # Checkpoints every 4 h: restart 2 / 2 - 2 = -1 counts as 0; 2 interruptions lose 2 h each.
        pytest.param(SPOT_ROW, 4, 50.0, 4.0, 0.0, 10 * 4 * 54.0 + 2 * 54.0 + 5.0, id="negative-restart-is-none"),
        # Half an interruption: 0.5 x 730 / (100 x 2) = 1.825/node-month, restart 2 / 0.5 - 0.5 =
        # 3.5 h; 8 nodes, 100 h: 2 interruptions of 0.5 + 3.5 h, a 108 h run.
        pytest.param(
            dataclasses.replace(SPOT_ROW, interruptions=0.5),
            8,
            100.0,
            1.0,
            0.0,
            10 * 8 * 108.0 + 2 * 108.0 + 5.0,
            id="fewer-than-one-interruption",
        ),
        # A 0.8 h spot run of which 0.3 h are 0.5 interruptions: 0.5 x 730 / (0.5 x 2) = 365 per
        # node-month, restart 0.6 - 0.25 = 0.35 h; 2 nodes, 0.5 h: 0.5 interruptions of 0.6 h;
        # storage $1.60 over 0.8 h = $2/h.
        pytest.param(
            Candidate(offering(), "spot", 2, 0.8, 10.0, usd_storage=1.6, interruptions=0.5, added_hours=0.3),
            2,
            0.5,
            0.5,
            0.0,
            10 * 2 * 0.8 + 2 * 0.8,
            id="a-run-under-an-hour",
        ),
        # On-demand: no interruptions, no requests counted: 30 x 3 x 40 + 2 x 40.
        pytest.param(
            Candidate(offering(), "on-demand", 2, 50.0, 30.0, usd_storage=100.0),
            3,
            40.0,
            1.0,
            0.0,
            3680.0,
            id="on-demand",
        ),
        # No file system: the nodes alone, 30 x 3 x 40.
        pytest.param(Candidate(offering(), "on-demand", 2, 50.0, 30.0), 3, 40.0, 1.0, 0.0, 3600.0, id="no-file-system"),
        # A row of no hours has no file-system rate to carry to another count.
        pytest.param(
            Candidate(offering(), "on-demand", 2, 0.0, 30.0, usd_storage=100.0),
            3,
            40.0,
            1.0,
            0.0,
            3600.0,
            id="no-hours",
        ),
    ],
)
def test_a_counts_floor_is_its_compute_file_system_and_requests_with_the_rows_interruption_rate(
    row, nodes, hours, interval, reference, floor
):
    assert job_floor(row, nodes, hours, interval, reference) == pytest.approx(floor, rel=1e-12)


def test_a_floor_at_the_rows_own_count_and_work_hours_is_its_cost():
    assert job_floor(SPOT_ROW, 2, 100.0, 1.0, 0.0) == pytest.approx(SPOT_ROW.usd_total, rel=1e-12)


def _row(purchase, nodes, hours, usd_per_node_hour=10.0, storage=None):
    return Candidate(offering(), purchase, nodes, hours, usd_per_node_hour, usd_storage=storage)


def test_the_cheapest_on_time_cost_per_purchase_option():
    rows = [
        _row("spot", 1, 20.0),  # $200, late for 12 h
        _row("spot", 2, 12.0),  # $240, on the deadline
        _row("spot", 4, 6.0, 9.0),  # $216
        _row("on-demand", 2, 8.0, 30.0, storage=16.0),  # $496; its file system kept 10 h: $500
        _row("on-demand", 4, 4.0, 30.0, storage=8.0),  # $488; kept 10 h: $500
    ]
    reference = {("on-demand", None): 10.0, ("spot", None): 0.0}
    assert cheapest_on_time(rows, 12.0, {}, reference) == {("spot", None): 216.0, ("on-demand", None): 500.0}
    # What was found before stays when it is cheaper.
    low = {("spot", None): 100.0, ("on-demand", None): 600.0}
    assert cheapest_on_time(rows, 12.0, low, reference) == {("spot", None): 100.0, ("on-demand", None): 500.0}
    # No deadline: every row counts.
    assert cheapest_on_time(rows, None, {}, reference) == {("spot", None): 200.0, ("on-demand", None): 500.0}
    # An option with no reference keeps its file system for its own run only.
    assert cheapest_on_time(rows[3:4], 12.0, {}, {}) == {("on-demand", None): 496.0}
    assert cheapest_on_time([_row("on-demand", 1, 0.5, 10.0, storage=1.0)], 12.0, {}, {}) == {("on-demand", None): 6.0}
    # A row on the deadline counts as on time.
    assert cheapest_on_time([_row("spot", 2, 12.0)], 12.0, {}, {}) == {("spot", None): 240.0}


def test_the_first_on_time_row_per_purchase_option_and_its_hours():
    rows = [_row("spot", 1, 20.0), _row("on-demand", 1, 12.0), _row("spot", 2, 12.0), _row("spot", 4, 6.0)]
    assert first_on_time(rows, 12.0) == {("on-demand", None): rows[1], ("spot", None): rows[2]}
    assert first_on_time(rows, None) == {("spot", None): rows[0], ("on-demand", None): rows[1]}
    assert first_on_time(rows, 5.0) == {}
    assert reference_hours(rows, 12.0) == {("on-demand", None): 12.0, ("spot", None): 12.0}
    assert reference_hours(rows, 7.0) == {("spot", None): 6.0}


@pytest.mark.parametrize(
    ("row", "bound", "deadline", "fits"),
    [
        pytest.param(_row("spot", 2, 10.0), {("spot", None): 200.0}, 12.0, True, id="on-time-within"),
        pytest.param(_row("spot", 2, 10.0), {("spot", None): 200.0}, None, True, id="no-deadline"),
        pytest.param(_row("spot", 2, 12.0), {("spot", None): 240.0}, 12.0, True, id="on-both-lines"),
        pytest.param(_row("spot", 2, 13.0), {("spot", None): 300.0}, 12.0, False, id="late"),
        pytest.param(_row("spot", 2, 10.0), {("spot", None): 199.99}, 12.0, False, id="over-the-bound"),
        pytest.param(_row("spot", 2, 10.0), {("on-demand", None): 300.0}, 12.0, False, id="no-bound-for-its-option"),
        # Its file system kept for the option's 11 h reference run: $200 + $2 = $202.
        pytest.param(
            _row("spot", 2, 10.0, storage=20.0), {("spot", None): 221.0}, 12.0, False, id="file-system-kept-longer"
        ),
        pytest.param(_row("spot", 2, 10.0, storage=20.0), {("spot", None): 222.0}, 12.0, True, id="kept-within"),
        # An option without a reference run keeps its file system for its own run only: $10 + $1.
        pytest.param(
            _row("on-demand", 2, 0.5, 10.0, storage=1.0), {("on-demand", None): 11.5}, 12.0, True, id="no-reference"
        ),
    ],
)
def test_a_row_fits_when_on_time_and_within_its_options_bound(row, bound, deadline, fits):
    assert within_margin(row, bound, deadline, {("spot", None): 11.0}) is fits


def _between_purchases(fields, node, nodes):
    """A deadline between the on-demand and the (slower) spot row at `nodes` nodes: on-demand is
    on time there, spot needs more nodes."""
    spec = parse_spec({**SPEC, **fields, "deadline": "10d"})
    by = {c.purchase: c.hours for c in candidates(spec, node, job_hours(spec, node, nodes), nodes)}
    assert by["on-demand"] < by["spot"]
    return f"{(by['on-demand'] + by['spot']) / 2}h"


HIGH_RATE = {"spot": {"checkpoint_interval": "1h", "interruptions_per_node_month": 20}}


@pytest.mark.parametrize(
    ("fields", "late_at", "priced"),
    [
        pytest.param({"deadline": "10d"}, None, {1}, id="first-count-settles"),
        pytest.param({"deadline": "2d"}, None, {4}, id="fewer-counts-only-timed"),
        pytest.param({}, 1, {1, 2}, id="spot-late-at-1-node"),
        pytest.param(HIGH_RATE, 1, {1, 2}, id="spot-late-at-1-node-high-rate"),
        pytest.param({}, 2, {2, 4}, id="spot-late-at-2-nodes"),
        pytest.param({"deadline": "10d", "node_margin": "0%"}, None, {1, 2, 4, 8}, id="no-margin"),
        pytest.param({"deadline": "1h"}, None, {64}, id="none-meets"),
        # 50 interruptions per node-month: the fastest spot run could be at fewer nodes than the
        # fastest estimate, so counts are priced down to one whose estimate is slower than it.
        pytest.param(
            {"deadline": "1h", "spot": {"checkpoint_interval": "1h", "interruptions_per_node_month": 50}},
            None,
            {64, 32, 16},
            id="none-meets-spot-slowed-by-interruptions",
        ),
        # 3,000 interruptions per node-month: spot is late at every count, so its fastest row is
        # sought at every count, the ones below the first on-time count included.
        pytest.param(
            {"deadline": "4d", "spot": {"checkpoint_interval": "1h", "interruptions_per_node_month": 3000}},
            None,
            {1, 2, 4, 8, 16, 32, 64},
            id="spot-late-at-every-count",
        ),
        pytest.param({"deadline": "10d", "work": None, "hours": "72h"}, None, {1}, id="fixed-hours"),
    ],
)
def test_the_bounded_search_prices_only_counts_that_can_change_the_pick(monkeypatch, fields, late_at, priced):
    """Counts below the first on-time one are only timed; larger ones are priced only while their
    floor can change a pick (`profiles.choice.nodes`); the picks are those of costing every count."""
    node = offering()
    if late_at is not None:
        fields = {**fields, "deadline": _between_purchases(fields, node, late_at)}
    spec = parse_spec({**SPEC, **fields})
    seen: list[int] = []

    def spy(spec, offering, estimate, nodes=None):
        seen.append(nodes)
        return candidates(spec, offering, estimate, nodes)

    monkeypatch.setattr("profiles.choice.nodes.candidates", spy)
    picks = offering_candidates(spec, node)
    assert [(c.purchase, c.nodes, round(c.usd_total, 2)) for c in picks] == [
        (c.purchase, c.nodes, round(c.usd_total, 2)) for c in _exhaustive(spec, node)
    ]
    assert min(seen) == min(priced) and set(seen) <= priced and len(seen) == len(set(seen))


def test_zone_copies_share_their_rows_with_their_own_offering():
    spec = parse_spec({**SPEC, "deadline": "10d"})
    first, copy = offering(zone="eastus-1"), offering(zone="eastus-2")
    memo: dict = {}
    rows = zone_copy_candidates(spec, first, memo)
    copies = zone_copy_candidates(spec, copy, memo)
    assert [c.offering for c in rows] == [first, first] and [c.offering for c in copies] == [copy, copy]
    assert [dataclasses.replace(c, offering=first) for c in copies] == rows
    assert zone_copy_candidates(spec, copy, {}) == copies  # the same rows as costing the copy alone
    # A type with no price for the purchase asked gives no row, in every zone.
    spot_only = parse_spec({**SPEC, "deadline": "10d", "purchase": "spot"})
    memo = {}
    assert zone_copy_candidates(spot_only, first._replace(spot_usd_per_hour=None), memo) == []
    assert zone_copy_candidates(spot_only, copy._replace(spot_usd_per_hour=None), memo) == []


@pytest.mark.parametrize(
    ("usd_per_node_hour", "cost", "text"),
    [
        pytest.param(48.0844, 480.84, "$480.84", id="its-own-total-to-the-cent"),
        pytest.param(48.0844, 851.09, "$851.09 with the file system kept as long", id="file-system-kept-longer"),
    ],
)
def test_a_larger_rows_cost_says_when_its_file_system_is_kept_as_long(usd_per_node_hour, cost, text):
    assert _kept_for(_kept(10.0, usd_per_node_hour, 1), cost) == text


def test_the_least_floor_over_larger_counts_takes_their_fewest_node_hours_and_shortest_run():
    """`least_floor` over 4 nodes x 50 h and 8 x 26 h: 200 node-hours, a 26 h shortest run. Per option:
    spot (`SPOT_ROW`) $10 x 200 + its $2/h file system for its 60 h reference + $5.005 of requests
    = $2,125.005, just under, so $2,125.00; on-demand $30 x 200 + $2.02/h x 26 h = $6,052.52; a
    row of no hours carries no file-system rate; a 0.5 h one $2/h for 26 h."""
    on_demand = Candidate(offering(), "on-demand", 2, 50.0, 30.0, usd_storage=101.0)
    firsts = {
        ("spot", None): dataclasses.replace(SPOT_ROW, usd_requests=5.005),
        ("on-demand", None): on_demand,
        ("reserved-1y", None): Candidate(offering(), "reserved-1y", 2, 0.0, 20.0, usd_storage=100.0),
        ("reserved-3y", None): Candidate(offering(), "reserved-3y", 2, 0.5, 20.0, usd_storage=1.0),
        ("capacity-block", "cb-1"): Candidate(offering(), "capacity-block", 2, 50.0, 20.0, reservation_id="cb-1"),
    }
    hours = {4: JobHours(50.0), 8: JobHours(26.0)}
    assert least_floor(firsts, hours, {("spot", None): 60.0}) == {
        ("spot", None): 2125.0,
        ("on-demand", None): 6052.52,
        ("reserved-1y", None): 4000.0,
        ("reserved-3y", None): 4052.0,
        ("capacity-block", "cb-1"): 4000.0,  # no file system: the nodes alone
    }


def _block(nodes, usd_per_hour, ends):
    node = aws_node(spot_usd_per_hour=12.0)
    where = {"provider": "aws", "instance_type": node.instance_type, "zone": node.zone, "nodes": nodes}
    return {**where, "id": "cb-1", "kind": "capacity-block", "usd_per_hour": usd_per_hour, "ends": ends}


@pytest.mark.parametrize(
    ("block", "margin", "picked", "priced"),
    [
        # A $5/node-hour block of 64 nodes with 10 h left (then on-demand at $40): the larger the
        # cluster, the more of the job runs on the block; 16 nodes finish inside it.
        pytest.param(_block(64, 5.0, "2026-12-05T00:20:00Z"), "5%", 16, {1, 2, 4, 8, 16}, id="block-inside"),
        # A $20 block of 16 nodes with 34 h left: 8 nodes save more than 5 % over 4, 4 are within 30 %.
        pytest.param(_block(16, 20.0, "2026-12-06T00:20:00Z"), "5%", 8, {1, 2, 4, 8}, id="block-beyond-margin"),
        pytest.param(_block(16, 20.0, "2026-12-06T00:20:00Z"), "30%", 4, {1, 2, 4, 8}, id="block-within-margin"),
        pytest.param(_block(16, 20.0, "2026-12-06T00:20:00Z"), "0%", 8, {1, 2, 4, 8, 16}, id="block-no-margin"),
    ],
)
def test_the_bounded_search_finds_a_larger_cheaper_count(monkeypatch, block, margin, picked, priced):
    """A Capacity Block ending before a small cluster finishes makes larger counts cheaper; the
    search prices up to the count that settles each option, and picks what costing every count
    picks (`TRAINSTACK_NOW` fixes the clock)."""
    monkeypatch.setenv("TRAINSTACK_NOW", "2026-12-04T13:40:00Z")
    node = aws_node(spot_usd_per_hour=12.0)
    spec = parse_spec({**SPEC, "deadline": "10d", "node_margin": margin, "reservations": [block]})
    seen: list[int] = []

    def spy(spec, offering, estimate, nodes=None):
        seen.append(nodes)
        return candidates(spec, offering, estimate, nodes)

    monkeypatch.setattr("profiles.choice.nodes.candidates", spy)
    picks = offering_candidates(spec, node)
    assert [(c.purchase, c.nodes, round(c.usd_total, 2)) for c in picks] == [
        (c.purchase, c.nodes, round(c.usd_total, 2)) for c in _exhaustive(spec, node)
    ]
    assert {c.purchase: c.nodes for c in picks} == {"on-demand": 1, "spot": 1, "capacity-block": picked}
    assert set(seen) <= priced and len(seen) == len(set(seen))


def test_a_family_of_two_sizes_keeps_one():
    # v5p-8 (4 chips) 40 h x $16.80 = $672 and v5p-16 20 h x $33.60 = $672, both on time: the 4 chips.
    (pick,) = fewest_per_family([_slice(8, 33.60, 20.0), _slice(4, 16.80, 40.0)], 48.0, M)
    assert pick.offering.instance_type == "tpu-v5p-8"
