"""One price per stack (#27 item 6): `resolve`, the stack header, `plan` (and so `plan --json`,
the review comment and the budget policy, which read `plan`'s figures) state the same USD per
job and USD/hour for the same stack, to the cent, on spot, on-demand, commitment and held
reservation stacks; a commitment's job total is its share of the term (the unused rest, less
`reuse`), shown beside, never dropped."""

from __future__ import annotations

import re

import pytest

from profiles.cost.pricing import charged_hours
from profiles.resolver import resolve
from profiles.spec import parse_spec
from profiles.stack.file import read_cluster
from profiles.stack.price import price_stack
from profiles.stack.writer import cluster_config, render_stack

BASE = {"accelerators": ["H100:8"], "nodes": 2, "interconnect": "rdma", "providers": ["aws"], "hours": 300}
FS = {"file_system": {"capacity": "4800GiB", "throughput": 250}}
HELD = {"provider": "aws", "instance_type": "p5.48xlarge", "zone": "use1-az4", "nodes": 2, "usd_per_hour": 31.5}
CASES = [
    pytest.param({"purchase": "spot", "spot": {"checkpoint_interval": "1h"}, **FS}, "spot", id="spot"),
    pytest.param({"purchase": "on-demand", **FS}, "on-demand", id="on-demand"),
    pytest.param(
        {"purchase": "on-demand", "commitment": {"term": "1y", "reuse": 0.5}, **FS}, "reserved-1y", id="commitment"
    ),
    pytest.param({"purchase": "on-demand", "reservations": [{**HELD, "id": "cr-0123"}]}, "reservation", id="held"),
]


def _figures(text: str) -> tuple[float, float]:
    """(USD/hour, USD per job) of a `# Cost:` header line."""
    line = next(x for x in text.splitlines() if x.startswith("# Cost: "))
    hourly = re.search(r"\$([\d,.]+)/hour", line)
    job = re.search(r"; \$([\d,.]+) per job", line)
    assert hourly and job, line
    return float(hourly.group(1).replace(",", "")), float(job.group(1).replace(",", ""))


@pytest.mark.parametrize(("fields", "purchase"), CASES)
def test_resolve_header_and_plan_state_one_price(real_catalog, tmp_path, fields, purchase):
    spec = parse_spec({"name": "one-price", **BASE, **fields})
    resolution = resolve(spec, real_catalog.offerings, top=50)
    chosen = next(
        r.candidate for r in (resolution.choice, *resolution.alternatives) if r.candidate.purchase == purchase
    )
    config = cluster_config(spec, chosen, real_catalog.version)
    path = tmp_path / "Pulumi.one-price.yaml"
    path.write_text(render_stack(config, "one-price.yaml", "2026-12-01"))
    header_hourly, header_job = _figures(path.read_text())
    _, written = read_cluster(path)
    plan = price_stack(written, real_catalog.offerings, real_catalog.version)
    assert plan.usd_total is not None and plan.total_usd_per_hour is not None
    for job in (header_job, round(plan.usd_total, 2)):
        assert job == pytest.approx(round(chosen.usd_total, 2), abs=0.011)
    for hourly in (header_hourly, plan.total_usd_per_hour):
        assert hourly == pytest.approx(chosen.total_usd_per_hour, abs=0.0001)


def test_a_commitment_job_pays_its_share_of_the_term(real_catalog):
    # 300 h of a 1y term (8,760 h) at reuse 0.5: 300 + (8,760 - 300) x 0.5 = 4,530 h billed at the
    # term's rate, the job's own 300 h plus 4,230 h of the unused rest.
    assert charged_hours(300, "1y", 0.5) == pytest.approx(4530.0)
    spec = parse_spec({"name": "one-price", **BASE, "commitment": {"term": "1y", "reuse": 0.5}, **FS})
    rows = resolve(spec, real_catalog.offerings, top=50)
    chosen = next(r.candidate for r in (rows.choice, *rows.alternatives) if r.candidate.purchase == "reserved-1y")
    config = cluster_config(spec, chosen, real_catalog.version)
    cost = price_stack(config, real_catalog.offerings, real_catalog.version).cost
    assert cost is not None and cost.compute_usd_per_hour is not None
    rate = cost.compute_usd_per_hour
    assert cost.usd_compute == pytest.approx(rate * 4530.0)
    assert cost.usd_unused_term == pytest.approx(rate * 4230.0)
    assert f"with the term's unused share, ${rate * 4230.0:,.2f} per job" in cost.job_text()


@pytest.mark.parametrize(
    ("changes", "on_demand", "tail"),
    [
        # 2 x $22.40 = $44.80/hour x 8,760 h = $392,448; share: 72 h + 8,688 h x 0.5 = 4,416 h -> $197,837
        pytest.param(
            {"commitment_reuse": 0.5},
            None,
            ", this job's share $197,837 with reuse 0.5 of the rest; without it the nodes bill on-demand (the catalog "
            "has no on-demand price for them)",
            id="reuse-no-on-demand-price",
        ),
        pytest.param(
            {},
            64.0,
            "; the job total counts only its own hours of it (other work uses the rest: reuse not recorded); without "
            "it the nodes bill on-demand at $64.00/hour",
            id="no-reuse",
        ),
    ],
)
def test_the_commitment_line_states_the_term_the_share_and_the_on_demand_bill(make_config, changes, on_demand, tail):
    from profiles.cost.commitment import commitment_note, rate_basis

    config = make_config(purchase="on-demand", commitment="1y", usd_per_hour=44.8, **changes)
    assert commitment_note(config, on_demand) == (
        "assumes a 1y commitment the stack does not buy: the nodes launch on-demand, and this rate applies only if "
        "you hold a Compute or EC2 Instance Savings Plan or Reserved Instances for 2 x p4d.24xlarge, bought "
        f"separately; the term commits $392,448 (8,760 h at $44.80/hour){tail}"
        + (rate_basis("aws", "1y") if on_demand else "")  # $44.80 is 2 x $32.00 less AWS's assumed 30 %
    )
    assert commitment_note(make_config(purchase="on-demand", usd_per_hour=44.8), 64.0) is None
