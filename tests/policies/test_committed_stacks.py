"""Every committed stack in stacks/ passes every rule, planned under mocks."""

from pathlib import Path

import pytest

from policies import evaluate
from trainstack.plan import run_plan

ROOT = Path(__file__).resolve().parents[2]
STACKS = sorted(p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in (ROOT / "stacks").glob("Pulumi.*.yaml"))


@pytest.mark.parametrize("stack", STACKS)
def test_committed_stack_passes_all_rules(stack):
    plan = run_plan(stack, ROOT)
    failed = [(r.rule, v.resource, v.message) for r in evaluate(plan.resources, plan.usd_per_hour) for v in r.violations]
    assert failed == []


def test_a100_stack_uses_efa_so_the_self_rule_is_exercised():
    plan = run_plan("training-a100", ROOT)
    interfaces = [i for r in plan.resources if r["type"] == "aws:ec2/launchTemplate:LaunchTemplate"
                  for i in r["inputs"]["networkInterfaces"]]
    assert {i.get("interfaceType") for i in interfaces} == {"efa"}
    without_self_in = [r for r in plan.resources if not r["name"].endswith("-sg-self-in")]
    failed = {r.rule for r in evaluate(without_self_in) if not r.passed}
    assert failed == {"efa-security-group-self-rule"}
