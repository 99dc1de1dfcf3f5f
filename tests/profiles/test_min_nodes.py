"""`job.min_nodes` against the node counts a workload considers: a fixed `nodes`, or each count
of a range (`nodes: 2-16`, `auto`), where counts below `min_nodes` are left out and said so.

Work of 272 A100-80GB hours on 8 x A100-80GB nodes takes 34 / n hours on n nodes
(tests/profiles/test_resolver_pins.py)."""

import pytest

from profiles.resolver import NoMatchError, resolve
from profiles.spec import SpecError, parse_spec
from tests.profiles.offering_factory import offering

WORK = {"gpu_hours": 272, "reference": "A100-80GB"}


def spec(nodes, min_nodes, **fields):
    """A workload of `WORK` (or `hours`, with `work=None`) whose job asks for `min_nodes`."""
    job = {"command": "/fsx/t.py", "min_nodes": min_nodes}
    base = {"accelerators": "A100-80GB", "nodes": nodes, "work": WORK, "file_system": {"capacity": "1TiB"}, "job": job}
    return parse_spec({k: v for k, v in (base | fields).items() if v is not None})


@pytest.mark.parametrize(
    ("nodes", "min_nodes", "counts"),
    [
        pytest.param("auto", 3, (3, 4, 8, 16, 32, 64), id="auto-starts-at-min-nodes"),
        pytest.param("2-6", 4, (4, 5, 6), id="range-starts-at-min-nodes"),
        pytest.param("2-6", 6, (6,), id="min-nodes-is-the-top"),
        pytest.param("4-6", 2, (4, 5, 6), id="min-nodes-below-the-range"),
        pytest.param(5, 5, (5,), id="fixed-nodes"),
    ],
)
def test_a_range_considers_no_count_below_min_nodes(nodes, min_nodes, counts):
    workload = spec(nodes, min_nodes)
    assert workload.node_counts() == counts


def test_the_choice_says_the_smaller_counts_were_left_out():
    # Fixed hours: each node adds its $30/h, so the fewest nodes allowed win (3 x $30 x 10 h).
    resolution = resolve(spec("auto", 3, work=None, hours="10h"), [offering()])
    c = resolution.choice.candidate
    assert (c.nodes, round(c.usd_compute, 2)) == (3, 900.0)
    assert "rows of fewer than 3 nodes left out: job.min_nodes is 3" in resolution.choice.reason


@pytest.mark.parametrize(
    ("nodes", "min_nodes", "says"),
    [
        pytest.param(2, 3, "job.min_nodes: 3 is more than nodes (2); give at most 2", id="fixed"),
        pytest.param(
            "auto",
            65,
            "job.min_nodes: 65 is more than the largest node count of nodes: 1-64; give at most 64",
            id="auto",
        ),
        pytest.param(
            "2-16",
            17,
            "job.min_nodes: 17 is more than the largest node count of nodes: 2-16; give at most 16",
            id="range",
        ),
    ],
)
def test_min_nodes_above_every_count_is_refused(nodes, min_nodes, says):
    with pytest.raises(SpecError) as err:
        spec(nodes, min_nodes)
    assert says in str(err.value) and "\n" not in str(err.value)


def test_rdma_with_min_nodes_leaves_out_an_ethernet_offering_by_its_interconnect():
    workload = spec("1-2", 2, interconnect="rdma")
    with pytest.raises(NoMatchError) as err:
        resolve(workload, [offering(interconnect="ethernet", network_gbps=100.0)])
    assert "interconnect" in str(err.value)
