"""A commitment's figures say where their rate comes from, and a commitment the pick does not
use says why (finding 5, session 13): `profiles.cost.commitment`."""

from __future__ import annotations

import pytest

from profiles.cost.commitment import commitment_note, dropped_note, estimated, rate_basis
from profiles.resolver import resolve
from profiles.spec import parse_spec

pytestmark = pytest.mark.usefixtures("no_failures")


def spec(**fields):
    base = {"name": "c", "accelerators": "A100:8", "providers": "aws", "purchase": "on-demand", "hours": 100}
    return parse_spec({**base, **fields})


@pytest.mark.parametrize(
    ("provider", "term", "says"),
    [
        pytest.param(
            "aws", "1y", "; the 1y rate is on-demand less 30% (assumed: the low end of a third-party", id="aws-1y"
        ),
        pytest.param("aws", "3y", "; the 3y rate is on-demand less 50% (assumed:", id="aws-3y"),
        pytest.param(
            "azure", "3y", "; the 3y rate is on-demand less 55% (assumed: the low end of an unsourced", id="az"
        ),
        pytest.param("gcp", "1y", "; the 1y rate is on-demand less 37% (assumed: an unsourced estimate", id="gcp"),
        pytest.param("alicloud", "1y", "", id="no-discount"),  # no rate is made up where none is recorded
    ],
)
def test_an_assumed_discount_names_itself_and_its_basis(provider, term, says) -> None:
    assert rate_basis(provider, term).startswith(says) if says else rate_basis(provider, term) == ""
    if says:
        assert "pricing-models.md" in rate_basis(provider, term)


@pytest.mark.parametrize(
    ("rate", "on_demand", "expected"),
    [
        pytest.param(44.8, 64.0, True, id="on-demand-less-30pc"),
        pytest.param(40.0, 64.0, False, id="a-live-rate"),
        pytest.param(44.8, None, False, id="no-on-demand-price"),
    ],
)
def test_a_stack_rate_is_estimated_only_at_the_clouds_discount(rate, on_demand, expected) -> None:
    assert estimated("aws", "1y", rate, on_demand) is expected


def test_the_stack_header_labels_an_estimated_rate_and_not_a_live_one(make_config) -> None:
    config = make_config(purchase="on-demand", commitment="1y", usd_per_hour=44.8, commitment_reuse=0.5)
    assert commitment_note(config, 64.0).endswith(
        "without it the nodes bill on-demand at $64.00/hour; the 1y rate is on-demand less 30% (assumed: the low end "
        "of a third-party typical range for Compute Savings Plans (30-45 % for 1 year, 50-60 % for 3 years, GPU "
        "families usually at the low end, unsourced; pricing-models.md A4); no AWS page gives a GPU-family figure; "
        "`trainstack catalog refresh --provider aws` records the live reserved prices)"
    )
    live = config.model_copy(update={"usd_per_hour": 40.0})
    assert commitment_note(live, 64.0).endswith("without it the nodes bill on-demand at $64.00/hour")


def test_the_resolve_row_labels_an_estimated_rate(fixture_catalog) -> None:
    rows = resolve(spec(hours="6 months", commitment={"term": "1y", "reuse": 0.8}), fixture_catalog.offerings)
    choice = rows.choice.candidate
    assert choice.purchase == "reserved-1y"
    [note] = [n for n in choice.notes if n.startswith("1y commitment:")]
    assert "; the 1y rate is on-demand less 30% (assumed:" in note
    assert "commitment not taken" not in rows.choice.reason


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        # 1 x p4d at $32.00/h x 0.7 = $22.40/h; 100 + 8,660 x 0.5 = 4,430 h billed: $99,232 vs 100 h x $32
        pytest.param(
            {"commitment": {"term": "1y", "reuse": 0.5}},
            "; 1y commitment not taken: a 100 h run pays for 4,430 h of its 8,760 h term (its own hours and the "
            "unused rest less reuse 0.5), $99,232.00 per job on its cheapest row (p4d.24xlarge in us-east-1) vs "
            "$3,200.00 without",
            id="short-job",
        ),
        pytest.param(
            {"commitment": "1y", "providers": "alicloud", "accelerators": "A100-80GB:8"},
            None,
            id="no-rate-on-the-cloud",
        ),
        pytest.param({}, "", id="no-commitment"),
    ],
)
def test_a_commitment_the_pick_does_not_use_says_why(fixture_catalog, real_catalog, fields, says) -> None:
    workload = spec(**fields)
    offerings = real_catalog.offerings if workload.providers == ("alicloud",) else fixture_catalog.offerings
    rows = resolve(workload, offerings)
    if says is None:
        says = "; 1y commitment not priced: no matching row has a 1y rate (recorded, or a discount the cloud's file states)"
    assert dropped_note(workload.commitment, rows.choice.candidate, rows.candidates) == says
    assert rows.choice.reason.startswith("cheapest job of") and (says in rows.choice.reason)
