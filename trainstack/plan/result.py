"""What a plan found (`PlanResult`) and how it fails (`PlanError`): plain data, no Pulumi import,
so the review and the CLI's output can read a plan without loading the runner's engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class PlanError(ValueError):
    """The plan could not run; the message is one line naming the file/field and the fix."""


@dataclass(frozen=True)
class PlanResult:
    """What `pulumi up` would create, as seen through the mocks.

    Attributes:
        resources: one dict per resource (`type`, `name`, `parent` logical name or None,
            `protect`, wire-format `inputs`), sorted by (parent, type, name).
        usd_per_hour: everything the cluster costs per hour of the run as configured, USD/hour:
            compute + file system + the bucket's request charges spread over the hours
            (priced from the catalog; see `profiles.cost.cluster_cost`); None when unknown.
        usd_total: the job's cost, USD: compute and file system for the planned hours plus
            the bucket's request charges, each where its price is known; None when unknown.
        outputs: the stack exports, resolved (names from `OUTPUT_NAMES`).
        usd_storage: the storage part of `usd_total`, USD; None when unknown or none.
        recorded_usd_per_hour: the price the stack file records, USD/hour.
        price_note: "" when the recorded price is current; else what differs and why.
        price_caveats: what the price leaves out or may get wrong (see `StackPrice.caveats`).
        hours: the planned run time, hours (None when the result was built without it).
        price_verified: False when `usd_per_hour` is only the stack file's own number.
        price_recorded: True when the compute price is the stack file's own figure: not in the
            catalog (`price_verified` False) or held capacity, which the catalog has no price for.
        region: the cluster's region (None when the result was built without it).
        provider: the cluster's cloud (`aws`; None when the result was built without it).
        deadline_hours: the workload's deadline the stack carries, hours, or None.
        usd_compute_per_hour: the nodes' part of `usd_per_hour`, USD/hour, or None.
        usd_requests: the bucket-request part of `usd_total`, USD; None when not counted.
        cost_text: the hourly and per-job figures stated part by part (`ClusterCost.hourly_text`,
            `job_text`), or () when unpriced.
        healing: what the cluster does when a node is lost (`clouds.healing`), one line; ""
            when the result was built without a cluster.
        purchase: the stack's purchase option (`spot`, `on-demand`); None when the result
            was built without a cluster.
        uncommitted_usd_per_hour: a commitment stack's whole price per hour without the
            commitment it assumes (nodes on-demand), USD/hour; None otherwise.
        runtime: which torch, NCCL and fabric plugin the nodes run (`clouds.job_runtime`), one
            line; "" for a cloud without a node agent.
        job: the stack's job as the review compares it: `{"id": the digest of what the job
            runs (`clouds.job_bootstrap.job_identity`), "nodes", "min_nodes", "platform"}`;
            None without a job.
        requested_outside: the ids of what the stack's own controller keeps requested outside
            the Pulumi state (a GCP queued-resource stack's TPU slices), which `pulumi up`
            never deletes (`trainstack.plan.cluster_lines.requested_outside`).
        requested_spec: what each of those is requested as (`tpu-v5p-32 spot`; "" when none:
            `trainstack.plan.cluster_lines.requested_spec`).
        zone: the cluster's zone (None when the result was built without it).
        instance_type: the nodes' instance type (None when the result was built without it).
        program_warnings: what the program warned of while it ran (`pulumi.log.warn`: an
            Alibaba group that joins no deployment set, nodes not replaced automatically),
            which `pulumi preview` shows as warnings.
    """

    resources: list[dict[str, Any]]
    usd_per_hour: float | None
    usd_total: float | None
    outputs: dict[str, Any]
    usd_storage: float | None = None
    recorded_usd_per_hour: float | None = None
    price_note: str = ""
    price_caveats: tuple[str, ...] = ()
    hours: float | None = None
    price_verified: bool = True
    price_recorded: bool = False
    region: str | None = None
    deadline_hours: float | None = None
    usd_compute_per_hour: float | None = None
    usd_requests: float | None = None
    cost_text: tuple[str, ...] = ()
    healing: str = ""
    provider: str | None = None
    purchase: str | None = None
    uncommitted_usd_per_hour: float | None = None
    runtime: str = ""
    job: dict[str, Any] | None = None
    requested_outside: tuple[str, ...] = ()
    requested_spec: str = ""
    zone: str | None = None
    instance_type: str | None = None
    program_warnings: tuple[str, ...] = ()

    @property
    def deadline_note(self) -> str:
        """`the planned 714.5 h miss the 504 h deadline by 210.5 h` when it misses, else ""."""
        if self.deadline_hours is None or self.hours is None or self.hours <= self.deadline_hours:
            return ""
        return (
            f"the planned {self.hours:,.1f} h miss the {self.deadline_hours:g} h deadline by "
            f"{self.hours - self.deadline_hours:,.1f} h"
        )

    @property
    def budget_usd_per_hour(self) -> float | None:
        """The price the budget policy checks: None when only the stack file states it."""
        if not self.price_verified:
            return None
        return self.uncommitted_usd_per_hour or self.usd_per_hour

    @property
    def budget_basis(self) -> str:
        """How `budget_usd_per_hour` was reached when it is not the stack's own rate, or ""."""
        if self.uncommitted_usd_per_hour is None or not self.price_verified:
            return ""
        return "its nodes billed on-demand: the stack buys no commitment, so its rate is not relied on"
