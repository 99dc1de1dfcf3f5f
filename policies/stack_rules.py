"""Stack rules: checks that need the whole resource list, or the stack's budget.

Resources reference each other by id. Under trainstack's mocks an id is `<name>-id`; the
policy-pack adapter turns a reference a real preview cannot know yet into the same
`<name>-id` form (from the resource's property dependencies), so one rule serves both.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from policies.readers import EFA_INTERFACES, SELF_RULES, SPOT
from policies.rules import STATEFUL, UNKNOWN, Violation

BUDGET_KEY = "trainstack:max_usd_per_hour"
# true: the budget rule also refuses a stack far beyond what its GPUs suggest (`oversized`)
OVERSIZE_KEY = "trainstack:refuse_oversized"


def efa_self_rule(records: list[dict[str, Any]]) -> list[Violation]:
    """A security group used by EFA interfaces must allow all traffic to and from itself.

    EFA needs an inbound and an outbound all-traffic rule that references the group itself
    (AWS EFA guide, "Prepare an EFA-enabled security group"; D1 in
    shared/reference-facts/interconnect.md). An egress rule to 0.0.0.0/0 does not count.
    """
    groups = _efa_security_groups(records)
    if groups is None:
        return []
    selfs = _self_rules(records)
    wanted: list[str | None] = [*sorted(groups)] or [None]  # None: group ids unknown, any self-referencing group
    found = []
    for group in wanted:
        for direction in ("ingress", "egress"):
            if not any(d == direction and (group is None or g in (group, UNKNOWN)) for d, g in selfs):
                where = f"security group {group}" if group else "the EFA security group"
                found.append(
                    Violation(
                        "efa-security-group-self-rule",
                        None,
                        f"EFA in use but {where} has no all-traffic {direction} rule referencing itself; "
                        f"add one (referencedSecurityGroupId = securityGroupId, ipProtocol -1)",
                    )
                )
    return found


def spot_has_checkpoint_storage(records: list[dict[str, Any]]) -> list[Violation]:
    """Spot capacity can vanish at any time: a spot cluster needs a file system or bucket."""
    spot = [r["name"] for r in records if _is_spot(r)]
    if spot and not any(r["type"] in STATEFUL for r in records):
        return [
            Violation(
                "spot-needs-checkpoint-storage",
                spot[0],
                f"{len(spot)} spot node resource(s) but no file system or bucket for "
                "checkpoints; add file_system to the cluster or use on-demand",
            )
        ]
    return []


def budget_limit(value: Any) -> float | None:
    """A stack's `trainstack:max_usd_per_hour` value as USD/hour; None when unset.

    Raises:
        ValueError: the value is not a positive finite number (one line naming the key).
    """
    if value is None or value == "":
        return None
    try:
        limit = float(value)
    except (TypeError, ValueError):
        limit = -1.0
    if not math.isfinite(limit) or limit <= 0 or isinstance(value, bool):
        raise ValueError(
            f"{BUDGET_KEY}: {value!r} is not a positive number of USD/hour; "
            "write e.g. `trainstack:max_usd_per_hour: 50`"
        )
    return limit


def budget(usd_per_hour: float | None, max_usd_per_hour: float | None, basis: str = "") -> list[Violation]:
    """The cluster's USD/hour must not exceed the stack's `trainstack:max_usd_per_hour`.

    Args:
        usd_per_hour: the whole cluster's price, USD/hour: compute, file system and the bucket's
            request charges spread over the run (`profiles.cost.cluster_cost`; None when
            unknown: with a budget set, that is a violation, since the budget cannot be shown to hold).
        max_usd_per_hour: the stack's budget, USD/hour (None: no budget set).
        basis: how the price was reached when it is not the stack's own rate (a commitment
            stack is checked at its on-demand bill), said in the message; "" for none.
    """
    if max_usd_per_hour is None or (usd_per_hour is not None and usd_per_hour <= max_usd_per_hour):
        return []
    if usd_per_hour is None:
        return [
            Violation(
                "budget",
                None,
                f"the cluster's price is unknown, so {BUDGET_KEY} ${max_usd_per_hour:,.2f}/hour cannot "
                "be checked; `trainstack plan` says which prices are missing (a `catalog refresh`, "
                "or a USD rate for prices in CNY: `catalog refresh-rate`), or remove the budget",
            )
        ]
    return [
        Violation(
            "budget",
            None,
            f"cluster costs ${usd_per_hour:,.2f}/hour (compute, file system and bucket requests; not the small "
            f"helper VMs such as a job's head node, which no price counts: `trainstack plan`'s caveats"
            f"{'; ' + basis if basis else ''}), over {BUDGET_KEY} "
            f"${max_usd_per_hour:,.2f}/hour; pick a cheaper offering or raise the budget",
        )
    ]


def refuse_oversized(value: Any) -> bool:
    """A stack's `trainstack:refuse_oversized` (or the budget policy's `refuse_oversized`) as a
    bool; False when unset. Pulumi config values are strings: true/false, yes/no, on/off, 1/0.

    Raises:
        ValueError: any other value (one line naming the key), so a typo never turns it off.
    """
    if value is None or value == "":
        return False
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "on", "1"):
        return True
    if text in ("false", "no", "off", "0"):
        return False
    raise ValueError(f"{OVERSIZE_KEY}: {value!r} is not true or false; write e.g. `{OVERSIZE_KEY}: true`")


def oversized(warnings: Sequence[str]) -> list[Violation]:
    """The budget rule's refusals of a stack far beyond what its GPUs suggest: one per size
    warning (`profiles.cost.sanity.stack_warnings`: nodes past 64, a file system dearer than
    the nodes or over 10 TiB per GPU), for a stack that asks for them (`OVERSIZE_KEY` true)."""
    return [
        Violation("budget", None, f"{line.removeprefix('warning: ')} (refused: {OVERSIZE_KEY} is true)")
        for line in warnings
    ]


def _efa_security_groups(records: list[dict[str, Any]]) -> set[str] | None:
    """Known security-group ids on EFA interfaces (`PolicyReaders.efa_interfaces`); None when
    no EFA interface exists."""
    groups: set[str] | None = None
    for record in records:
        reader = EFA_INTERFACES.get(record["type"])
        for ids in [] if reader is None else reader(record["inputs"]):
            groups = groups or set()
            groups.update(g for g in ids if isinstance(g, str) and g != UNKNOWN)
    return groups


def _self_rules(records: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(direction, group id) of every all-traffic rule whose peer is its own group
    (`PolicyReaders.self_rules`)."""
    return [found for record in records for found in SELF_RULES.get(record["type"], lambda r: [])(record)]


def _is_spot(record: dict[str, Any]) -> bool:
    """True when the resource buys spot capacity (`PolicyReaders.spot`)."""
    reader = SPOT.get(record["type"])
    return reader is not None and bool(reader(record["inputs"]))
