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

from typing import TYPE_CHECKING

from clouds.registry import CLOUDS
from profiles.cost.pricing import charged_hours, committed_hours

if TYPE_CHECKING:  # `resolve` loads the cost package without pydantic
    from clouds.contract import ClusterConfig


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
    return line + f"; without it the nodes bill on-demand at ${on_demand_usd_per_hour:,.2f}/hour"
