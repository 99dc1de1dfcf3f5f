"""A Capacity Block's end against the clock: a block that has ended is refused everywhere
(workload, stack, plan); one that ends before the job is done is priced for what it covers
and on-demand for the rest, and says so. The clock is `clouds.clock.now`, fixed here with
`TRAINSTACK_NOW`."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
import yaml

from clouds.block_end import block_end_problem, block_hours_left
from clouds.clock import now
from clouds.config import ConfigError
from profiles.cost.cluster_cost import cluster_cost
from profiles.explain import WorkloadFieldError
from profiles.resolver import resolve
from profiles.spec import parse_spec
from profiles.stack.file import validate_cluster
from profiles.stack.price import price_stack
from tests.clusters import BASE_CLUSTER

NOW = "2026-12-04T13:40:00Z"
BLOCK = {
    "provider": "aws",
    "instance_type": "p4d.24xlarge",
    "zone": "use1-az2",
    "nodes": 2,
    "id": "cr-0abc",
    "usd_per_hour": 0,
    "kind": "capacity-block",
}


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@pytest.fixture
def clock(monkeypatch):
    monkeypatch.setenv("TRAINSTACK_NOW", NOW)


def _spec(ends: str, hours: float = 10):
    return parse_spec(
        {
            "providers": "aws",
            "purchase": "on-demand",
            "accelerators": "A100:8",
            "nodes": 2,
            "interconnect": "rdma",
            "hours": hours,
            "reservations": [{**BLOCK, "ends": ends}],
        }
    )


def test_the_clock_reads_trainstack_now_or_refuses_it(monkeypatch):
    monkeypatch.setenv("TRAINSTACK_NOW", "2026-12-04T13:40:00+01:00")
    assert now() == datetime(2026, 12, 4, 12, 40, tzinfo=timezone.utc)
    monkeypatch.setenv("TRAINSTACK_NOW", "2026-12-04T13:40:00")
    with pytest.raises(
        ValueError, match="TRAINSTACK_NOW: '2026-12-04T13:40:00' is not an ISO 8601 date-time with a zone"
    ):
        now()
    monkeypatch.delenv("TRAINSTACK_NOW")
    assert abs((now() - datetime.now(timezone.utc)).total_seconds()) < 60


@pytest.mark.parametrize(
    ("ends", "left", "problem"),
    [
        pytest.param(
            "2020-01-01T00:00:00Z", 0.0, "2020-01-01T00:00:00Z has passed (now 2026-12-04T13:40:00Z)", id="ended"
        ),
        pytest.param("2026-12-04T14:00:00Z", 0.0, "is 20 minutes away", id="inside-the-scale-in"),
        pytest.param("2026-12-04T14:20:00Z", 0.0, "is 40 minutes away", id="scale-in-now"),
        pytest.param("2026-12-04T14:21:00Z", 1 / 60, None, id="one-minute-left"),
        # 10 h 20 min to the end, less the 40 minutes before it
        pytest.param("2026-12-05T00:00:00Z", 9 + 40 / 60, None, id="hours-left"),
    ],
)
def test_block_end_problem_and_hours_left(ends, left, problem):
    assert block_hours_left(_at(ends), _at(NOW)) == pytest.approx(left)
    found = block_end_problem(_at(ends), _at(NOW), "reservations.0.ends")
    if problem is None:
        assert found is None
    else:
        assert found is not None and found.startswith("reservations.0.ends: ") and problem in found
        assert "remove the reservation" in found


def test_an_ended_block_is_refused_before_ranking(clock, fixture_catalog):
    with pytest.raises(WorkloadFieldError, match=r"^reservations\.0\.ends: 2020-01-01T00:00:00Z has passed"):
        resolve(_spec("2020-01-01T00:00:00Z"), fixture_catalog.offerings)


def _block_row(resolution):
    return next(c for c in resolution.candidates if c.purchase == "capacity-block")


def test_a_block_that_outlasts_the_job_costs_only_its_own_price(clock, fixture_catalog):
    row = _block_row(resolve(_spec("2026-12-20T00:00:00Z"), fixture_catalog.offerings))
    assert row.usd_per_node_hour == 0 and row.usd_compute == 0
    assert not any("scale to zero" in n for n in row.notes)


def test_a_block_that_ends_before_the_job_prices_the_rest_on_demand(clock, fixture_catalog):
    resolution = resolve(_spec("2026-12-05T00:00:00Z", hours=72), fixture_catalog.offerings)
    row = _block_row(resolution)
    on_demand = row.offering.price("on-demand")
    left = 9 + 40 / 60  # hours to the scale-in, 40 minutes before the block's end
    assert row.usd_per_node_hour == pytest.approx(on_demand * (row.hours - left) / row.hours)
    assert row.usd_compute == pytest.approx(on_demand * 2 * (row.hours - left))
    (note,) = [n for n in row.notes if "scale to zero" in n]
    assert note.startswith("Capacity Block cr-0abc ends 2026-12-05T00:00:00Z: its nodes scale to zero 9.7 h from now")
    assert f"priced on-demand at ${on_demand:,.2f}/node-hour" in note


def _stack(ends: str, usd_per_hour: float = 0.0) -> dict:
    reservation = {"kind": "capacity-block", "id": "cr-0abc", "ends": ends}
    return {**BASE_CLUSTER, "purchase": "on-demand", "usd_per_hour": usd_per_hour, "reservation": reservation}


@pytest.mark.parametrize(
    ("ends", "words"),
    [
        pytest.param("2019-12-31T00:00:00Z", "has passed (now 2026-12-04T13:40:00Z)", id="ended"),
        pytest.param("2026-12-04T14:00:00+00:00", "is 20 minutes away", id="scale-in-passed"),
    ],
)
def test_a_stack_on_an_ended_block_is_refused(clock, ends, words):
    """The program, plan and check all validate through `validate_cluster`; AWS would refuse
    the scale-in scheduled in the past."""
    with pytest.raises(ConfigError, match=r"reservation\.ends: ") as err:
        validate_cluster(_stack(ends), "us-east-1")
    assert words in str(err.value) and "\n" not in str(err.value)


def test_a_stack_whose_block_ends_before_its_hours_says_so(clock, fixture_catalog):
    config = validate_cluster(_stack("2026-12-05T00:00:00Z", usd_per_hour=95.3), "us-east-1")
    price = price_stack(config, fixture_catalog.offerings, "v")
    (caveat,) = [c for c in price.caveats if "scale to zero" in c]
    assert caveat.startswith("Capacity Block for ML cr-0abc ends 2026-12-05T00:00:00Z: its nodes scale to zero 9.7 h")
    assert f"before the job's {config.hours:,.1f} h are done" in caveat
    later = validate_cluster(_stack("2026-12-20T00:00:00Z"), "us-east-1")
    assert not any("scale to zero" in c for c in price_stack(later, fixture_catalog.offerings, "v").caveats)
    assert "past the block's end" in cluster_cost(config, 95.3).left_out[-1]


def test_a_bad_clock_setting_is_one_error_line(monkeypatch, tmp_path):
    from tests.cli.helpers import one_error_line, run

    workload = tmp_path / "w.yaml"
    workload.write_text(
        yaml.safe_dump(
            {
                "name": "w",
                "accelerators": ["A100:8"],
                "hours": 10,
                "reservations": [{**BLOCK, "ends": "2026-12-20T00:00:00Z"}],
            }
        )
    )
    monkeypatch.setenv("TRAINSTACK_NOW", "garbage")
    one_error_line(run("resolve", str(workload)), "TRAINSTACK_NOW: 'garbage' is not an ISO 8601 date-time with a zone")
