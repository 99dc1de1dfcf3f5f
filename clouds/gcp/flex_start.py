"""GCP Dynamic Workload Scheduler, flex-start: the nodes come from one MIG resize request.

What Google documents (Compute Engine, "About resize requests in a MIG" and "About Flex-start
VMs"; pulumi-gcp `compute.ResizeRequest`, as installed):
- A resize request creates its VMs all at once when the capacity is there, and the request
  persists until then (state ACCEPTED); Google gives no maximum wait for a MIG resize request
  (a single flex-start VM through the instance API waits at most 2 hours: Google Cloud blog,
  "Introducing Flex-start VMs", 2025-09-25). `pulumi up` does not wait for the VMs.
- `requestedRunDuration` is 10 minutes to 7 days (600 to 604,800 s); at its end Compute Engine
  deletes the VMs. Flex-start VMs cannot be stopped or suspended and run at most 7 days.
- Flex-start bills vCPUs, memory and GPUs "up to 53%" below on-demand, by machine type; no
  per-SKU flex-start price is sourced here, so trainstack prices the nodes at the on-demand
  rate: an upper bound (the true price lies between 47 % of it and it).
- Supported on every accelerator-optimized machine type but A4X and G4; the template takes
  provisioning model FLEX_START, no automatic restart, TERMINATE on host maintenance, DELETE at
  the end (the pulumi-gcp resize request example), and the group DO_NOTHING on failure.
- VMs created by one MIG resize request are densely co-located without a placement policy
  (shared/reference-facts interconnect.md, G6): the template takes no compact placement policy.
"""

from __future__ import annotations

import math
from typing import Any

from clouds.gcp.machine import is_accelerator_optimized

# requestedRunDuration bounds, seconds (pulumi-gcp ResizeRequestRequestedRunDuration).
MIN_RUN_SECONDS, MAX_RUN_SECONDS = 600, 604_800
# Flex-start's largest discount off on-demand (Google: "a discount up to 53%").
MAX_DISCOUNT = 0.53
# The run asked for is the planned hours plus this share (a choice): VMs are deleted at its end.
RUN_MARGIN = 0.25
NOT_FLEX = ("a4x-", "g4-")


def run_seconds(hours: float) -> int:
    """The resize request's run duration for a run of `hours`: the hours plus `RUN_MARGIN`,
    within Google's 600..604,800 s."""
    return max(MIN_RUN_SECONDS, min(MAX_RUN_SECONDS, math.ceil(hours * (1 + RUN_MARGIN) * 3600)))


def flex_scheduling(hours: float) -> dict[str, Any]:
    """The node template's `scheduling` for flex-start VMs that run `run_seconds(hours)`."""
    return {
        "provisioning_model": "FLEX_START",
        "automatic_restart": False,
        "on_host_maintenance": "TERMINATE",
        "instance_termination_action": "DELETE",
        "max_run_duration": {"seconds": run_seconds(hours)},
    }


def flex_start_problem(config: Any) -> str | None:
    """Why the stack's nodes cannot come from a flex-start resize request, or None."""
    if config.purchase != "on-demand":
        return "flex_start: flex-start VMs are their own provisioning model, never spot; set purchase: on-demand"
    if config.instance_type.startswith("tpu-") or not is_accelerator_optimized(config.instance_type):
        return f"flex_start: {config.instance_type} is not an accelerator-optimized GPU machine type"
    if config.instance_type.startswith(NOT_FLEX):
        return f"flex_start: Google offers no flex-start for {config.instance_type} (A4X and G4)"
    if config.hours * (1 + RUN_MARGIN) * 3600 > MAX_RUN_SECONDS:
        return (
            f"flex_start: a flex-start VM runs at most 7 days (168 h) and the run asks {config.hours:g} h "
            f"plus {RUN_MARGIN:.0%}; split the job or remove flex_start"
        )
    for field in ("fallback_types", "reservation"):
        if getattr(config, field):
            return f"flex_start: the resize request creates one machine type without a reservation; remove {field}"
    return None


def flex_caveat(hours: float) -> str:
    """The price line of a flex-start stack."""
    return (
        f"flex-start: priced at on-demand, an upper bound (Google bills it up to {MAX_DISCOUNT:.0%} less; "
        f"no per-SKU price is sourced); the resize request asks {run_seconds(hours) / 3600:g} h and waits for "
        "capacity with no documented limit"
    )
