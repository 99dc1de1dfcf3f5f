"""GCP flex-start (Dynamic Workload Scheduler) as a purchase option of `resolve`: its own row,
priced from the sourced DWS Defined Duration SKUs (`facts.gcp_flex_start`) or at on-demand as an
upper bound, offered only for runs that fit one request's 7 days, written as `flex_start: true`,
and priced the same by `plan`."""

from __future__ import annotations

import pytest

from clouds.gcp.flex_start import MAX_RUN_HOURS, flex_price, flex_row
from profiles.explain import NoMatchError
from profiles.resolver import FLEX_TOO_LONG, resolve
from profiles.spec import SpecError, parse_spec
from profiles.stack.price import price_stack
from profiles.stack.writer import cluster_config

A2_1G = ("a2-highgpu-1g", "us-central1", 1, 12.0, 85.0, 3.67339)  # the catalog's us-central1 row
A3_8G = ("a3-highgpu-8g", "us-central1", 8, 208.0, 1872.0, 43.06615)


@pytest.mark.parametrize(
    ("args", "usd"),
    [
        # F2: GPU 1.61365 + 12 vCPU x 0.01739 + 85 GiB x 0.00233 (the note's own per-part figures)
        pytest.param(A2_1G, 1.61365 + 0.20868 + 0.19805, id="a2-highgpu-1g"),
        # F1: 8 x 4.200761 + 208 x 0.010934 + 1,872 x 0.000952 + 6,000 GiB local SSD x 0.0001096
        pytest.param(A3_8G, 33.606088 + 2.274272 + 1.782144 + 0.6576, id="a3-highgpu-8g-with-its-ssd"),
        # A2 Mega carries the same A100 40GB SKUs: 16 GPUs, 96 vCPUs, 1,360 GiB
        pytest.param(("a2-megagpu-16g", "us-east1", 16, 96.0, 1360.0, 60.0), 25.8184 + 1.66944 + 3.1688, id="a2-mega"),
        # no sourced SKU: on-demand, an upper bound
        pytest.param(("a3-megagpu-8g", "us-central1", 8, 208.0, 1872.0, 92.21427), 92.21427, id="a3-mega-unsourced"),
        pytest.param(("a2-highgpu-1g", "europe-west4", 1, 12.0, 85.0, 3.9), 3.9, id="outside-americas"),
        pytest.param(("a2-highgpu-1g", "us-central1", 1, None, None, 3.67339), 3.67339, id="host-size-unknown"),
    ],
)
def test_a_flex_start_node_is_priced_from_the_sourced_skus_or_at_on_demand(args: tuple, usd: float) -> None:
    found = flex_price(*args)
    assert found is not None
    assert found[0] == pytest.approx(usd, abs=1e-9)
    sourced = usd < args[-1]
    assert ("DWS Defined Duration SKUs" in found[1]) is sourced
    assert ("an upper bound" in found[1]) is not sourced
    assert "the wait for capacity is not in the hours" in found[1]


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(("g4-standard-48", "us-central1", 1, 48.0, 180.0, 4.5), id="g4"),
        pytest.param(("a4x-highgpu-4g", "us-central1", 4, 140.0, 884.0, 40.0), id="a4x"),
        pytest.param(("tpu-v5p-8", "us-east5", 4, None, None, 16.8), id="tpu"),
        pytest.param(("n1-standard-8", "us-central1", 1, 8.0, 30.0, 2.9), id="n1-attached-gpus"),
        pytest.param(("a2-highgpu-1g", "us-central1", 1, 12.0, 85.0, None), id="no-on-demand-price"),
    ],
)
def test_no_flex_start_row_where_google_offers_none(args: tuple) -> None:
    assert flex_price(*args) is None


def test_a_run_longer_than_one_request_is_not_offered() -> None:
    assert MAX_RUN_HOURS == pytest.approx(134.4)  # 7 days / 1.25
    assert isinstance(flex_row(*A2_1G, 134.4), tuple)
    refused = flex_row(*A2_1G, 134.5)
    assert isinstance(refused, str) and "runs at most 7 days" in refused and "134.5 h" in refused


FLEX = {"accelerators": ["A100:1"], "nodes": 2, "hours": 20, "purchase": "flex-start"}
WHERE = {"providers": ["gcp"], "regions": ["us-central1"]}


def test_resolve_picks_the_flex_row_and_plan_prices_the_stack_the_same(real_catalog) -> None:
    spec = parse_spec({"name": "flex", **FLEX, **WHERE})
    chosen = resolve(spec, real_catalog.offerings).choice.candidate
    assert (chosen.purchase, chosen.offering.instance_type) == ("flex-start", "a2-highgpu-1g")
    assert chosen.usd_per_node_hour == pytest.approx(2.02038)
    assert chosen.usd_total == pytest.approx(2.02038 * 2 * 20)
    config = cluster_config(spec, chosen, real_catalog.version, (chosen,))
    assert config.flex_start and config.purchase == "on-demand" and config.fallback_types == ()
    price = price_stack(config, real_catalog.offerings, real_catalog.version)
    assert price.usd_total == pytest.approx(chosen.usd_total, abs=0.005)
    assert any(line.startswith("flex-start: priced from Compute Engine's DWS") for line in price.caveats)


def test_purchase_any_ranks_flex_start_beside_on_demand_and_spot(real_catalog) -> None:
    spot = {"purchase": "any", "spot": {"checkpoint_interval": "1h"}, "file_system": {"capacity": "1TiB"}}
    spec = parse_spec({"name": "flex", **FLEX, **WHERE, **spot})
    rows = [c for c in resolve(spec, real_catalog.offerings).candidates if c.offering.instance_type == "a2-highgpu-1g"]
    by_purchase = {c.purchase: c.usd_per_node_hour for c in rows}
    assert by_purchase == pytest.approx({"on-demand": 3.67339, "spot": 1.80385, "flex-start": 2.02038})


def test_a_job_too_long_for_one_request_says_so(real_catalog) -> None:
    spec = parse_spec({"name": "flex", **FLEX, **WHERE, "hours": 135})
    with pytest.raises(NoMatchError) as raised:
        resolve(spec, real_catalog.offerings)
    assert str(raised.value) == FLEX_TOO_LONG


@pytest.mark.parametrize("providers", [["aws"], ["aws", "azure"]])
def test_flex_start_on_clouds_that_do_not_sell_it_is_refused_in_one_line(providers: list[str]) -> None:
    with pytest.raises(SpecError) as raised:
        parse_spec({"name": "flex", **FLEX, "providers": providers, "accelerators": ["H100:8"]})
    message = str(raised.value)
    assert "purchase: flex-start is sold only on gcp" in message and "add gcp to providers" in message
    assert "\n" not in message and "price" not in message


def test_flex_start_with_gcp_among_the_providers_is_accepted() -> None:
    assert parse_spec({"name": "flex", **FLEX, "providers": ["aws", "gcp"]}).purchase == "flex-start"


@pytest.mark.parametrize("word", ["flex-start", "flex", "DWS", "flex_start", "FlexStart"])
def test_purchase_accepts_the_names_people_write(word: str) -> None:
    assert parse_spec({"name": "flex", **FLEX, "purchase": word}).purchase == "flex-start"


def test_a_commitment_is_not_bought_with_flex_start() -> None:
    with pytest.raises(SpecError, match="never flex-start, so purchase: flex-start would ignore it"):
        parse_spec({"name": "flex", **FLEX, "commitment": "1y"})


def test_a_pick_that_is_not_flex_start_says_so_when_flex_start_was_ranked(real_catalog) -> None:
    """`purchase: any` ranked flex-start beside the pick: the stack states `flex_start: false`, so a
    rewrite of a flex-start stack to an on-demand or spot pick does not keep the old setting."""
    spec = parse_spec(
        {
            "name": "flex",
            **FLEX,
            **WHERE,
            "purchase": "any",
            "spot": {"checkpoint_interval": "1h"},
            "file_system": {"capacity": "1TiB"},
        }
    )
    chosen = next(c for c in resolve(spec, real_catalog.offerings).candidates if c.purchase == "spot")
    config = cluster_config(spec, chosen, real_catalog.version)
    assert config.flex_start is False and "flex_start" in config.model_fields_set


def test_a_flex_start_row_names_no_fallback_types_its_request_cannot_launch(real_catalog) -> None:
    spec = parse_spec({"name": "flex", **FLEX, **WHERE, "accelerators": ["A100:8", "A100-80GB:8", "H100:8"]})
    resolution = resolve(spec, real_catalog.offerings)
    assert resolution.choice.candidate.purchase == "flex-start"
    assert all("its group also launches" not in r.reason for r in (resolution.choice, *resolution.alternatives))


@pytest.mark.parametrize(
    ("flex", "on_demand", "words", "flagged"),
    [
        # a2-highgpu-1g us-central1 (F2 against the catalog): within Google's "up to 53%"
        pytest.param(2.02038, 3.67339, "45% below the catalog's on-demand $3.67/h (computed against", False, id="a2"),
        pytest.param(47.0, 100.0, "53% below the catalog's on-demand $100.00/h", False, id="at-the-maximum"),
        # a3-highgpu-8g us-east4 (F1 against the catalog's $87.83): past it, so flagged
        pytest.param(38.32, 87.83, "56% below the catalog's on-demand $87.83/h", True, id="a3-us-east4"),
    ],
)
def test_the_discount_is_named_as_computed_against_the_catalog_and_flagged_past_googles_maximum(
    flex: float, on_demand: float, words: str, flagged: bool
) -> None:
    from clouds.gcp.flex_start import discount_note

    note = discount_note(flex, on_demand)
    assert words in note
    assert ("more than Google's stated maximum of 53%: the catalog's on-demand price" in note) is flagged
