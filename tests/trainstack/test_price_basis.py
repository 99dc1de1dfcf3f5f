"""The review subtracts two prices only when both measure the cluster they stand for
(trainstack.review.price_basis): a stack file's own recorded figure is not the price of the
cluster a hand edit made of it."""

from __future__ import annotations

import pytest

from trainstack.plan.result import PlanResult
from trainstack.review.diff import Change
from trainstack.review.markdown import review_markdown
from trainstack.review.report import review_json

VMSS = "azure-native:compute:VirtualMachineScaleSet"
RESIZE = Change("update", VMSS, "c-nodes", "urn:c-nodes", changed=("sku.capacity",), node_counts=(2, 4))
TAGS = Change("update", "azure-native:network:NatGateway", "c-nat", "urn:c-nat", changed=("tags.team",))


def _plan(usd: float, purchase: str, verified: bool, recorded: float = 196.64) -> PlanResult:
    return PlanResult(
        [],
        usd,
        usd * 72,
        {},
        hours=72.0,
        purchase=purchase,
        price_verified=verified,
        price_recorded=not verified,
        recorded_usd_per_hour=recorded,
    )


CATALOG_ON_DEMAND = _plan(199.25, "on-demand", True)
OWN_FIGURE_SPOT = _plan(199.25, "spot", False)  # the catalog has no spot price: the recorded on-demand figure


@pytest.mark.parametrize(
    ("before", "after", "changes", "delta", "words"),
    [
        pytest.param(CATALOG_ON_DEMAND, _plan(101.0, "spot", True), [], -98.25, "", id="both-from-the-catalog"),
        pytest.param(
            CATALOG_ON_DEMAND, OWN_FIGURE_SPOT, [], None, "the after price is the stack file's own", id="after-own"
        ),
        pytest.param(
            _plan(199.25, "on-demand", False), CATALOG_ON_DEMAND, [], None, "the before price", id="before-own"
        ),
        pytest.param(
            _plan(199.25, "spot", False), _plan(199.25, "spot", False), [RESIZE], None, "both prices", id="own-resized"
        ),
        pytest.param(
            _plan(199.25, "spot", False), _plan(199.25, "spot", False), [TAGS], 0.0, "", id="own-tag-edit-is-free"
        ),
        pytest.param(
            _plan(199.25, "spot", False),
            _plan(398.5, "spot", False, recorded=395.28),
            [RESIZE],
            199.25,
            "",
            id="own-figure-re-recorded",
        ),
    ],
)
def test_the_review_subtracts_prices_only_on_one_basis(before, after, changes, delta, words) -> None:
    review = review_json("s", "HEAD", changes, before, after, [], None)
    cost = review["cost"]
    assert cost["delta_usd_per_hour"] == delta
    assert (cost["delta_usd_per_job"] is None) is (delta is None)
    assert words in cost["delta_note"] and bool(cost["delta_note"]) is bool(words)
    text = review_markdown(review)
    if delta is None:
        assert "/hour → price unknown** (see Cost)" in text and "⚠️ Change unknown: " in text
        assert "| +0.00 |" not in text  # no difference stated, only "–"
    else:
        assert "Change unknown" not in text and f"{delta:+,.2f}" in text


def test_held_capacity_added_by_hand_is_priced_at_the_stacks_own_figure_so_no_difference() -> None:
    """training-a100 (spot, catalog-priced) edited to on-demand in a capacity reservation: the
    after price is the $12.33 recorded for spot, kept as the reservation's (the catalog has none)."""
    from pathlib import Path

    import yaml

    from clouds.config import parse_cluster_config
    from trainstack.plan.runner import with_price

    root = Path(__file__).resolve().parents[2]
    cluster = yaml.safe_load((root / "stacks" / "Pulumi.training-a100.yaml").read_text())["config"]
    cluster = cluster["trainstack:cluster"]
    before = with_price(PlanResult([], None, None, {}, purchase="spot"), parse_cluster_config(cluster))
    held = parse_cluster_config({**cluster, "purchase": "on-demand", "reservation": {"id": "cr-0123456789abcdef0"}})
    after = with_price(PlanResult([], None, None, {}, purchase="on-demand"), held)
    assert (before.price_recorded, after.price_recorded) == (False, True)
    cost = review_json("s", "HEAD", [], before, after, [], None)["cost"]
    assert cost["delta_usd_per_hour"] is None and cost["delta_note"].startswith("the after price is the stack file's")
