"""GCP Dynamic Workload Scheduler, flex-start: the nodes come from one MIG resize request.

What Google documents (Compute Engine, "About resize requests in a MIG" and "About Flex-start
VMs"; pulumi-gcp `compute.ResizeRequest`, as installed):
- A resize request creates its VMs all at once when the capacity is there, and the request
  persists until then (state ACCEPTED); Google gives no maximum wait for a MIG resize request
  (a single flex-start VM through the instance API waits at most 2 hours: Google Cloud blog,
  "Introducing Flex-start VMs", 2025-09-25). `pulumi up` does not wait for the VMs.
- `requestedRunDuration` is 10 minutes to 7 days (600 to 604,800 s); at its end Compute Engine
  deletes the VMs. Flex-start VMs cannot be stopped or suspended and run at most 7 days.
- Flex-start bills vCPUs, memory and GPUs "up to 53%" below on-demand on its own SKUs ("DWS
  Defined Duration"). Where a source gives those SKUs' rates (`facts.gcp_flex_start`: A2 High
  and Mega, A3 High, in the Americas) trainstack prices the nodes from them (`flex_price`);
  elsewhere at the on-demand rate: an upper bound (the true price lies between 47 % of it and it).
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
from facts.gcp_flex_start import AMERICAS, FLEX_RATES, FlexRates

# requestedRunDuration bounds, seconds (pulumi-gcp ResizeRequestRequestedRunDuration).
MIN_RUN_SECONDS, MAX_RUN_SECONDS = 600, 604_800
# Flex-start's largest discount off on-demand (Google: "a discount up to 53%").
MAX_DISCOUNT = 0.53
# The run asked for is the planned hours plus this share (a choice): VMs are deleted at its end.
RUN_MARGIN = 0.25
NOT_FLEX = ("a4x-", "g4-")
# The longest run a flex-start request takes, hours: 7 days less `RUN_MARGIN` (134.4 h).
MAX_RUN_HOURS = MAX_RUN_SECONDS / 3600 / (1 + RUN_MARGIN)
# What the hours of a flex-start row leave out (no source gives a typical wait).
WAIT_NOT_COUNTED = (
    "the wait for capacity is not in the hours: the resize request waits until every VM can be created, "
    "and Google gives no typical or maximum wait for it"
)


def flex_eligible(instance_type: str) -> bool:
    """Whether Google offers flex-start for `instance_type`: accelerator-optimized GPU machine
    types but A4X and G4 (TPU slices have their own queued resources)."""
    return (
        not instance_type.startswith("tpu-")
        and is_accelerator_optimized(instance_type)
        and not instance_type.startswith(NOT_FLEX)
    )


def fits(hours: float) -> bool:
    """Whether a run of `hours` (plus `RUN_MARGIN`) fits one flex-start request's 7 days."""
    return hours <= MAX_RUN_HOURS


def flex_rates(instance_type: str, region: str) -> FlexRates | None:
    """The sourced flex-start SKU rates of `instance_type` in `region` (`facts.gcp_flex_start`), or None."""
    if not region.startswith(AMERICAS):
        return None
    return next((r for prefix, r in FLEX_RATES.items() if instance_type.startswith(prefix)), None)


def flex_price(
    instance_type: str, region: str, gpus: int, vcpus: float | None, memory_gib: float | None, on_demand: float | None
) -> tuple[float, str] | None:
    """One flex-start node's price, USD/hour, and the row's note; None where Google offers no
    flex-start for the type (`flex_eligible`) or the catalog has no on-demand price.

    The price is the family's "DWS Defined Duration" SKUs (GPUs + vCPUs + memory + bundled local
    SSD, `facts.gcp_flex_start` F1/F2, Americas regions) where a source gives them, else the
    on-demand price, an upper bound (Google: "up to 53%" less).
    """
    if on_demand is None or not flex_eligible(instance_type):
        return None
    rates = flex_rates(instance_type, region)
    if rates is None or vcpus is None or memory_gib is None:
        return on_demand, (
            f"flex-start: priced at on-demand, an upper bound: no flex-start SKU price is sourced for "
            f"{instance_type} in {region} (Google bills it up to {MAX_DISCOUNT:.0%} less); {WAIT_NOT_COUNTED}"
        )
    ssd = gpus * rates.ssd_gib_per_gpu * rates.local_ssd
    usd = gpus * rates.gpu + vcpus * rates.vcpu + memory_gib * rates.memory + ssd
    return usd, (
        f"flex-start: ${usd:,.2f}/h per node from Compute Engine's DWS Defined Duration SKUs (GPU, vCPU, memory"
        f'{", local SSD" if ssd else ""}; priced "in Americas", applied to every Americas region: an assumption; '
        f"source facts.gcp_flex_start {rates.source}, observed {rates.observed}), "
        f"{discount_note(usd, on_demand)}; runs at most 7 days; {WAIT_NOT_COUNTED}"
    )


def discount_note(flex_usd: float, on_demand: float) -> str:
    """How far `flex_usd` (USD/hour) lies below `on_demand` (USD/hour, the catalog's price),
    named as computed against the catalog; past Google's stated maximum (`MAX_DISCOUNT`, "up
    to 53%") the gap is flagged, not stated as fact: the catalog's on-demand or the SKU price
    may be off (different dates or sources)."""
    discount = 1 - flex_usd / on_demand
    note = f"{discount:.0%} below the catalog's on-demand ${on_demand:,.2f}/h (computed against the catalog)"
    if round(discount, 2) > MAX_DISCOUNT:
        note += (
            f", more than Google's stated maximum of {MAX_DISCOUNT:.0%}: the catalog's on-demand price or the "
            "flex-start SKU price may be off"
        )
    return note


def run_seconds(hours: float) -> int:
    """The resize request's run duration for a run of `hours`: the hours plus `RUN_MARGIN`,
    within Google's 600..604,800 s."""
    return max(MIN_RUN_SECONDS, min(MAX_RUN_SECONDS, math.ceil(hours * (1 + RUN_MARGIN) * 3600)))


def flex_row(
    instance_type: str,
    region: str,
    gpus: int,
    vcpus: float | None,
    memory_gib: float | None,
    on_demand: float | None,
    hours: float,
) -> tuple[float, str] | str | None:
    """`flex_price` for a run of `hours`; the reason it is not offered when the run is longer
    than one request runs (`fits`); None where Google offers no flex-start for the type."""
    priced = flex_price(instance_type, region, gpus, vcpus, memory_gib, on_demand)
    if priced is None or fits(hours):
        return priced
    return (
        f"flex-start not offered: a flex-start VM runs at most 7 days and this run takes {hours:,.1f} h "
        f"(at most {MAX_RUN_HOURS:g} h with the request's {RUN_MARGIN:.0%} margin); split the job at checkpoints"
    )


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
    if config.instance_type.startswith(NOT_FLEX):
        return f"flex_start: Google offers no flex-start for {config.instance_type} (A4X and G4)"
    if not flex_eligible(config.instance_type):
        return f"flex_start: {config.instance_type} is not an accelerator-optimized GPU machine type"
    if not fits(config.hours):
        return (
            f"flex_start: a flex-start VM runs at most 7 days (168 h) and the run asks {config.hours:g} h "
            f"plus {RUN_MARGIN:.0%}; split the job or remove flex_start"
        )
    for field in ("fallback_types", "reservation"):
        if getattr(config, field):
            return f"flex_start: the resize request creates one machine type without a reservation; remove {field}"
    return None


def flex_caveat(config: Any) -> str:
    """The price line of a flex-start stack (`config`: instance_type, region, hours)."""
    rates = flex_rates(config.instance_type, config.region)
    priced = (
        f"priced from Compute Engine's DWS Defined Duration SKUs (source facts.gcp_flex_start {rates.source}, observed {rates.observed})"
        if rates
        else f"priced at on-demand, an upper bound (Google bills it up to {MAX_DISCOUNT:.0%} less; no per-SKU price "
        f"is sourced for {config.instance_type} in {config.region})"
    )
    return f"flex-start: {priced}; the resize request asks {run_seconds(config.hours) / 3600:g} h; {WAIT_NOT_COUNTED}"
