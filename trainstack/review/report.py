"""`trainstack plan --markdown / --against`: the data a pull-request reviewer needs.

Both plans run under Pulumi's mocks: the working tree's, and (with `against`) the same
stack's at another git revision. The review holds every resource change, the cluster's
USD/hour and USD/job before and after, and every policy result on the proposed plan.
`review_json` is that data; `trainstack.review.markdown` renders it as a PR comment.
"""

from __future__ import annotations

import re
from dataclasses import asdict
from pathlib import Path
from typing import Any

from policies import evaluate
from policies.rules import STATEFUL
from policies.stack_rules import BUDGET_KEY, OVERSIZE_KEY, budget_limit, refuse_oversized
from trainstack.plan.runner import STACKS_DIR, PlanError, PlanResult, read_stack_config, run_plan
from trainstack.review.diff import Change, diff_plans, moved_region, summary
from trainstack.review.gitref import committed_at_head, plan_at_ref
from trainstack.review.in_use import refuse_in_use_deletes
from trainstack.review.job_lines import job_lines
from trainstack.review.node_effects import node_effect, removes_nodes
from trainstack.review.price_basis import delta_note
from trainstack.review.replacements import NODE_COUNTS


def build_review(stack: str, project_dir: Path, against: str | None = None) -> dict[str, Any]:
    """Plan `stack` now (and at `against`), diff the two and run every policy.

    Args:
        stack: the stack name (`stacks/Pulumi.<stack>.yaml`).
        project_dir: the Pulumi project directory.
        against: a git revision to compare with; None compares with an empty stack.

    Returns:
        The review as plain data (see `review_json`).

    Raises:
        PlanError: either plan fails, the revision is unknown, or the budget is not a number.
    """
    project_dir = Path(project_dir)
    after = run_plan(stack, project_dir)
    limit = stack_budget(project_dir / STACKS_DIR / f"Pulumi.{stack}.yaml")
    oversized = refused_sizes(project_dir / STACKS_DIR / f"Pulumi.{stack}.yaml", after)
    before = _plan_before(stack, project_dir, against) if against else None
    changes = diff_plans(before.resources if before else [], after.resources, stack)
    changes = refuse_in_use_deletes(before.resources if before else [], changes)
    changes = moved_region(changes, before.region if before else None, after.region)
    results = evaluate(after.resources, after.budget_usd_per_hour, limit, after.budget_basis, oversized)
    review = review_json(stack, against, changes, before, after, results, limit)
    # Without --against a committed stack is not new: say that nothing was compared.
    review["committed"] = against is None and committed_at_head(stack, project_dir)
    # The size warnings `plan` prints; refused ones are the budget policy's failure, said once.
    review["warnings"] = [] if oversized else size_warnings(project_dir / STACKS_DIR / f"Pulumi.{stack}.yaml", after)
    return review


def _plan_before(stack: str, project_dir: Path, against: str) -> PlanResult | None:
    """The stack's plan at `against`; for a stack renamed since (`pulumi stack rename`, its
    old names under `trainstack:previous_names`), the plan of its newest old name there, which
    `pulumi stack rename` carried over as this stack's state. None for a new stack."""
    before = plan_at_ref(stack, project_dir, against)
    if before is not None:
        return before
    config = read_stack_config(project_dir / STACKS_DIR / f"Pulumi.{stack}.yaml")
    for old in reversed(config.get("trainstack:previous_names") or []):
        before = plan_at_ref(str(old), project_dir, against)
        if before is not None:
            return before
    return None


def review_json(
    stack: str,
    against: str | None,
    changes: list[Change],
    before: PlanResult | None,
    after: PlanResult,
    results: list[Any],
    limit: float | None,
) -> dict[str, Any]:
    """The review as JSON-ready data.

    Returns:
        `{"stack", "against", "summary": {action: count}, "changes": [...] (no "same"; each
        with "nodes": what it does to running nodes, or None), "nodes": {"replaced": [names],
        "kept": [names], "removed": [names], "deleted": [names]} (node-holding resources whose
        change does / does not replace nodes; of the kept, those that shrink and terminate
        running nodes; node groups deleted with their nodes),
        "purchase": {"before", "after", "running_nodes_keep_it"} when the purchase option
        changes (`_purchase`), else None, "instance_type" the same for the instance type,
        "data_loss": [...], "cost": {"before", "after", "delta_usd_per_hour",
        "delta_usd_per_job", "delta_note" (why the deltas are None, `price_basis`, or "")},
        "budget_usd_per_hour", "policies": {"passed", "results"}}`;
        `build_review` adds "committed": True when, without `against`, the stack file is
        already committed (so the plan was compared with nothing, not with a new stack), and
        "warnings": the size warnings `plan` prints (none when the budget rule refuses them).
        Costs are USD/hour and USD per job (the planned hours); `before` is None for a new stack;
        a price or delta is None when a side's price is unknown.
    """
    cost_before, cost_after = _cost(before), _cost(after)
    unknown = delta_note(before, after, changes)
    return {
        "stack": stack,
        "against": against,
        "summary": summary(changes),
        "changes": [_change_json(c) for c in changes if c.action != "same"],
        "nodes": _nodes(changes),
        "purchase": _purchase(before, after, _nodes(changes)),
        "instance_type": _instance_type(before, after, _nodes(changes)),
        "job": job_lines(before, after, changes),
        "runtime": after.runtime,
        "left_running": _left_running(before, after),
        "kept_as_before": _kept_as_before(before, after),
        "data_loss": [
            c.name for c in changes if c.action in ("replace", "delete") and (c.type in STATEFUL or c.protect)
        ],
        "cost": {
            "before": cost_before,
            "after": cost_after,
            "delta_usd_per_hour": None if unknown else _delta(cost_before, cost_after, "usd_per_hour", 4),
            "delta_usd_per_job": None if unknown else _delta(cost_before, cost_after, "usd_per_job", 2),
            "delta_note": unknown,
        },
        "budget_usd_per_hour": limit,
        "policies": _policies(results),
    }


def _holds_nodes(change: Change) -> bool:
    """A node group (a type with a node count), or one node instance (`<stack>-node-<i>`, where
    a component makes one instance per node, as Baidu's does)."""
    return change.type in NODE_COUNTS or re.search(r"-node-\d+$", change.name) is not None


def _left_running(before: PlanResult | None, after: PlanResult) -> dict[str, Any] | None:
    """What the old revision's controller kept requested outside the Pulumi state and the new
    one no longer does (GCP TPU slices of a smaller queued-resource stack, or all of them when
    the stack moves to another zone: the new controller requests its ids there): `{"ids",
    "zone"}`, or None. Neither the new controller nor `pulumi up` deletes them: they keep running."""
    if before is None:
        return None
    kept = set(after.requested_outside) if after.zone == before.zone else set()
    ids = [i for i in before.requested_outside if i not in kept]
    return {"ids": ids, "zone": before.zone} if ids else None


def _kept_as_before(before: PlanResult | None, after: PlanResult) -> dict[str, Any] | None:
    """The slices both sides request, in the same zone, whose request changes (type, purchase
    option, reservation): `{"ids", "zone", "before", "after"}`, or None. The controller keeps a
    running (ACTIVE) queued resource as it is (`nodeagent.gcp_queued.action`), so they run as
    `before` until a preemption or failure re-creates them, or they are deleted."""
    if before is None or before.zone != after.zone or before.requested_spec == after.requested_spec:
        return None
    ids = [i for i in before.requested_outside if i in set(after.requested_outside)]
    if not ids or not before.requested_spec or not after.requested_spec:
        return None
    return {"ids": ids, "zone": before.zone, "before": before.requested_spec, "after": after.requested_spec}


def _change_json(change: Change) -> dict[str, Any]:
    effect = node_effect(change)
    return {**asdict(change), "nodes": effect[1] if effect else None}


def _nodes(changes: list[Change]) -> dict[str, list[str]]:
    """Node-holding resources whose change replaces running nodes, those whose does not, of
    those the ones that shrink (they terminate running nodes without replacing any), and the
    node groups deleted with their nodes."""
    effects = [(c.name, node_effect(c)) for c in changes]
    return {
        "replaced": [name for name, effect in effects if effect and effect[0]],
        "kept": [name for name, effect in effects if effect and not effect[0]],
        "removed": [c.name for c in changes if removes_nodes(c)],
        "deleted": [c.name for c in changes if c.action == "delete" and _holds_nodes(c)],
    }


def _purchase(before: PlanResult | None, after: PlanResult, nodes: dict[str, list[str]]) -> dict[str, Any] | None:
    """A purchase-option change and whether it reaches the running nodes, or None when the
    option is unchanged (or a side does not say it).

    The nodes follow the cloud's node effects (`clouds/<cloud>/replacements.yaml`): where the
    change replaces a node group's running nodes (AWS's instance refresh, Azure's recreated
    scale set) they come back with the new option; where it only changes what new nodes get
    (GCP's template, the Chinese clouds' scaling configurations), the running ones keep theirs.
    """
    return _node_model(before.purchase if before is not None else None, after.purchase, nodes)


def _instance_type(before: PlanResult | None, after: PlanResult, nodes: dict[str, list[str]]) -> dict[str, Any] | None:
    """An instance-type change and whether it reaches the running nodes (as `_purchase`)."""
    return _node_model(before.instance_type if before is not None else None, after.instance_type, nodes)


def _node_model(old: str | None, new: str | None, nodes: dict[str, list[str]]) -> dict[str, Any] | None:
    if old is None or new is None or old == new:
        return None
    kept = bool(nodes["kept"]) and not nodes["replaced"]
    return {"before": old, "after": new, "running_nodes_keep_it": kept}


def _policies(results: list[Any]) -> dict[str, Any]:
    return {"passed": all(r.passed for r in results), "results": [r.as_json() for r in results]}


def _delta(before: dict | None, after: dict | None, key: str, digits: int) -> float | None:
    if after is None:
        return None
    old = 0.0 if before is None else before[key]
    return None if old is None or after[key] is None else round(after[key] - old, digits)


def _cost(plan: PlanResult | None) -> dict[str, Any] | None:
    if plan is None:
        return None
    storage = plan.usd_storage or 0.0
    hours = plan.hours
    if hours is None:  # a PlanResult built without its hours: derive them from its costs
        hours = plan.usd_total / plan.usd_per_hour if plan.usd_per_hour and plan.usd_total else 0.0
    return {
        "usd_per_hour": None if plan.usd_per_hour is None else round(plan.usd_per_hour, 4),
        "usd_compute_per_hour": None if plan.usd_compute_per_hour is None else round(plan.usd_compute_per_hour, 4),
        "usd_requests": None if plan.usd_requests is None else round(plan.usd_requests, 2),
        "usd_per_job": None if plan.usd_per_hour is None or plan.usd_total is None else round(plan.usd_total, 2),
        "hours": round(hours, 4),
        "usd_storage": None if plan.usd_storage is None else round(storage, 2),
        "price_note": plan.price_note,
        "price_caveats": list(plan.price_caveats),
        "deadline_hours": plan.deadline_hours,
        "deadline_note": plan.deadline_note,
    }


def stack_budget(stack_file: Path) -> float | None:
    """The stack's `trainstack:max_usd_per_hour`, USD/hour, or None when unset."""
    try:
        return budget_limit(read_stack_config(stack_file).get(BUDGET_KEY))
    except ValueError as exc:
        raise PlanError(f"{stack_file}: {exc}") from None


def refuses_oversized(stack_file: Path) -> bool:
    """The stack's `trainstack:refuse_oversized` (False when unset).

    Raises:
        PlanError: the value is not true or false (one line naming the file and the key).
    """
    try:
        return refuse_oversized(read_stack_config(stack_file).get(OVERSIZE_KEY))
    except ValueError as exc:
        raise PlanError(f"{stack_file}: {exc}") from None


def size_warnings(stack_file: Path, result: PlanResult) -> list[str]:
    """The planned stack's size warnings (`profiles.cost.sanity.stack_warnings`, priced as the plan is)."""
    from profiles.cost.sanity import stack_warnings
    from profiles.stack.file import read_cluster

    cluster = read_cluster(stack_file)[1]  # validated by the plan
    return stack_warnings(cluster, result.usd_compute_per_hour, result.usd_storage, stack_budget(stack_file))


def refused_sizes(stack_file: Path, result: PlanResult) -> list[str] | None:
    """The size warnings the budget rule refuses (`policies.evaluate`'s `oversized`): the
    stack's, when it sets `trainstack:refuse_oversized: true`; None when it does not."""
    return size_warnings(stack_file, result) if refuses_oversized(stack_file) else None
