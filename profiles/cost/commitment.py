"""What a stack priced with a 1y/3y commitment really pays, said in one line.

A commitment (`commitment: 1y` in a stack) is billing only: the cluster launches ordinary
on-demand nodes, and nothing in a stack buys or targets the commitment. The rate applies only
when the team holds one, bought separately in the cloud's billing console (`Cloud.commitment_purchase`:
on AWS a Savings Plan or Reserved Instances, on Azure reserved VM instances or a savings plan,
on GCP a committed use discount; shared/reference-facts/pricing-models.md A1, A2, Z1, Z2, G1,
G2). Without one, the cloud bills the nodes on-demand. So every place that prices such a stack
(its header, `plan`, the review comment, the budget) states three figures: the whole term's
commitment (the term rate x nodes x the term's hours, `profiles.cost.pricing.committed_hours`),
the job's share of it under the recorded `reuse` (`charged_hours`), and the on-demand price the
nodes bill at without the commitment.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from clouds.registry import CLOUDS
from profiles.cost.pricing import RESERVED_DISCOUNT, charged_hours, committed_hours

if TYPE_CHECKING:  # `resolve` loads the cost package without pydantic
    from clouds.contract import ClusterConfig
    from profiles.candidate import Candidate


def rate_basis(provider: str, term: str) -> str:
    """`; the 1y rate is on-demand less 30 % (assumed: ...)`: how an estimated term rate was
    made (`Cloud.reserved_discount` and its `reserved_discount_basis`), for every figure built
    on it; "" when the cloud has no discount for the term (a live rate, or no rate at all)."""
    discount = RESERVED_DISCOUNT.get((provider, term))
    if discount is None:
        return ""
    cloud = CLOUDS.get(provider)
    basis = (cloud.reserved_discount_basis if cloud else "") or "assumed: no source recorded"
    return f"; the {term} rate is on-demand less {discount:.0%} ({basis})"


def estimated(provider: str, term: str, rate: float, on_demand: float | None) -> bool:
    """True when `rate` (USD/hour) is `on_demand` less the cloud's assumed discount for `term`
    (`profiles.cost.pricing.reserved_usd_per_hour`), not a live rate the catalog recorded."""
    discount = RESERVED_DISCOUNT.get((provider, term))
    return discount is not None and on_demand is not None and abs(rate - on_demand * (1 - discount)) <= 1e-4 * rate


def row_note(term: str, rate: float, nodes: int, hours: float, reuse: float, on_demand: float, basis: str) -> str:
    """A commitment row's note: the whole term, the job's share and the on-demand bill (whole
    cluster, USD), then `basis` (`rate_basis`, "" for a live rate).

    Args:
        term: `1y` or `3y`; rate, on_demand: one node's USD/hour; nodes: the cluster's nodes;
            hours: the run; reuse: the share (0-1) of the unused term other work takes.
    """
    committed = committed_hours(hours, term)
    billed = charged_hours(hours, term, reuse)
    return (
        f"{term} commitment: ${rate * nodes * committed:,.0f} for {committed:,.0f} h, bought separately (the stack "
        f"launches on-demand nodes and buys no commitment; without one they bill ${on_demand * nodes:,.2f}/hour); "
        f"this job's share ${rate * nodes * billed:,.0f} ({billed:,.0f} h billed, reuse {reuse:g} of the rest){basis}"
    )


def dropped_note(commitment: tuple[str, float] | None, choice: Candidate, candidates: Iterable[Candidate]) -> str:
    """`; 1y commitment not taken: ...`: why the workload's commitment is not the pick's, in
    one clause (its cheapest row pays for more of the term than it saves, or no row could be
    priced at a term rate); "" without a commitment or when the pick uses it."""
    if commitment is None or choice.purchase == f"reserved-{commitment[0]}":
        return ""
    term, reuse = commitment  # the workload's `profiles.spec.values.Commitment`
    best = next((c for c in candidates if c.purchase == f"reserved-{term}"), None)  # cheapest first
    if best is None:
        return (
            f"; {term} commitment not priced: no matching row has a {term} rate (recorded, or a discount "
            "the cloud's file states)"
        )
    billed, committed = best.charged_hours or best.hours, best.committed_hours or best.hours
    return (
        f"; {term} commitment not taken: a {best.hours:,.0f} h run pays for {billed:,.0f} h of its "
        f"{committed:,.0f} h term (its own hours and the unused rest less reuse {reuse:g}), "
        f"${best.usd_total:,.2f} per job on its cheapest row "
        f"({best.offering.instance_type} in {best.offering.region}) vs ${choice.usd_total:,.2f} without"
    )


def commitment_note(config: ClusterConfig, on_demand_usd_per_hour: float | None) -> str | None:
    """The one line a commitment stack's price needs, or None without a commitment.

    Args:
        config: the stack's cluster; its `usd_per_hour` is the compute price at the term's rate
            (whole cluster, USD/hour), its `commitment_reuse` the workload's reuse (None: not
            recorded, so the price counts only the job's own hours of the term).
        on_demand_usd_per_hour: what the nodes bill at without the commitment (whole cluster,
            USD/hour, the catalog's on-demand price), or None when the catalog has none.
    """
    if config.commitment == "none" or config.usd_per_hour is None:
        return None
    term, rate = config.commitment, config.usd_per_hour
    committed = committed_hours(config.hours, term)
    cloud = CLOUDS.get(config.provider)
    product = (cloud.commitment_purchase if cloud else "") or f"a {term} reserved term"
    line = (
        f"assumes a {term} commitment the stack does not buy: the nodes launch on-demand, and this rate applies "
        f"only if you hold {product} for {config.nodes} x {config.instance_type}, bought separately; "
        f"the term commits ${rate * committed:,.0f} ({committed:,.0f} h at ${rate:,.2f}/hour)"
    )
    reuse = config.commitment_reuse
    if reuse is None:
        line += "; the job total counts only its own hours of it (other work uses the rest: reuse not recorded)"
    else:
        share = rate * charged_hours(config.hours, term, reuse)
        line += f", this job's share ${share:,.0f} with reuse {reuse:g} of the rest"
    if on_demand_usd_per_hour is None:
        return line + "; without it the nodes bill on-demand (the catalog has no on-demand price for them)"
    basis = rate_basis(config.provider, term) if estimated(config.provider, term, rate, on_demand_usd_per_hour) else ""
    return line + f"; without it the nodes bill on-demand at ${on_demand_usd_per_hour:,.2f}/hour{basis}"
