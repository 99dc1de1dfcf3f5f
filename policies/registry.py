"""Every rule by id, and `evaluate`: the whole rule set over one stack's resources."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from policies import stack_rules
from policies.rules import RESOURCE_RULES, Violation

# Stack-level rules over the whole resource list: id -> (description, check).
STACK_RULES: dict[str, tuple[str, Callable[[list[dict[str, Any]]], list[Violation]]]] = {
    "efa-security-group-self-rule": (
        "EFA security group allows all traffic to and from itself", stack_rules.efa_self_rule),
    "spot-needs-checkpoint-storage": (
        "spot capacity only with checkpoint storage (file system or bucket)",
        stack_rules.spot_has_checkpoint_storage),
}
BUDGET_DESCRIPTION = f"cluster USD/hour within {stack_rules.BUDGET_KEY}"

# Every rule id with its one-line description, in report order.
RULES: dict[str, str] = {
    **{rule: description for rule, (description, _) in RESOURCE_RULES.items()},
    **{rule: description for rule, (description, _) in STACK_RULES.items()},
    "budget": BUDGET_DESCRIPTION,
}


@dataclass(frozen=True)
class RuleResult:
    """One rule's outcome over a stack.

    Attributes:
        rule: the rule id.
        description: what the rule requires, one line.
        violations: what broke it; empty when the rule passed.
    """

    rule: str
    description: str
    violations: tuple[Violation, ...]

    @property
    def passed(self) -> bool:
        """True when nothing broke the rule."""
        return not self.violations


def evaluate(
    records: list[dict[str, Any]],
    usd_per_hour: float | None = None,
    max_usd_per_hour: float | None = None,
) -> list[RuleResult]:
    """Run every rule over one stack.

    Args:
        records: the stack's resources in the recorded shape.
        usd_per_hour: the cluster's price, USD/hour, for the budget rule.
        max_usd_per_hour: the stack's `trainstack:max_usd_per_hour`, or None for no budget.

    Returns:
        One result per rule id in `RULES`, in that order.
    """
    found: dict[str, list[Violation]] = {rule: [] for rule in RULES}
    for record in records:
        for rule, (_, check) in RESOURCE_RULES.items():
            found[rule] += [Violation(rule, record.get("name"), m) for m in check(record)]
    for rule, (_, check) in STACK_RULES.items():
        found[rule] += check(records)
    found["budget"] += stack_rules.budget(usd_per_hour, max_usd_per_hour)
    return [RuleResult(rule, RULES[rule], tuple(found[rule])) for rule in RULES]
