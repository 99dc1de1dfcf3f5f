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
    failed = [
        (r.rule, v.resource, v.message) for r in evaluate(plan.resources, plan.usd_per_hour) for v in r.violations
    ]
    assert failed == []


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
