"""What to change when nothing fits: the "to meet it" of a deadline no row meets
(`what_would_meet`), and the "to fix" of a workload whose `jurisdiction: cn-mainland` removed
the last candidates (`jurisdiction_fix`).

`jurisdiction_fix` answers from what the workload actually set: never "add a cloud to `providers`" when every cloud is
allowed, and never "set `jurisdiction: any`" (the one change data that must stay in mainland
China must not take).

In order: `regions` all outside mainland China; a `data.source` only clouds without a
mainland region can link; `providers` without a cloud that has mainland regions; else the
catalog lists no mainland offering for the rest of the workload.
"""

from __future__ import annotations

from collections.abc import Sequence

from clouds.data import link_for
from clouds.regions import in_mainland_china
from clouds.registry import CLOUDS
from profiles.candidate import Candidate
from profiles.catalog.offering import Offering
from profiles.cost.estimate import JobHours, job_hours
from profiles.costing import candidates
from profiles.spec import AUTO_MAX_NODES, WorkloadSpec

# `what_would_meet` tries node counts up to this.
MAX_SUGGESTED_NODES = 1024


def jurisdiction_fix(spec: WorkloadSpec, offerings: Sequence[Offering]) -> str:
    """The fix for a no-match the `jurisdiction` constraint explains (see module docstring).

    Args:
        spec: the workload (`jurisdiction: cn-mainland`).
        offerings: the loaded catalog (of the allowed clouds).
    """
    mainland = [o for o in offerings if in_mainland_china(o.provider, o.region)]
    examples = sorted({o.region for o in mainland})[:2]
    such_as = f" such as {', '.join(examples)}" if examples else ""
    if spec.regions and not any(in_mainland_china(name, r) for name in CLOUDS for r in spec.regions):
        return (
            f"`regions` ({', '.join(spec.regions)}) lie outside mainland China, where `jurisdiction: cn-mainland` "
            f"keeps the data; list mainland regions{such_as}, or remove `regions`"
        )
    if not mainland and spec.providers:
        others = [n for n, c in CLOUDS.items() if c.mainland is not None and n not in spec.providers]
        return f"add a cloud with mainland-China regions ({', '.join(others)}) to `providers`"
    links = [(name, link_for(name)) for name in sorted({o.provider for o in mainland})]
    if spec.data is not None and not any(link is not None and link.owns(spec.data.source) for _, link in links):
        kinds = " or ".join(f"{link.SOURCE_KIND} ({name})" for name, link in links if link is not None)
        return (
            f"data.source: no cloud with mainland-China regions can link '{spec.data.source}'; copy the data "
            f"to {kinds or 'a bucket in mainland China'} in the cluster's region and point data.source there"
        )
    return (
        "no mainland-China offering meets the rest of the workload: relax `accelerators`, nodes or "
        "`interconnect` (the nearest offerings above)"
    )


def what_would_meet(spec: WorkloadSpec, best: Candidate) -> str:
    """What would meet the deadline the rows miss: more nodes of the best row's offering
    (the fewest that do, up to `MAX_SUGGESTED_NODES`), else faster accelerators or regions.

    The node setting offered is one the workload does not already have: a range or `nodes:
    auto` is widened to the count (auto stops at `AUTO_MAX_NODES`, and says so), and `nodes:
    auto` is offered only when it would reach the count. When `interconnect: rdma` is what
    keeps the row to one node (its offering has no RDMA fabric), it says so and what the
    same offering would do without it.

    With `hours` given the run time is the same on every offering and node count, so neither
    can help: it says what fixes the miss instead (see `_fixed_hours_advice`)."""
    assert spec.deadline_hours is not None
    if spec.work is None:
        return _fixed_hours_advice(spec, best)
    o = best.offering
    if spec.interconnect == "rdma" and not o.rdma:
        return _rdma_advice(spec, best)
    found = _fewest_that_meet(spec, best)
    if found is not None:
        nodes, c = found
        return (
            f"to meet it: {nodes} nodes of {o.instance_type} {c.purchase} finish in {c.hours:,.1f} h "
            f"for ${c.usd_total:,.2f} ({_nodes_fix(spec, nodes)})"
        )
    return (
        f"to meet it: no node count up to {MAX_SUGGESTED_NODES} of {o.instance_type} does; allow faster "
        "accelerators or other regions, or relax the deadline"
    )


def _fewest_that_meet(spec: WorkloadSpec, best: Candidate) -> tuple[int, Candidate] | None:
    """The fewest nodes above the best row's of its offering whose job meets the deadline, with its row."""
    assert spec.deadline_hours is not None
    o = best.offering
    tried = {n for n in (*range(best.nodes + 1, best.nodes + 33), *(2**k for k in range(14)))}
    for nodes in sorted(n for n in tried if best.nodes < n <= MAX_SUGGESTED_NODES):
        estimate = job_hours(spec, o, nodes)
        if isinstance(estimate, JobHours):
            rows = [c for c in candidates(spec, o, estimate, nodes) if c.purchase == best.purchase]
            if rows and rows[0].hours <= spec.deadline_hours:
                return nodes, rows[0]
    return None


def _nodes_fix(spec: WorkloadSpec, nodes: int, also: str = "") -> str:
    """What to set so the resolver may take `nodes`, in the workload's own words (`also`:
    another setting to name first, `interconnect: none`)."""
    first = f"set {also} and " if also else "set "
    if spec.max_nodes is None:  # a fixed count
        auto = " or `nodes: auto`" if nodes <= AUTO_MAX_NODES else ""
        return f"{first}`nodes: {spec.nodes}-{nodes}`{auto}"
    if spec.max_nodes >= nodes:  # the range already holds it
        return f"set {also}" if also else f"set `nodes: {nodes}`"
    if spec.nodes == 1 and spec.max_nodes == AUTO_MAX_NODES:
        return f"`nodes: auto` stops at {AUTO_MAX_NODES} nodes; {first}`nodes: 1-{nodes}`"
    return f"{first}`nodes: {spec.nodes}-{nodes}` (the range stops at {spec.max_nodes})"


def _rdma_advice(spec: WorkloadSpec, best: Candidate) -> str:
    """`interconnect: rdma` keeps the best row's offering (no RDMA fabric) to one node: say so,
    and what more nodes of it would do without RDMA (the node-to-node traffic then goes over
    its Ethernet, which the speed model prices)."""
    o = best.offering
    why = f"to meet it: {o.instance_type} has no RDMA fabric, so `interconnect: rdma` keeps it to one node"
    found = _fewest_that_meet(spec._replace(interconnect="none"), best)
    if found is None:
        return (
            f"{why}, and no node count up to {MAX_SUGGESTED_NODES} meets the deadline even without RDMA; "
            "allow faster accelerators or other regions, or relax the deadline"
        )
    nodes, c = found
    return (
        f"{why}; without it {nodes} nodes finish in {c.hours:,.1f} h for ${c.usd_total:,.2f} "
        f"({_nodes_fix(spec, nodes, '`interconnect: none`')}); or allow accelerators or regions with an RDMA "
        "fabric, or relax the deadline"
    )


def _fixed_hours_advice(spec: WorkloadSpec, best: Candidate) -> str:
    """Why more nodes or faster accelerators cannot meet the deadline of a spec that gives its
    `hours`, and what can: the work instead of the hours, or a later deadline; when only what
    the row adds (spot interruptions, data staging) pushes it over, the purchase or checkpoints."""
    assert spec.hours is not None and spec.deadline_hours is not None
    given = f"`hours: {spec.hours:g}` fixes the run time on every offering and node count"
    if spec.hours > spec.deadline_hours:
        return (
            f"the {spec.deadline_hours:g} h deadline cannot be met: {given}, so more nodes or faster "
            "accelerators cannot shorten it; give the work instead (`work: {gpu_hours: N, reference: A100-80GB}` "
            f"or `work: {{params: P, tokens: T}}`) so the hours follow per offering, or set `deadline` to at least "
            f"{spec.hours:g} h"
        )
    added = best.hours - spec.hours
    return (
        f"to meet it: {given} and fits the {spec.deadline_hours:g} h deadline, but this row adds {added:,.2f} h "
        "(spot interruptions, data staging); allow on-demand (`purchase: any`), checkpoint more often "
        "(`spot.checkpoint_interval`), or relax the deadline"
    )
