"""Held capacity in the resolver: each kind priced as given and labelled, and written to the
stack as `reservation:` with its kind, placement group, size and zone."""

from __future__ import annotations

import pytest
import yaml

from clouds.reservation import ReservationConfig
from profiles.resolver import resolve
from profiles.spec import parse_spec
from profiles.stack.file import validate_cluster
from profiles.stack.writer import cluster_config, render_stack

HELD = {"provider": "aws", "instance_type": "p4d.24xlarge", "zone": "use1-az2", "nodes": 4, "id": "cr-0abc"}


def _spec(reservation: dict, nodes: int = 2):
    return parse_spec(
        {
            "providers": "aws",
            "purchase": "on-demand",
            "accelerators": "A100:8",
            "nodes": nodes,
            "interconnect": "rdma",
            "hours": 10,
            "reservations": [reservation],
        }
    )


@pytest.mark.parametrize(
    ("extra", "purchase", "note_start", "kind"),
    [
        pytest.param(
            {"usd_per_hour": 0, "kind": "capacity-block", "placement_group": "team-pg"},
            "capacity-block",
            "Capacity Block cr-0abc in placement group team-pg: priced at the spec's $0.00/node-hour; "
            "Capacity Blocks are paid up front per block",
            "capacity-block",
            id="capacity-block",
        ),
        pytest.param(
            {"usd_per_hour": 5.0},
            "reservation",
            "capacity reservation cr-0abc: priced at the spec's $5.00/node-hour, not the catalog's",
            "capacity-reservation",
            id="capacity-reservation",
        ),
    ],
)
def test_held_capacity_is_labelled_and_written_with_its_kind(fixture_catalog, extra, purchase, note_start, kind):
    workload = _spec({**HELD, **extra})
    choice = resolve(workload, fixture_catalog.offerings).choice.candidate
    assert choice.purchase == purchase
    assert choice.usd_per_hour == pytest.approx(2 * extra["usd_per_hour"])
    assert any(n.startswith(note_start) for n in choice.notes), choice.notes
    config = cluster_config(workload, choice, "v")
    assert config.purchase == "on-demand"
    assert config.reservation == ReservationConfig(
        kind=kind, id="cr-0abc", placement_group=extra.get("placement_group"), nodes=4, zone="use1-az2"
    )
    text = render_stack(config, "w.yaml", "today")
    cluster = yaml.safe_load(text)["config"]["trainstack:cluster"]
    assert cluster["reservation"]["kind"] == kind and "capacity_reservation_id" not in cluster
    assert validate_cluster(cluster, "us-east-1") == config  # the written stack reads back the same


def test_a_reservation_smaller_than_the_cluster_is_not_a_candidate(fixture_catalog):
    workload = _spec({**HELD, "nodes": 1, "usd_per_hour": 0})
    rows = resolve(workload, fixture_catalog.offerings, top=20)
    assert all(r.candidate.purchase != "reservation" for r in (rows.choice, *rows.alternatives))


def test_a_capacity_block_smaller_than_the_cluster_runs_the_rest_beside_it(fixture_catalog):
    """A block holds its own nodes in a group of their own; the rest run on-demand beside it
    (`block_nodes`: tests/profiles/test_block_beside_rows.py), never more nodes in the block."""
    workload = _spec({**HELD, "nodes": 1, "usd_per_hour": 0, "kind": "capacity-block"})
    rows = resolve(workload, fixture_catalog.offerings, top=20)
    held = [r.candidate for r in (rows.choice, *rows.alternatives) if r.candidate.purchase == "capacity-block"]
    assert held and all(c.block_nodes == 1 and c.nodes > 1 for c in held)


def test_capacity_block_is_aws_only():
    with pytest.raises(
        ValueError,
        match="kind: capacity-block is an AWS Capacity Block for ML, not gcp capacity; set kind: capacity-reservation or provider: aws$",
    ):
        _spec({**HELD, "provider": "gcp", "zone": "us-central1-a", "usd_per_hour": 0, "kind": "capacity-block"})


def test_a_blocks_end_reaches_the_stack(fixture_catalog):
    workload = _spec({**HELD, "usd_per_hour": 0, "kind": "capacity-block", "ends": "2026-12-17T11:30:00Z"})
    config = cluster_config(workload, resolve(workload, fixture_catalog.offerings).choice.candidate, "v")
    assert config.reservation is not None and config.reservation.ends.isoformat() == "2026-12-17T11:30:00+00:00"
    with pytest.raises(
        ValueError, match=": ends: only a Capacity Block ends by itself; remove ends or set kind: capacity-block$"
    ):
        _spec({**HELD, "usd_per_hour": 1, "ends": "2026-12-17T11:30:00Z"})


@pytest.mark.parametrize(
    ("ends", "on_demand", "price", "note"),
    [
        pytest.param(None, 40.0, 5.0, (), id="no-end"),
        # scales in at 2026-12-08 00:00 (40 min before its end): 24 h left, the 20 h job fits
        pytest.param("2026-12-08T00:40:00Z", 40.0, 5.0, (), id="ends-after-the-job"),
        # scales in 10 h from now: 10 h at $5 + 10 h on-demand at $40, over 20 h = $22.50/node-hour
        pytest.param(
            "2026-12-07T10:40:00Z",
            40.0,
            22.5,
            (
                "Capacity Block cr-0abc ends 2026-12-07T10:40:00Z: its nodes scale to zero 10.0 h from now, before "
                "the job's 20.0 h are done; the rest (10.0 h) must run elsewhere, priced on-demand at "
                "$40.00/node-hour: $22.50/node-hour over the job; when the block ends, rerun `trainstack resolve "
                "--write-stack` without it to go on from the last checkpoint",
            ),
            id="ends-before-the-job",
        ),
        pytest.param("2026-12-07T10:40:00Z", None, None, (), id="no-on-demand-price-for-the-rest"),
    ],
)
def test_a_block_ending_before_the_job_blends_in_the_on_demand_price(monkeypatch, ends, on_demand, price, note):
    from profiles.cost.held import block_price
    from tests.profiles.offering_factory import aws_node

    monkeypatch.setenv("TRAINSTACK_NOW", "2026-12-07T00:00:00Z")
    block = {**HELD, "instance_type": "p4de.24xlarge", "zone": "use1-az1", "usd_per_hour": 5.0}
    block.update(kind="capacity-block", **({"ends": ends} if ends else {}))
    reservation = _spec(block).reservations[0]
    offering = aws_node(on_demand_usd_per_hour=on_demand, spot_usd_per_hour=30.0)
    assert block_price(reservation, offering, 20.0) == (pytest.approx(price) if price else None, note)
