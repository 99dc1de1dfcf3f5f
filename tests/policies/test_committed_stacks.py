"""Every committed stack in stacks/ passes every rule, planned under mocks."""

from pathlib import Path

import pytest

from policies import evaluate
from trainstack.plan.runner import run_plan

ROOT = Path(__file__).resolve().parents[2]
STACKS = sorted(p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in (ROOT / "stacks").glob("Pulumi.*.yaml"))


@pytest.mark.parametrize("stack", STACKS)
def test_committed_stack_passes_all_rules(stack):
    plan = run_plan(stack, ROOT)
    results = evaluate(plan.resources, plan.usd_per_hour)
    failed = [(r.rule, v.resource, v.message) for r in results for v in r.violations]
    assert failed == []
    # `plan --json` of the same plan (issue #28, item 3): the summary a script reads first is
    # there on every kind of stack (VM, SageMaker, Azure ML, ModelArts, TPU, ...), a missing
    # price says why, and a rule that checked nothing is null with its reason
    from profiles.stack.file import read_cluster
    from trainstack.cli.render import plan_json

    data = plan_json(plan, results, stack, read_cluster(ROOT / "stacks" / f"Pulumi.{stack}.yaml")[1])
    summary = ("provider", "region", "zone", "instance_type", "accelerator", "accelerator_count", "nodes", "purchase")
    assert [key for key in summary if data[key] is None] == []
    assert (data["usd_per_hour"] is None) == (data["usd_per_job"] is None)
    assert data["usd_per_hour"] is not None or data["price_note"].startswith("price unknown (")
    for policy in data["policies"]:
        assert (policy["passed"] is None) == (policy["status"] == "n/a") == bool(policy["reason"]), policy


def test_a100_stack_uses_efa_so_the_self_rule_is_exercised():
    plan = run_plan("training-a100", ROOT)
    interfaces = [
        i
        for r in plan.resources
        if r["type"] == "aws:ec2/launchTemplate:LaunchTemplate"
        for i in r["inputs"]["networkInterfaces"]
    ]
    assert {i.get("interfaceType") for i in interfaces} == {"efa"}
    without_self_in = [r for r in plan.resources if not r["name"].endswith("-sg-self-in")]
    failed = {r.rule for r in evaluate(without_self_in) if not r.passed}
    assert failed == {"efa-security-group-self-rule"}


@pytest.mark.parametrize(
    ("stack", "status", "na"),
    [
        pytest.param("training-a100", "passed", [], id="aws"),
        pytest.param("training-a100-alicloud", "passed", ["-cpfs"], id="alicloud-cpfs-gap"),
        # The Auto Scaling group's nodes have no data disk (none could be encrypted): only gaps.
        pytest.param("training-a100-tencentcloud", "n/a", ["-cfs", "-node-config"], id="tencent-system-disk-gap"),
        pytest.param("training-a100-huaweicloud", "n/a", ["-node-config", "-sfs"], id="huawei-needs-a-key"),
        pytest.param("training-a10-volcengine", "n/a", ["-node-config", "-vepfs"], id="volcengine-no-input"),
        pytest.param("training-a100-baiducloud", "n/a", ["-node-0", "-node-1"], id="baidu-no-input"),
    ],
)
def test_disks_encrypted_says_what_it_could_not_check(stack, status, na):
    """Committed stacks pass every rule, but `disks-encrypted` shows unencryptable data as n/a."""
    plan = run_plan(stack, ROOT)
    (result,) = [r for r in evaluate(plan.resources) if r.rule == "disks-encrypted"]
    assert result.status == status and result.violations == ()
    assert sorted(v.resource.removeprefix(stack) for v in result.not_applicable) == na
