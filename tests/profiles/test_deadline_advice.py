"""What `resolve` says would meet a missed deadline: more nodes only when nodes shorten the run."""

import pytest

from profiles.resolver import resolve
from profiles.spec import parse_spec

FSX = {"capacity": "1200GiB", "throughput": 125}


def spec(**fields):
    return parse_spec({"providers": "aws", "purchase": "on-demand", "accelerators": "A100:8", **fields})


@pytest.mark.parametrize(
    ("nodes", "deadline", "shown"),
    [
        pytest.param(1, "1h", "1", id="one-node-far-miss"),
        pytest.param(2, "71h", "71", id="two-nodes-near-miss"),
        pytest.param("1-8", "2d", "48", id="node-range"),
    ],
)
def test_fixed_hours_cannot_be_met_by_nodes_or_accelerators(fixture_catalog, nodes, deadline, shown):
    resolution = resolve(spec(hours="72h", nodes=nodes, deadline=deadline), fixture_catalog.offerings)
    assert resolution.deadline_met is False
    advice = resolution.to_meet
    assert advice.startswith(f"the {shown} h deadline cannot be met: ")
    assert "`hours: 72` fixes the run time on every offering and node count" in advice
    assert "more nodes or faster accelerators cannot shorten it" in advice
    assert "give the work instead (`work:" in advice and "at least 72 h" in advice
    assert "nodes of" not in advice  # never "N nodes of X finish in ..."


def test_fixed_hours_far_past_the_deadline_say_what_to_give_instead(fixture_catalog):
    resolution = resolve(spec(hours="72h", deadline="1h"), fixture_catalog.offerings)
    assert resolution.to_meet == (
        "the 1 h deadline cannot be met: `hours: 72` fixes the run time on every offering and node count, so more "
        "nodes or faster accelerators cannot shorten it; give the work instead (`work: {gpu_hours: N, reference: "
        "A100-80GB}` or `work: {params: P, tokens: T}`) so the hours follow per offering, or set `deadline` to at "
        "least 72 h"
    )


def spot_72h(**fields):
    """72 fixed hours on 2 spot nodes with the FSX file system, and `fields`."""
    return spec(hours="72h", nodes=2, purchase="spot", file_system=FSX, **fields)


def test_fixed_hours_equal_to_the_deadline_fit_until_spot_adds_to_them(fixture_catalog):
    workload = spot_72h(deadline="72h", spot={"checkpoint_interval": "1h", "interruptions_per_node_month": 7.3})
    assert resolve(workload, fixture_catalog.offerings).to_meet.startswith(
        "to meet it: `hours: 72` fixes the run time on every offering and node count and fits the 72 h deadline"
    )


def test_fixed_hours_that_fit_are_pushed_over_only_by_what_the_row_adds(fixture_catalog):
    # 72 h on 2 spot nodes at 7.3 interruptions per node-month: 72 x 2 x 7.3 / 730 = 1.44
    # interruptions, each losing 1 h / 2 + 0.5 h restart = 1.44 h added: 73.44 h > 73 h.
    spot = {"checkpoint_interval": "1h", "restart": "30m", "interruptions_per_node_month": 7.3}
    workload = spot_72h(deadline="73h", spot=spot)
    resolution = resolve(workload, fixture_catalog.offerings)
    assert resolution.deadline_met is False
    assert resolution.choice.candidate.hours == pytest.approx(73.44)
    assert resolution.to_meet == (
        "to meet it: `hours: 72` fixes the run time on every offering and node count and fits the 73 h deadline, "
        "but this row adds 1.44 h (spot interruptions, data staging); allow on-demand (`purchase: any`), "
        "checkpoint more often (`spot.checkpoint_interval`), or relax the deadline"
    )


def test_work_still_gets_a_node_count_that_meets_it(fixture_catalog):
    # 1,200 A100-80GB hours of BERT-class work on one p5 (8x H100): 48.6 h; on two about half, which meets 30 h.
    work = {"gpu_hours": 1200, "reference": "A100-80GB", "kind": "bert"}
    resolution = resolve(spec(accelerators="H100:8", work=work, deadline="30h"), fixture_catalog.offerings)
    assert resolution.deadline_met is False
    assert resolution.to_meet.startswith("to meet it: 2 nodes of p5.48xlarge on-demand finish in")
