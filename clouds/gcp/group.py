"""The GCP node group as plain data: a zonal managed instance group (MIG) that recreates lost VMs.

Sources (Compute Engine documentation, not in shared/reference-facts):
  M1  "About repairing VMs in a MIG": a MIG keeps its target size; "if a VM fails or is
      deleted by an action not initiated by the MIG, then the MIG automatically repairs the
      failed VM" by recreating it; autohealing additionally recreates VMs that fail an
      application health check, after `initial_delay_sec` (0-3600 s, pulumi-gcp).
  M2  pulumi-gcp `InstanceGroupManager.update_policy`: `OPPORTUNISTIC` means "no action is
      proactively executed but the update will be performed as part of other actions (for
      example, resizes or recreateInstances calls)"; `replacement_method` `RECREATE` keeps
      instance names and needs `max_unavailable` > 0.
  M3  pulumi-gcp `instance_lifecycle_policy.force_update_on_repair`: `YES` applies the
      group's latest template when a VM is repaired.
  M4  Compute Engine "Health checks overview", probe source ranges 35.191.0.0/16 and
      130.211.0.0/22 (the firewall must admit them).
  G6  (shared/reference-facts/interconnect.md) compact placement policies; a policy applies
      through the template to the VMs of one zone.

Rules: spot VMs are DELETEd on preemption (not STOPped), so the group sees a VM deleted by
an action it did not initiate and recreates it (M1) with the group's current template (M3).
The group is zonal: a compact placement policy places VMs of one zone, the GPUDirect
subnets and the zonal file system sit in the cluster's one zone, and traffic between zones
is billed; a regional group would spread nodes across zones. A template change updates the
group's version only: with an OPPORTUNISTIC policy no running VM is recreated (M2); only an
explicit rollout (`gcloud compute instance-groups managed rolling-action replace`) or a
repair uses the new template. The auto-healing health check is TCP to sshd (port 22, as
Azure's scale set probes), admitted only from Google's probe ranges (M4).
"""

from __future__ import annotations

from typing import Any

# Seconds before autohealing judges a new VM (M1 allows 0-3600): the Deep Learning VM image
# installs the NVIDIA driver on first boot and the bootstrap installs the file-system client
# (a choice, not a measured figure).
AUTOHEAL_DELAY_SECONDS = 900
HEALTH_PORT = 22
# Health-check probe source ranges (M4).
HEALTH_CHECK_RANGES = ("35.191.0.0/16", "130.211.0.0/22")
HEALTH_CHECK = {"check_interval_sec": 30, "timeout_sec": 10, "healthy_threshold": 1, "unhealthy_threshold": 4}
# Spot VMs of a group are deleted on preemption, so the group recreates them (M1).
GROUP_TERMINATION_ACTION = "DELETE"


def update_policy(nodes: int) -> dict[str, Any]:
    """`update_policy` of the group: a new template never touches running VMs (M2).

    OPPORTUNISTIC: nothing proactive. An explicit rollout replaces every VM at once (all
    unavailable, none extra: the job restarts once from its checkpoint, as the AWS instance
    refresh does), keeping instance names (RECREATE).

    Args:
        nodes: the group's size.
    """
    return {
        "type": "OPPORTUNISTIC",
        "minimal_action": "REPLACE",
        "most_disruptive_allowed_action": "REPLACE",
        "replacement_method": "RECREATE",
        "max_surge_fixed": 0,
        "max_unavailable_fixed": nodes,
    }


def lifecycle_policy() -> dict[str, Any]:
    """`instance_lifecycle_policy`: repair failed VMs, with the group's latest template (M1, M3)."""
    return {"default_action_on_failure": "REPAIR", "force_update_on_repair": "YES"}


def group_scheduling(scheduling: dict[str, Any]) -> dict[str, Any]:
    """A per-VM `scheduling` (`machine.scheduling`) made fit for a group: spot VMs are
    deleted on preemption so the group recreates them (M1); on-demand is unchanged."""
    if scheduling.get("provisioning_model") != "SPOT":
        return dict(scheduling)
    return {**scheduling, "instance_termination_action": GROUP_TERMINATION_ACTION}
