"""Whether the review may subtract the two sides' prices (`trainstack.review.report`).

`plan` prices a stack from today's catalog; where the catalog has no price for the stack's
type, purchase option and zone, it shows the stack file's own recorded figure
(`PlanResult.price_verified` False). That figure was recorded for whatever the stack was when
it was resolved: after a hand edit of the nodes or the purchase option it is not the new
cluster's price, so a difference against it would be a made-up number ("+0.00" for on-demand
to spot). A stack on held capacity is priced at its own figure too (`PlanResult.price_recorded`):
a reservation added by hand keeps the figure recorded for spot.
"""

from __future__ import annotations

from trainstack.plan.result import PlanResult
from trainstack.review.diff import Change
from trainstack.review.node_effects import node_effect


def delta_note(before: PlanResult | None, after: PlanResult, changes: list[Change]) -> str:
    """Why the review gives no USD/hour and USD/job difference, or "" when it can.

    Args:
        before: the plan at the compared revision (None for a new stack).
        after: the plan now.
        changes: the planned changes between them.

    Returns:
        "" when both prices come from the catalog, or both are the stack's own figure and
        either the figure was re-recorded or nothing that bills (a node group, the purchase
        option) changed; otherwise one clause naming why the difference is unknown.
    """
    if before is None or not (before.price_recorded or after.price_recorded):
        return ""
    own = "the stack file's own recorded price, which the catalog cannot confirm"
    if before.price_recorded != after.price_recorded:
        side, other = ("after", "before") if after.price_recorded else ("before", "after")
        return f"the {side} price is {own}, and the {other} price the catalog's: they are not comparable"
    billed = before.purchase != after.purchase or any(node_effect(c) for c in changes)
    if billed and before.recorded_usd_per_hour == after.recorded_usd_per_hour:
        return f"both prices are {own}, unchanged although the nodes or their purchase option change"
    return ""
