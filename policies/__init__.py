"""trainstack's policy rules: one rule set for `pulumi preview --policy-pack policies`,
`trainstack plan --markdown` and the tests.

The rules are pure functions over the recorded resource shape
`{"type", "name", "parent", "protect", "inputs"}` (camelCase inputs, as `trainstack.plan.runner`
records them and as real previews hand them to a policy pack). They import nothing from
Pulumi, so trainstack can run them without `pulumi-policy`; `policies.pack` adapts them to
pulumi-policy's `ResourceValidationPolicy` and `StackValidationPolicy`.
"""

from policies.registry import RULES, RuleResult, evaluate
from policies.rules import UNKNOWN, Violation

__all__ = ["RULES", "RuleResult", "UNKNOWN", "Violation", "evaluate"]
