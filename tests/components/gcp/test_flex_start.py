"""GCP Dynamic Workload Scheduler flex-start: the nodes of an empty zonal group come from one
resize request (all at once, for the run plus a margin, at most 7 days), priced from the sourced
flex-start SKUs or at on-demand as an upper bound; what the contract refuses."""

from __future__ import annotations

import pytest

from clouds.gcp.flex_start import MAX_RUN_SECONDS, MIN_RUN_SECONDS, run_seconds
from profiles.stack.price import price_stack
from tests.components.gcp.gcp_harness import build, make_config

FLEX = {"purchase": "on-demand", "flex_start": True, "hours": 20}
GROUP = "gcp:compute/instanceGroupManager:InstanceGroupManager"


def test_the_group_starts_empty_and_one_resize_request_asks_every_node() -> None:
    plan = build(make_config(**FLEX))
    (group,) = plan.of_type(GROUP)
    inputs = group["inputs"]
    assert inputs["targetSize"] == 0 and "autoHealingPolicies" not in inputs
    assert inputs["instanceLifecyclePolicy"] == {"defaultActionOnFailure": "DO_NOTHING"}
    (request,) = plan.of_type("gcp:compute/resizeRequest:ResizeRequest")
    assert request["inputs"]["resizeBy"] == 2 and request["inputs"]["zone"] == "us-central1-a"
    assert request["inputs"]["requestedRunDuration"] == {"seconds": "90000", "nanos": 0}  # 20 h + 25 %
    (template,) = plan.of_type("gcp:compute/instanceTemplate:InstanceTemplate")
    scheduling = template["inputs"]["scheduling"]
    assert scheduling["provisioningModel"] == "FLEX_START" and scheduling["instanceTerminationAction"] == "DELETE"
    assert scheduling["maxRunDuration"] == {"seconds": 90000} and scheduling["automaticRestart"] is False
    assert not plan.of_type("gcp:compute/resourcePolicy:ResourcePolicy")  # one request's VMs sit close anyway
    # nothing auto-heals, so no health check and no firewall rule admitting Google's probes
    assert not plan.of_type("gcp:compute/healthCheck:HealthCheck")
    rules = {r["name"] for r in plan.of_type("gcp:compute/firewall:Firewall")}
    assert rules and not any(name.endswith("-fw-health") for name in rules)


def test_a_flex_start_cluster_is_said_to_replace_nothing() -> None:
    from clouds.healing import healing

    flex = healing("gcp", "a3-highgpu-8g", purchase="on-demand", flex_start=True)
    on_demand = healing("gcp", "a3-highgpu-8g", purchase="on-demand")
    assert not flex.replaces_nodes and on_demand.replaces_nodes
    assert "not replaced" in flex.summary and "recreated" not in flex.summary
    assert "manual restart, unsourced 2 h" in flex.summary and flex.restart_hours == 2.0
    assert "recreated and rejoins the job" in on_demand.summary


@pytest.mark.parametrize(
    ("hours", "seconds"),
    [(0.01, MIN_RUN_SECONDS), (1, 4500), (100, 450_000), (134.4, MAX_RUN_SECONDS)],
)
def test_the_run_asked_is_the_hours_plus_a_quarter_within_googles_bounds(hours: float, seconds: int) -> None:
    assert run_seconds(hours) == seconds


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        pytest.param({"purchase": "spot"}, "never spot; set purchase: on-demand", id="spot"),
        pytest.param({"hours": 150}, "at most 7 days", id="too-long"),
        pytest.param({"reservation": {"id": "held-a3"}}, "remove reservation", id="reservation"),
    ],
)
def test_what_flex_start_cannot_do_is_refused(changes: dict, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        make_config(**{**FLEX, **changes})


def test_another_cloud_has_no_flex_start() -> None:
    from tests.clusters import example_config

    with pytest.raises(ValueError, match="has no flex-start"):
        example_config("aws", purchase="on-demand", flex_start=True)


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        pytest.param(
            {}, "priced from Compute Engine's DWS Defined Duration SKUs (source facts.gcp_flex_start F1", id="a3-high"
        ),
        pytest.param({"instance_type": "a3-megagpu-8g"}, "priced at on-demand, an upper bound", id="a3-mega-unsourced"),
        pytest.param(
            {"region": "europe-west4", "zone": "europe-west4-a"},
            "no per-SKU price is sourced for",
            id="outside-americas",
        ),
    ],
)
def test_the_price_line_says_where_the_price_comes_from(changes: dict, words: str) -> None:
    price = price_stack(make_config(**{**FLEX, **changes}), (), "fixture-1")
    assert any(line.startswith("flex-start: ") and words in line for line in price.caveats)
    assert any("the wait for capacity is not in the hours" in line for line in price.caveats)


def test_plan_json_says_the_stack_is_flex_start() -> None:
    from trainstack.cli.render import plan_summary
    from trainstack.plan.result import PlanResult

    result = PlanResult([], None, None, {}, purchase="on-demand")
    flex = plan_summary(result, make_config(**FLEX))
    assert (flex["purchase"], flex["flex_start"]) == ("on-demand", True)
    standard = plan_summary(result, make_config(purchase="on-demand"))
    assert standard["flex_start"] is False
