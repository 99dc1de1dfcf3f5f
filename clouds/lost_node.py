"""A cloud's answer to a lost node (`Healing`, `Cloud.healing`), the time it costs, and the answer
of a cloud where nothing replaces the node (`manual_healing`, `per_node_healing`). Plain data,
read by `clouds.healing` and the resolver's spot estimate."""

from __future__ import annotations

from dataclasses import dataclass

# What a lost node costs in time (`Cloud.healing`). No measured replace-and-rejoin time was
# collected for any cloud, so both figures are unsourced: [0.25 h] where a node group replaces
# the node (launch, boot, bootstrap, rendezvous, checkpoint load); [2 h] where nobody does (a
# person notices and runs `pulumi up`, then the job is restarted by hand).
GROUP_RESTART_HOURS = 0.25  # unsourced, see above
MANUAL_RESTART_HOURS = 2.0  # unsourced, see above


@dataclass(frozen=True)
class Healing:
    """A cloud's answer to a lost node (`clouds.healing`).

    Attributes:
        replaces_nodes: True when the cluster replaces a lost node by itself.
        runs_job: True when the component ships the node agent, so `job:` runs there.
        restart_hours: hours from an interruption to the job running again (unsourced).
        summary: one line for `resolve` notes and `plan` (a spot cluster's, or any purchase's
            where `on_demand_summary` is empty).
        on_demand_summary: the line for an on-demand cluster where the group does something
            else for it (Azure: no spot restore, only repairs); "" = `summary`.
        flex_start_summary: the line for a flex-start cluster (`flex_start: true`, GCP), whose
            group replaces nothing; "" = the cloud has no flex-start.
        no_job_types: instance-type prefixes whose nodes get no node agent, with the reason
            (`(("tpu-", "TPU slices get no node bootstrap"),)`).
        unreplaced_types: instance-type prefixes the cloud's node group does not hold, so
            their nodes get the manual answer (`clouds.healing.healing(provider, instance_type)`).
        queued: the answer for `unreplaced_types` nodes a stack requests as queued resources
            (`queued_resource: true`: a controller re-requests a lost one); None when the
            cloud has no such controller.
        per_node: `"module:function"` of `(instance_type, purchase, kms_key_id) -> str | None`:
            why a cluster's nodes stay per-node instances (its group cannot carry them), or
            None when the group holds them; the cloud's component asks the same function.
    """

    replaces_nodes: bool
    runs_job: bool
    restart_hours: float
    summary: str
    no_job_types: tuple[tuple[str, str], ...] = ()
    unreplaced_types: tuple[str, ...] = ()
    queued: Healing | None = None
    per_node: str | None = None
    on_demand_summary: str = ""
    flex_start_summary: str = ""


def manual_healing(cloud: str, could: str = "") -> Healing:
    """The answer where nothing replaces a lost node; `cloud` is the name users know, `could`
    names the cloud's auto-scaling service that might (docs/self-healing.md says what it would take)."""
    hint = f"; {could} could, not built yet (docs/self-healing.md)" if could else ""
    return Healing(
        False,
        False,
        MANUAL_RESTART_HOURS,
        f"nodes are not replaced automatically on {cloud}: after an interruption run `pulumi up` "
        f"and restart the job (manual restart, unsourced {MANUAL_RESTART_HOURS:g} h){hint}",
    )


def per_node_healing(cloud: str, reason: str) -> Healing:
    """The manual answer for a cluster whose nodes its cloud's group cannot hold; `reason`
    says why (`Healing.per_node`)."""
    manual = manual_healing(cloud)
    return Healing(
        False, False, manual.restart_hours, f"{manual.summary}; these nodes are per-node instances: {reason}"
    )
