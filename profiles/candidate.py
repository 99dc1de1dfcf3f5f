"""A candidate: one offering bought one way for the whole cluster, with the job's cost."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from profiles.catalog.offering import Offering

# At equal cost: capacity already held, then reserved and on-demand (no interruptions), then
# flex-start (no interruptions, but it waits for capacity), then spot.
PURCHASE_RANK = {
    "reservation": 0,
    "capacity-block": 0,
    "reserved-3y": 1,
    "reserved-1y": 2,
    "on-demand": 3,
    "flex-start": 4,
    "spot": 5,
}


@dataclass(frozen=True, slots=True)
class Candidate:
    """One offering bought one way for the whole cluster, costed for the whole job.

    Attributes:
        offering: the instance type in one zone.
        purchase: `on-demand`, `spot`, `reserved-1y`, `reserved-3y`, `reservation`
            (a capacity reservation the spec says is already held) or `capacity-block` (a
            held AWS Capacity Block for ML).
        nodes: number of instances.
        hours: job wall-clock hours on this offering, spot overhead included.
        usd_per_node_hour: price of one instance, USD/hour (reserved: amortized rate).
        usd_storage: the file system's cost for `hours`, USD (a list price or, where the
            cloud publishes none, the explicit estimate `storage.basis` names); None only
            when no file system is asked for.
        notes: remarks shown with the row (checkpointing, unsourced figures, unknowns).
        reservation_id: the held reservation to launch into, for `reservation` and
            `capacity-block`.
        reservation: the spec's held capacity (`profiles.cost.work.ReservationSpec`: kind,
            placement group, size, zone), for the stack's `reservation:`; None otherwise.
        storage: the file system this cloud creates (service, capacity, price basis), or None.
        interruptions: expected spot interruptions of the cluster during the run (0 unless spot).
        added_hours: hours those interruptions add (already in `hours`).
        charged_hours: hours billed, when they differ from `hours` (a commitment's share of
            its term); None otherwise.
        committed_hours: hours of the whole commitment (term x terms), or None.
        speed: where the run time comes from (`calibrated`, `peak x MFU`, `measured`,
            `published`, `given`; see `profiles.cost.estimate.JobHours`).
        usd_requests: the bucket's request charges for reading the dataset, USD
            (`profiles.cost.requests`); None when not counted (the row's notes say why).
        throughput: the file system's throughput tier this row buys, MB/s per TiB (the
            workload's, or a faster one where that makes the job cheaper:
            `profiles.data_path.row`); None without a file system.
        fs_capacity_gib: the capacity this row asks of the cloud when it sized the file system
            up to feed the GPUs (`profiles.data_path.row.sized_up`), GiB; None: the workload's.
        io_bound: True when the row's file system cannot feed its GPUs even at the tier and
            size it buys (its hours include the waiting; its notes say so).
        block_nodes: the nodes of a `capacity-block` row that run in the block when it holds
            fewer than the row's nodes (the rest on-demand beside it, `usd_per_node_hour` their
            average); None: every node in the held capacity, or none held.
        usd_fill: the spot fallback's on-demand gap fill for the job, USD, an upper bound
            (`profiles.cost.pricing.fill_upper_usd`); None without `spot.fallback`.
        caveats: why the row ranks after every row without one, each a short reason: a
            capacity risk (a spot price far below its region's other zones or at the cloud's
            deepest discount), a file system delivering less than the workload states.
    """

    offering: Offering
    purchase: str
    nodes: int
    hours: float
    usd_per_node_hour: float
    usd_storage: float | None = None
    notes: tuple[str, ...] = ()
    reservation_id: str | None = None
    reservation: Any = None
    storage: Any = None
    interruptions: float = 0.0
    added_hours: float = 0.0
    charged_hours: float | None = None
    committed_hours: float | None = None
    speed: str = "calibrated"
    usd_requests: float | None = None
    throughput: int | None = None
    fs_capacity_gib: float | None = None
    io_bound: bool = False
    caveats: tuple[str, ...] = ()
    usd_fill: float | None = None
    block_nodes: int | None = None
    # `usd_total` and `sort_key`, computed once: a resolve sorts and compares thousands of rows.
    _usd_total: float = field(init=False, repr=False, compare=False, default=0.0)
    _sort_key: tuple | None = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:
        total = self.usd_compute + (self.usd_storage or 0.0) + (self.usd_requests or 0.0) + (self.usd_fill or 0.0)
        object.__setattr__(self, "_usd_total", total)

    @property
    def usd_per_hour(self) -> float:
        """Whole-cluster compute price, USD/hour (shown as `compute USD/hour`; the `USD/hour`
        people see is `total_usd_per_hour`)."""
        return self.usd_per_node_hour * self.nodes

    @property
    def total_usd_per_hour(self) -> float:
        """Everything the job pays per hour of its run, USD/hour: `usd_total / hours` (compute,
        file system and the bucket's requests spread over the run), the figure `plan`, the
        stack header, the review comment and the budget policy call USD/hour."""
        return self.usd_total / self.hours if self.hours > 0 else self.usd_per_hour

    @property
    def usd_compute(self) -> float:
        """Compute cost of the job, USD: usd_per_hour x hours billed (a commitment bills
        its share of the term, `charged_hours`)."""
        billed = self.hours if self.charged_hours is None else self.charged_hours
        return self.usd_per_hour * billed

    @property
    def usd_commitment(self) -> float | None:
        """The whole commitment's cost, USD (all nodes, whole term), or None."""
        return None if self.committed_hours is None else self.usd_per_hour * self.committed_hours

    @property
    def usd_total(self) -> float:
        """Cost of the job, USD: compute plus storage (where a cloud publishes no storage
        price, the explicit estimate in `storage`) plus the bucket's request charges plus the
        spot fallback's on-demand gap fill (an upper bound)."""
        return self._usd_total

    def sort_key(self) -> tuple:
        """Rows without a caveat first (`caveats`); then the cheapest job; at equal cost (to
        the cent) the fewer accelerators (less capacity and quota to get), then the faster run,
        then the safer purchase, then the faster network, then the fewer nodes (one 8-chip TPU
        slice before eight 1-chip slices over the data-centre network), then a stable name order."""
        key = self._sort_key
        if key is None:
            o, total = self.offering, self._usd_total
            key = (
                bool(self.caveats),
                round(total, 2),
                self.nodes * o.accelerator_count,
                round(total, 6),
                round(self.hours, 6),
                PURCHASE_RANK[self.purchase],
                -(o.network_gbps or 0),
                self.nodes,
                o.provider,
                o.region,
                o.zone,
                o.instance_type,
                o.platform,
            )
            object.__setattr__(self, "_sort_key", key)
        return key

    def speed_key(self) -> tuple:
        """Fastest job first, then cheapest (used when no candidate meets the deadline)."""
        return (round(self.hours, 6), *self.sort_key())
