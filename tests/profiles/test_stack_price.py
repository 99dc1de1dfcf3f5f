"""Pricing a stack's cluster as configured, from the catalog (hand-checked fixture prices)."""

from pathlib import Path

import pytest

from clouds.contract import ClusterConfig
from profiles.stack.price import price_stack

ROOT = Path(__file__).resolve().parents[2]

BASE = {
    "provider": "aws",
    "region": "us-east-1",
    "zone": "use1-az1",
    "instance_type": "p4d.24xlarge",
    "accelerator": "A100",
    "accelerator_count": 8,
    "nodes": 2,
    "purchase": "spot",
    "hours": 10,
    "usd_per_hour": 24.0,
    "catalog_version": "fixture-1",
}


def price(fixture_catalog, **changes):
    return price_stack(ClusterConfig(**{**BASE, **changes}), fixture_catalog.offerings, "fixture-1")


def test_current_price_is_kept_without_a_note(fixture_catalog):
    result = price(fixture_catalog)  # 2 x $12.00 spot
    assert (result.usd_per_hour, result.note, result.usd_total) == (24.0, "", 240.0)


def test_edited_node_count_and_purchase_are_repriced(fixture_catalog):
    result = price(fixture_catalog, nodes=3, purchase="on-demand")  # 3 x $32.00
    assert result.usd_per_hour == 96.0 and result.recorded_usd_per_hour == 24.0
    assert result.note.startswith("the stack records $24.00/hour, but 3 x p4d.24xlarge on-demand costs $96.00/hour")
    # the run time is the stack's own, never re-estimated for the nodes a hand edit gives it
    assert result.usd_total == 96.0 * 10 and result.note.endswith(
        "USD/job is for the stack's recorded 10.0 h, not re-estimated for the nodes it has now"
    )


def test_reserved_commitment_uses_the_reserved_rate(fixture_catalog):
    result = price(fixture_catalog, purchase="on-demand", commitment="1y", usd_per_hour=44.8)
    assert result.usd_per_hour == pytest.approx(44.8) and result.note == ""  # 2 x 32 x 0.7


def test_a_commitment_added_by_hand_names_the_committed_rate_not_on_demand(fixture_catalog):
    """The repriced figure is the term's rate (2 x 32 x 0.7): calling it "on-demand" is untrue."""
    result = price(fixture_catalog, purchase="on-demand", commitment="1y", usd_per_hour=64.0)
    assert result.usd_per_hour == pytest.approx(44.8)
    assert result.note.startswith(
        "the stack records $64.00/hour, but 2 x p4d.24xlarge on-demand at the 1y commitment rate costs $44.80/hour"
    )


def test_reservation_and_unknown_types_keep_the_recorded_price(fixture_catalog):
    held = price(fixture_catalog, purchase="on-demand", capacity_reservation_id="cr-1", usd_per_hour=5.0)
    assert (held.usd_per_hour, held.checked_usd_per_hour, held.note) == (
        5.0,
        5.0,
        "held capacity reservation cr-1: the stack's own $5.00/hour; the catalog holds no reservation prices",
    )
    block = price(
        fixture_catalog, purchase="on-demand", reservation={"kind": "capacity-block", "id": "cr-2"}, usd_per_hour=0
    )
    assert (block.usd_per_hour, block.usd_total) == (0.0, 0.0)
    assert block.note == "held Capacity Block cr-2: compute at the stack's own $0.00/hour"
    assert "Capacity Block cr-2: its fee was paid up front at purchase" in block.caveats[-1]
    unknown = price(fixture_catalog, zone="use1-az9")
    assert unknown.usd_per_hour == 24.0 and "not in catalog fixture-1" in unknown.note


def test_storage_is_added_where_known(fixture_catalog):
    result = price(fixture_catalog, file_system={"capacity_gib": 4800, "throughput_mbps_per_tib": 125})
    assert result.usd_storage == pytest.approx(4800 * 2**30 / 1e9 * 0.145 * 10 / 730)
    assert result.usd_total == pytest.approx(240.0 + result.usd_storage)
    # the budget's hourly figure has the file system in it: 4,800 GiB x 1.0737 GB/GiB x $0.145 / 730 h
    assert result.checked_usd_per_hour == pytest.approx(24.0 + 1.02373, abs=1e-5)


def test_an_older_catalog_version_is_mentioned_even_when_the_price_matches(fixture_catalog):
    result = price_stack(
        ClusterConfig(**{**BASE, "catalog_version": "2020-01-01-old"}), fixture_catalog.offerings, "fixture-1"
    )
    assert result.note == "resolved with catalog 2020-01-01-old; the current one is fixture-1 and gives the same price"


def test_a_listed_type_without_the_stacks_terms_says_which_price_is_missing(fixture_catalog):
    listed = next(o for o in fixture_catalog.offerings if o.provider == "aws")
    unpriced_spot = [o._replace(spot_usd_per_hour=None) if o is listed else o for o in fixture_catalog.offerings]
    config = ClusterConfig(
        **{**BASE, "zone": listed.zone, "region": listed.region, "instance_type": listed.instance_type}
    )
    result = price_stack(config, unpriced_spot, "fixture-1")
    assert result.usd_per_hour == 24.0  # the recorded price is kept
    assert result.note.startswith(
        f"price unknown (catalog fixture-1 lists {listed.instance_type} in {listed.zone} "
        "but has no spot price for it); showing the recorded $24.00/hour"
    )


def test_only_catalog_or_reservation_prices_are_trusted_by_a_budget(fixture_catalog):
    typed = price(fixture_catalog, instance_type="p9.imaginary")  # not in the catalog: the file's own number
    assert (typed.usd_per_hour, typed.verified, typed.checked_usd_per_hour) == (24.0, False, None)
    held = price(fixture_catalog, purchase="on-demand", capacity_reservation_id="cr-1", usd_per_hour=30.0)
    assert (held.usd_per_hour, held.verified, held.checked_usd_per_hour) == (30.0, True, 30.0)
    assert price(fixture_catalog).checked_usd_per_hour == 24.0


def test_a_reserved_term_at_an_estimated_discount_says_so(fixture_catalog):
    result = price(fixture_catalog, purchase="on-demand", commitment="3y", usd_per_hour=32.0)  # 2 x 32 x 0.5
    assert result.usd_per_hour == pytest.approx(32.0)
    assert "; the 3y rate is on-demand less 50% (assumed: the low end of" in " ".join(result.caveats)
    assert not any("rate is on-demand less" in c for c in price(fixture_catalog).caveats)  # spot: no such caveat


def test_bucket_requests_are_in_the_job_total_and_the_hourly_figure(fixture_catalog):
    data = {"source": "s3://team/x", "files": 1_000_000, "write_back": True, "written_files": 10_000}
    result = price(fixture_catalog, data=data, file_system={"capacity_gib": 4800, "throughput_mbps_per_tib": 125})
    # S3 (R1, R2): 1,000,000 GETs x $0.0004/1,000 = $0.40; (1,000 LISTs + 10,000 PUTs) x $0.005/1,000 = $0.055
    assert result.cost is not None and result.cost.usd_requests == pytest.approx(0.455)
    assert result.usd_total == pytest.approx(240.0 + result.usd_storage + 0.455)
    assert result.checked_usd_per_hour == pytest.approx(24.0 + 1.02373 + 0.0455, abs=1e-5)  # over 10 h


@pytest.mark.parametrize(
    ("reuse", "share"),
    [
        # 2 x 32 x 0.7 = $44.80/hour; 10 h of an 8,760 h term: $392,448 committed.
        pytest.param(1.0, ", this job's share $448 with reuse 1 of the rest", id="reused-term"),
        # share: (10 + 8,750 x 1) h x $44.80 = $392,448.
        pytest.param(0.0, ", this job's share $392,448 with reuse 0 of the rest", id="unused-term"),
        pytest.param(None, "; the job total counts only its own hours of it", id="reuse-not-recorded"),
    ],
)
def test_a_commitment_stack_states_the_term_to_buy_and_the_on_demand_bill(fixture_catalog, reuse, share):
    result = price(fixture_catalog, purchase="on-demand", commitment="1y", usd_per_hour=44.8, commitment_reuse=reuse)
    line = next(c for c in result.caveats if c.startswith("assumes a 1y commitment"))
    assert "the stack does not buy: the nodes launch on-demand" in line
    assert "Savings Plan or Reserved Instances for 2 x p4d.24xlarge, bought separately" in line
    assert "the term commits $392,448 (8,760 h at $44.80/hour)" + share in line
    assert "without it the nodes bill on-demand at $64.00/hour; the 1y rate is on-demand less 30% (assumed: " in line
    assert line.endswith("; the budget (`trainstack:max_usd_per_hour`) is checked at that on-demand price")
    # the budget relies on what the cloud bills for what the stack creates: 2 x $32.00 on-demand
    assert result.usd_per_hour == pytest.approx(44.8) and result.checked_usd_per_hour == pytest.approx(64.0)
    # the job's cost is its share of the term, as resolve ranks it: 10 h + 8,750 h x (1 - reuse) at $44.80
    billed = 10.0 if reuse is None else 10.0 + 8750.0 * (1 - reuse)
    assert result.cost is not None and result.cost.usd_compute == pytest.approx(44.8 * billed)


def test_a_stack_without_a_commitment_has_no_commitment_line(fixture_catalog):
    result = price(fixture_catalog, purchase="on-demand", usd_per_hour=64.0)
    assert not any("commitment" in c for c in result.caveats) and result.uncommitted_usd_per_hour is None
    assert result.checked_usd_per_hour == pytest.approx(64.0)


def test_a_commitment_stack_over_budget_says_it_is_checked_at_its_on_demand_bill():
    from policies.stack_rules import budget

    (violation,) = budget(64.0, 50.0, "its nodes billed on-demand: the stack buys no commitment")
    assert violation.message.startswith("cluster costs $64.00/hour (compute, file system and bucket requests; ")
    assert (
        "; its nodes billed on-demand: the stack buys no commitment), over trainstack:max_usd_per_hour $50.00/hour"
        in (violation.message)
    )
    assert budget(44.8, 50.0, "") == []


def test_plan_checks_a_commitment_stacks_budget_at_the_on_demand_bill():
    from trainstack.plan.runner import PlanResult

    committed = PlanResult([], 44.8, 448.0, {}, uncommitted_usd_per_hour=64.0)
    assert committed.budget_usd_per_hour == 64.0 and "buys no commitment" in committed.budget_basis
    plain = PlanResult([], 44.8, 448.0, {})
    assert (plain.budget_usd_per_hour, plain.budget_basis) == (44.8, "")


@pytest.mark.parametrize(
    ("throughput", "expected"),
    [
        pytest.param(
            500,
            "file system below the 500 MB/s per TiB the stack states: Filestore ZONAL reads 273 and writes 92 MB/s "
            "per TiB (Google's Filestore zonal tier table)",
            id="zonal-below-500",
        ),
        pytest.param(1000, "file system below the 1000 MB/s per TiB the stack states", id="zonal-below-1000"),
    ],
)
def test_a_file_system_slower_than_the_stack_states_is_a_caveat(throughput, expected):
    """T3: the stack says 500 MB/s per TiB but GCP creates Filestore ZONAL (4,800 GiB, below
    Managed Lustre's minimum): plan and the review say what it delivers, as resolve's row did."""
    from profiles.stack.file import read_cluster
    from profiles.stack.price import price_from_catalog

    _, config = read_cluster(ROOT / "stacks" / "Pulumi.training-a3-gcp.yaml")
    fs = config.file_system.model_copy(update={"throughput_mbps_per_tib": throughput})
    caveats = price_from_catalog(config.model_copy(update={"file_system": fs})).caveats
    assert [c for c in caveats if c.startswith("file system below")] == [next(c for c in caveats if expected in c)]


def test_a_file_system_that_delivers_its_tier_has_no_shortfall_caveat():
    from profiles.stack.file import read_cluster
    from profiles.stack.price import price_from_catalog

    _, config = read_cluster(ROOT / "stacks" / "Pulumi.training-a100.yaml")  # FSx sells the 250 tier it states
    assert not [c for c in price_from_catalog(config).caveats if c.startswith("file system below")]


def test_on_demand_nodes_of_a_spot_cluster_are_priced_on_demand(fixture_catalog):
    result = price(fixture_catalog, nodes=4, on_demand_nodes=1, usd_per_hour=48.0)  # 1 x $32.00 + 3 x $12.00
    assert result.usd_per_hour == pytest.approx(68.0) and result.recorded_usd_per_hour == 48.0
    assert "costs $68.00/hour" in result.note


@pytest.mark.parametrize(
    ("region", "zone", "doubted"),
    [
        pytest.param("us-central1", "us-central1-a", True, id="us-central1-half-of-its-neighbours"),
        pytest.param("europe-north1", "europe-north1-c", False, id="europe-north1-agrees"),
    ],
)
def test_a_stack_on_a_row_the_price_check_doubts_says_so_as_resolve_does(region, zone, doubted):
    # a3-highgpu-8g at $43.07/h in us-central1 against $87.83-98.93/h in us-east4/us-east5 (the
    # committed catalog; issue #27's check): `plan`'s caveats carry the note `resolve` gives the row.
    from profiles.stack.price import price_from_catalog
    from tests.clusters import example_config

    config = example_config("gcp", region=region, zone=zone, instance_type="a3-highgpu-8g", accelerator="H100")
    checks = [c for c in price_from_catalog(config).caveats if c.startswith("price check:")]
    if doubted:
        (check,) = checks
        assert f"$43.07/h in {region}" in check and "us-east4, us-east5 (north-america)" in check
    else:
        assert checks == []
