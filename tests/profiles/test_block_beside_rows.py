"""`resolve` with a Capacity Block that holds fewer nodes than the job asks: the row runs the
block's nodes in its own group and the rest on-demand beside it (`block_nodes`), priced at their
average; the stack it writes passes every check and `plan` prices it the same."""

from __future__ import annotations

import pytest

from profiles.resolver import resolve
from profiles.spec import parse_spec
from profiles.stack.file import validate_cluster
from profiles.stack.price import price_stack
from profiles.stack.writer import cluster_config

CR = "cr-0123456789abcdef0"

BLOCK_HELD = {
    "provider": "aws",
    "instance_type": "p5.48xlarge",
    "zone": "use1-az4",
    "kind": "capacity-block",
    "id": CR,
    "nodes": 2,
    "usd_per_hour": 0,
}
WORKLOAD = {"accelerators": ["H100:8"], "nodes": 4, "hours": 10, "providers": ["aws"], "regions": ["us-east-1"]}


def test_resolve_runs_the_rest_of_a_small_block_on_demand_beside_it_and_plan_agrees(real_catalog) -> None:
    """A prepaid block of 2 p5 nodes for a 4-node job: the row's 2 block nodes at the spec's $0
    and 2 on-demand at the catalog's $55.04 average $27.52 per node-hour; the stack splits."""
    spec = parse_spec({"name": "blk", **WORKLOAD, "reservations": [BLOCK_HELD]})
    chosen = resolve(spec, real_catalog.offerings).choice.candidate
    assert (chosen.purchase, chosen.block_nodes, chosen.nodes) == ("capacity-block", 2, 4)
    assert chosen.usd_per_node_hour == pytest.approx((2 * 0 + 2 * 55.04) / 4)
    assert any(
        n.startswith("block_nodes: 2 of 4 nodes in the Capacity Block's own group, 2 on-demand") for n in chosen.notes
    )
    config = cluster_config(spec, chosen, real_catalog.version)
    assert (config.block_nodes, config.purchase, config.reservation.nodes) == (2, "on-demand", 2)
    validate_cluster(config.model_dump(mode="json", exclude_none=True), "us-east-1", "blk")
    price = price_stack(config, real_catalog.offerings, real_catalog.version)
    assert price.usd_total == pytest.approx(chosen.usd_total, abs=0.005)


def test_a_block_that_holds_every_node_takes_them_all(real_catalog) -> None:
    spec = parse_spec({"name": "blk", **WORKLOAD, "nodes": 2, "reservations": [BLOCK_HELD]})
    chosen = resolve(spec, real_catalog.offerings).choice.candidate
    assert (chosen.purchase, chosen.block_nodes, chosen.usd_per_node_hour) == ("capacity-block", None, 0)


def test_a_held_row_says_its_speed_as_the_on_demand_row_beside_it_does(real_catalog) -> None:
    """The workload gives `hours`: the block row's speed is `given`, like every other row's
    (docs/benchmarks.md), not the default `calibrated`."""
    spec = parse_spec({"name": "blk", **WORKLOAD, "reservations": [BLOCK_HELD]})
    found = resolve(spec, real_catalog.offerings, top=5)
    rows = [r.candidate for r in (found.choice, *found.alternatives)]
    speeds = {c.purchase: c.speed for c in rows}
    assert speeds == {"capacity-block": "given", "on-demand": "given"}
