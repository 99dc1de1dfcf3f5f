"""Every rule by id, and `evaluate`: the whole rule set over one stack's resources.

A result is `failed` (violations), `n/a` (the rule checked nothing in this stack: no resource
of its types, or only resources beyond it, see `rules.RULE_SCOPES`) or `passed`. n/a never
fails a stack; it keeps a rule from showing as passed where it verified nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from policies import stack_rules
from policies.rules import RESOURCE_RULES, RULE_SCOPES, Violation

# Stack-level rules over the whole resource list: id -> (description, check).
STACK_RULES: dict[str, tuple[str, Callable[[list[dict[str, Any]]], list[Violation]]]] = {
    "efa-security-group-self-rule": (
        "EFA security group allows all traffic to and from itself",
        stack_rules.efa_self_rule,
    ),
    "spot-needs-checkpoint-storage": (
        "spot capacity only with checkpoint storage (file system or bucket)",
        stack_rules.spot_has_checkpoint_storage,
    ),
}
# Stack rules that apply only to some stacks: id -> (applies to these records?, why n/a otherwise).
STACK_SCOPES: dict[str, tuple[Callable[[list[dict[str, Any]]], bool], str]] = {
    "efa-security-group-self-rule": (
        lambda records: stack_rules._efa_security_groups(records) is not None,
        "no EFA interface in this stack",
    ),
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
        not_applicable: what the rule could not check, each with the reason (resource None:
            the whole stack); never a failure.
        checked: False when the rule verified nothing in this stack (status `n/a`).
    """

    rule: str
    description: str
    violations: tuple[Violation, ...]
    not_applicable: tuple[Violation, ...] = ()
    checked: bool = True

    @property
    def passed(self) -> bool:
        """True when nothing broke the rule (also when it is n/a)."""
        return not self.violations

    @property
    def status(self) -> str:
        """`failed`, `n/a` or `passed`."""
        return "failed" if self.violations else "passed" if self.checked else "n/a"

    def as_json(self) -> dict[str, Any]:
        """The result as `plan --json` and the review's JSON give it: `passed` true or false, or
        null when the rule checked nothing here (n/a) with `reason` saying why (its n/a lines
        joined; null otherwise)."""
        na = self.status == "n/a"
        return {
            "rule": self.rule,
            "description": self.description,
            "passed": None if na else self.passed,
            "status": self.status,
            "reason": "; ".join(v.message for v in self.not_applicable) if na else None,
            "violations": [{"resource": v.resource, "message": v.message} for v in self.violations],
            "not_applicable": [{"resource": v.resource, "message": v.message} for v in self.not_applicable],
        }


def evaluate(
    records: list[dict[str, Any]],
    usd_per_hour: float | None = None,
    max_usd_per_hour: float | None = None,
    budget_basis: str = "",
    oversized: Sequence[str] | None = None,
) -> list[RuleResult]:
    """Run every rule over one stack.

    Args:
        records: the stack's resources in the recorded shape.
        usd_per_hour: the cluster's price, USD/hour, for the budget rule.
        max_usd_per_hour: the stack's `trainstack:max_usd_per_hour`, or None for no budget.
        budget_basis: how `usd_per_hour` was reached, for the budget's message (`stack_rules.budget`).
        oversized: the stack's size warnings (`profiles.cost.sanity.stack_warnings`) when it
            asks the budget rule to refuse them (`trainstack:refuse_oversized: true`), each a
            violation; None when it does not ask (the warnings stay warnings).

    Returns:
        One result per rule id in `RULES`, in that order.
    """
    found: dict[str, list[Violation]] = {rule: [] for rule in RULES}
    gaps: dict[str, list[Violation]] = {rule: [] for rule in RULES}
    checked = {rule: rule not in RULE_SCOPES for rule in RULES}
    for record in records:
        for rule, (_, check) in RESOURCE_RULES.items():
            found[rule] += [Violation(rule, record.get("name"), m) for m in check(record)]
            if rule in RULE_SCOPES:
                checked[rule] = checked[rule] or RULE_SCOPES[rule].checks(record)
                gaps[rule] += [Violation(rule, record.get("name"), m) for m in RULE_SCOPES[rule].gaps(record)]
    for rule, (_, check_stack) in STACK_RULES.items():
        found[rule] += check_stack(records)
    found["budget"] += stack_rules.budget(usd_per_hour, max_usd_per_hour, budget_basis)
    found["budget"] += stack_rules.oversized(oversized or ())
    if max_usd_per_hour is None and oversized is None:
        checked["budget"] = False
        gaps["budget"].append(Violation("budget", None, f"no budget set ({stack_rules.BUDGET_KEY})"))
    for rule, scope in RULE_SCOPES.items():
        if not checked[rule] and not gaps[rule]:
            gaps[rule].append(Violation(rule, None, scope.absent))
    for rule, (applies, absent) in STACK_SCOPES.items():
        checked[rule] = applies(records)
        gaps[rule] += [] if checked[rule] else [Violation(rule, None, absent)]
    return [RuleResult(rule, RULES[rule], tuple(found[rule]), tuple(gaps[rule]), checked[rule]) for rule in RULES]
