"""pulumi-policy adapters: the same rule functions, enforced on real `pulumi preview`s.

`policies()` builds one `ResourceValidationPolicy` per resource rule and one
`StackValidationPolicy` per stack rule (plus the budget). Each adapter turns pulumi-policy's
arguments into the recorded shape `{"type", "name", "parent", "protect", "inputs"}`:
`props` are already camelCase inputs, `opts.protect` is the protect flag. Values a preview
cannot know yet become `UNKNOWN`; in stack validation an unknown top-level input that comes
from exactly one other resource becomes `<that resource's name>-id`, the id form the mocks
use, so reference checks (the EFA self rule) work before the ids exist.

Budget: the limit comes from the policy config (`--policy-pack-config`, key
`max_usd_per_hour` under policy `budget`) or else the stack config
`trainstack:max_usd_per_hour`; a value that is not a positive number is a violation, never
"no budget". The price is the cluster's (`trainstack:cluster`) as configured, priced from
the catalog as `trainstack plan` does (`profiles.stack.price`); when the catalog cannot
price it, a set budget fails. Recent Pulumi CLIs hand the stack config to policy packs
(tested upstream in pulumi/pulumi#20570); with an older CLI set the limit in the policy
config.

Sizes: with `refuse_oversized: true` (policy config, or the stack's
`trainstack:refuse_oversized`) the budget policy also refuses a stack far beyond what its GPUs
suggest: each size warning `plan` and `check` print (`profiles.cost.sanity`: more than 64
nodes, a file system dearer per hour than the nodes, or over 10 TiB per GPU when unpriced)
becomes a violation. Without it those stay warnings, as in `plan`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pulumi
from pulumi_policy import (
    EnforcementLevel,
    Policy,
    PolicyConfigSchema,
    ReportViolation,
    ResourceValidationArgs,
    ResourceValidationPolicy,
    StackValidationArgs,
    StackValidationPolicy,
)
from pulumi_policy.proxy import UnknownValueError

from policies.registry import STACK_RULES
from policies.rules import RESOURCE_RULES, UNKNOWN
from policies.stack_rules import BUDGET_KEY, OVERSIZE_KEY, budget, budget_limit, oversized, refuse_oversized

PACK_NAME = "trainstack"


def plain(value: Any) -> Any:
    """A deep plain copy of pulumi-policy props, with unknown values as `UNKNOWN`."""
    if isinstance(value, Mapping):
        return {key: _plain_item(value, key) for key in value}
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        return [_plain_item(value, index) for index in range(len(value))]
    return value


def _plain_item(container: Any, key: Any) -> Any:
    try:
        return plain(container[key])
    except UnknownValueError:
        return UNKNOWN


def to_record(resource: Any, references: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The recorded shape of a `ResourceValidationArgs` or `PolicyResource`.

    Args:
        resource: pulumi-policy's view of one resource (`resource_type`, `name`, `props`, `opts`).
        references: top-level input name -> `<name>-id` for inputs still unknown in a preview.
    """
    inputs = plain(resource.props)
    for key, ref in (references or {}).items():
        if inputs.get(key) == UNKNOWN:
            inputs[key] = ref
    parent = resource.opts.parent
    return {
        "type": resource.resource_type,
        "name": resource.name,
        "parent": parent.split("::")[-1] if parent and "pulumi:pulumi:Stack" not in parent else None,
        "protect": bool(resource.opts.protect),
        "inputs": inputs,
    }


def stack_records(args: StackValidationArgs) -> list[dict[str, Any]]:
    """Every resource of a stack validation in the recorded shape (see `to_record`)."""
    records = []
    for resource in args.resources:
        deps = resource.property_dependencies or {}
        refs = {key: f"{found[0].name}-id" for key, found in deps.items() if len(found) == 1}
        records.append(to_record(resource, refs))
    return records


def resource_validator(rule: str) -> Callable[[ResourceValidationArgs, ReportViolation], None]:
    """A pulumi-policy resource validation running resource rule `rule`."""
    check = RESOURCE_RULES[rule][1]

    def validate(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
        for message in check(to_record(args)):
            report_violation(message, None)

    return validate


def stack_validator(rule: str) -> Callable[[StackValidationArgs, ReportViolation], None]:
    """A pulumi-policy stack validation running stack rule `rule`."""
    check = STACK_RULES[rule][1]

    def validate(args: StackValidationArgs, report_violation: ReportViolation) -> None:
        urns = {resource.name: resource.urn for resource in args.resources}
        for violation in check(stack_records(args)):
            report_violation(violation.message, urns.get(violation.resource or ""))

    return validate


def validate_budget(args: StackValidationArgs, report_violation: ReportViolation) -> None:
    """Stack validation: the cluster's USD/hour within the budget, and with `refuse_oversized`
    its sizes within reason (see module docstring)."""
    config = args.get_config() or {}
    try:
        checked = budget_limit(config.get("max_usd_per_hour", _stack_config(BUDGET_KEY)))
        refuse = refuse_oversized(config.get("refuse_oversized", _stack_config(OVERSIZE_KEY)))
    except ValueError as exc:  # a setting that cannot be read must not switch the check off
        report_violation(str(exc), None)
        return
    raw = _stack_config("trainstack:cluster") if checked is not None or refuse else None
    if checked is not None:  # no budget: nothing to price (and no pricing code to import)
        for violation in budget(_cluster_price(raw), checked):
            report_violation(violation.message, None)
    if refuse:
        for violation in oversized(_size_warnings(raw, checked)):
            report_violation(violation.message, None)


def policies(level: EnforcementLevel = EnforcementLevel.MANDATORY) -> list[Policy]:
    """Every trainstack rule as a pulumi-policy policy, enforced at `level`."""
    found: list[Policy] = [
        ResourceValidationPolicy(
            name=rule, description=description, validate=resource_validator(rule), enforcement_level=level
        )
        for rule, (description, _) in RESOURCE_RULES.items()
    ]
    found += [
        StackValidationPolicy(
            name=rule, description=description, validate=stack_validator(rule), enforcement_level=level
        )
        for rule, (description, _) in STACK_RULES.items()
    ]
    found.append(
        StackValidationPolicy(
            name="budget",
            description=f"cluster USD/hour within {BUDGET_KEY}",
            validate=validate_budget,
            enforcement_level=level,
            config_schema=PolicyConfigSchema(
                properties={
                    "max_usd_per_hour": {"type": "number", "minimum": 0},
                    "refuse_oversized": {"type": "boolean"},
                }
            ),
        )
    )
    return found


def _cluster_price(raw: Any) -> float | None:
    """The cluster's USD/hour as configured, priced from the catalog like `trainstack plan`
    (a hand-edited `usd_per_hour` cannot slip past the budget); None when the catalog does
    not price it or the config does not parse, so a set budget fails closed."""
    from clouds.config import ConfigError, parse_cluster_config
    from profiles.stack.price import price_from_catalog

    try:
        return price_from_catalog(parse_cluster_config(raw)).checked_usd_per_hour
    except ConfigError:  # the component fails the preview anyway; no typed price is trusted
        return None


def _size_warnings(raw: Any, budget_usd_per_hour: float | None = None) -> list[str]:
    """The size warnings `trainstack check` prints for the cluster as configured, priced from
    the catalog (`profiles.cost.sanity.stack_warnings`); none when the config does not parse
    (the component fails the preview with its own one-line error)."""
    from clouds.config import ConfigError, parse_cluster_config
    from profiles.cost.sanity import stack_warnings
    from profiles.stack.price import price_from_catalog

    try:
        config = parse_cluster_config(raw)
    except ConfigError:
        return []
    price = price_from_catalog(config)
    return stack_warnings(config, price.usd_per_hour, price.usd_storage, budget_usd_per_hour)


def _stack_config(key: str) -> Any:
    """A stack config value as the CLI hands it to the pack (None when absent)."""
    return pulumi.runtime.get_config(key)
