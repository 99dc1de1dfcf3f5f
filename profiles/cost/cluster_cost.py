"""What a stack's cluster costs, part by part: the one home of the figures the stack header,
`trainstack plan` (hourly and per job) and the budget policy state.

Parts:
  * compute: the nodes, USD/hour (the catalog's price for the stack's type, zone and purchase,
    or a held reservation's own figure);
  * file system: the capacity and tier the stack creates at the cloud's recorded price,
    USD/hour (`profiles.cost.storage`); where the cloud has no recorded price, the explicit
    estimate `resolve` ranked it with (the dearest recorded price for the tier), counted and
    said so, so that `resolve`, the stack header and `plan` state the same total;
  * bucket requests: reading the dataset into the file system (GETs and LISTs) and, with
    `data.write_back`, exporting what the job writes (one PUT per written file), USD per job
    (`profiles.cost.requests`); left out, and said so, without a file count or a sourced price.

The hourly figure is everything the job pays divided by its hours: compute + file system +
the requests spread over the run. A Capacity Block (AWS) is paid up front at purchase: its
hourly figure is what the stack records (0 when prepaid), and the cost says so.

Not counted, and said so in `left_out`: the small always-on helper VMs (a job's head node,
the TPU queued-resource controller; `clouds.helper_vms`), whose types the catalog lacks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from clouds.helper_vms import head_tracking_line, helper_lines
from profiles.cost.pricing import charged_hours
from profiles.cost.requests import RequestCost, bucket_passes, file_count, request_cost, requests_uncounted
from profiles.cost.storage import ESTIMATE, storage_cost

if TYPE_CHECKING:  # `resolve` loads this module (usd_per_cny) and never pydantic
    from clouds.contract import ClusterConfig
    from profiles.catalog.offering import Offering


@dataclass(frozen=True)
class ClusterCost:
    """The cost of one stack's cluster for its planned run.

    Attributes:
        compute_usd_per_hour: the nodes, USD/hour; None when unknown.
        storage_usd_per_hour: the file system, USD/hour; None without one or without a price.
        hours: planned run time, hours.
        requests: the bucket's request charges for the job, or None (no data, or not countable).
        left_out: what the figures leave out or only estimate, one line each (an unpriced file
            system, an estimated one, uncounted requests, a Capacity Block's up-front fee).
        storage_estimated: True when the file system's figure is the explicit estimate (no
            recorded price for the cloud); the texts label it.
        fill_usd: the spot fallback's on-demand gap fill for the job, USD (an upper bound,
            `profiles.cost.pricing.fill_upper_usd`); None without `on_demand_after_minutes`.
        billed_hours: the hours compute bills, when they differ from `hours`: a 1y/3y
            commitment's share of its term (the job's hours plus the unused rest less what
            `commitment_reuse` says other work uses, `profiles.cost.pricing.charged_hours`), as
            `resolve` ranks it; None: `hours`.
    """

    compute_usd_per_hour: float | None
    storage_usd_per_hour: float | None
    hours: float
    requests: RequestCost | None = None
    left_out: tuple[str, ...] = ()
    storage_estimated: bool = False
    billed_hours: float | None = None
    fill_usd: float | None = None

    @property
    def usd_compute(self) -> float | None:
        """Compute for the job, USD (a commitment: its share of the term, `billed_hours`); None
        when the compute price is unknown."""
        if self.compute_usd_per_hour is None:
            return None
        return self.compute_usd_per_hour * (self.hours if self.billed_hours is None else self.billed_hours)

    @property
    def usd_unused_term(self) -> float | None:
        """The part of `usd_compute` that pays for a commitment's hours the job does not run,
        USD; None without a commitment share."""
        if self.billed_hours is None or self.compute_usd_per_hour is None:
            return None
        return self.compute_usd_per_hour * (self.billed_hours - self.hours)

    @property
    def usd_storage(self) -> float | None:
        """The file system for the run, USD; None without a priced one."""
        return None if self.storage_usd_per_hour is None else self.storage_usd_per_hour * self.hours

    @property
    def usd_requests(self) -> float | None:
        """The bucket's request charges for the job, USD; None when not counted."""
        return None if self.requests is None else self.requests.usd

    @property
    def usd_total(self) -> float | None:
        """Compute + file system + requests for the job, USD; None when compute is unknown."""
        compute = self.usd_compute
        if compute is None:
            return None
        return compute + (self.usd_storage or 0.0) + (self.usd_requests or 0.0) + (self.fill_usd or 0.0)

    @property
    def usd_per_hour(self) -> float | None:
        """The whole job's cost per hour of the run, USD/hour (compute + file system + the
        requests spread over `hours`); None when compute is unknown."""
        total = self.usd_total
        return None if total is None else total / self.hours

    @property
    def _estimate(self) -> str:
        return " (estimate)" if self.storage_estimated else ""

    def hourly_text(self) -> str:
        """`$80.6700/hour = compute $79.6400 + file system $1.0200 + bucket requests $0.0100`."""
        assert self.usd_per_hour is not None
        requests = None if self.requests is None else self.requests.usd / self.hours
        compute = None if self.usd_compute is None else self.usd_compute / self.hours
        fill = None if self.fill_usd is None else self.fill_usd / self.hours
        amounts = (compute, self.storage_usd_per_hour, requests, fill)
        return self._summed(f"${self.usd_per_hour:,.4f}/hour", amounts, "{part} ${usd:,.4f}")

    def job_text(self) -> str:
        """`$1,613.40 per job (72 h) = $1,592.80 compute + $20.40 file system + $0.20 bucket requests`."""
        assert self.usd_total is not None and self.usd_compute is not None
        requests = None if self.requests is None else self.requests.usd
        amounts = (self.usd_compute, self.usd_storage, requests, self.fill_usd)
        return self._summed(f"${self.usd_total:,.2f} per job ({self.hours:g} h)", amounts, "${usd:,.2f} {part}")

    def _summed(self, total: str, amounts: tuple[float | None, ...], form: str) -> str:
        """`total = part + part ...`: each known amount (None: not counted) of compute, file
        system and bucket requests, written with `form` (the file system's followed by
        ` (estimate)` when it is one); `total` alone when only compute is known."""
        unused = self.usd_unused_term
        share = "" if unused is None else f" (with the term's unused share, ${unused:,.2f} per job)"
        marks = {
            "compute": share,
            "file system": self._estimate,
            "bucket requests": "",
            "on-demand gap fill": " (at most)",
        }
        known = [(part, usd) for part, usd in zip(marks, amounts, strict=True) if usd is not None]
        parts = [form.format(part=part, usd=usd) + marks[part] for part, usd in known]
        return total if len(parts) == 1 else f"{total} = {' + '.join(parts)}"


def cluster_cost(
    config: ClusterConfig,
    compute_usd_per_hour: float | None,
    usd_per_cny: float | None = None,
    fill_usd: float | None = None,
) -> ClusterCost:
    """The cost of `config`'s cluster at `compute_usd_per_hour`, part by part.

    Args:
        config: the stack's cluster (file system, data, reservation, hours).
        compute_usd_per_hour: the nodes' price, USD/hour, or None when unknown.
        usd_per_cny: the catalog's USD per CNY, for a file system priced in CNY; None leaves
            such a price out (and says so).
        fill_usd: the spot fallback's gap fill, USD (`ClusterCost.fill_usd`), or None.
    """
    left_out: list[str] = []
    storage = _storage_usd_per_hour(config, usd_per_cny, left_out)
    requests = _requests(config, left_out)
    estimated = any(line.startswith("the file system's price") and "estimate" in line for line in left_out)
    left_out += _held_capacity(config)
    if config.platform is None:  # a pool's platform runs the job: no head node (clouds.platforms)
        fs = config.file_system is not None
        left_out += helper_lines(config.provider, config.region, config.job is not None, config.queued_resource, fs)
        tracking = config.job.tracking if config.job is not None else None
        if tracking is not None and tracking.mlflow == "managed":  # a server on the head (clouds.mlflow_head)
            left_out.append(head_tracking_line(config.data.source if config.data is not None else None))
    billed = None
    if config.commitment != "none" and config.commitment_reuse is not None:
        billed = charged_hours(config.hours, config.commitment, config.commitment_reuse)
    return ClusterCost(
        compute_usd_per_hour, storage, config.hours, requests, tuple(left_out), estimated, billed, fill_usd
    )


def _storage_usd_per_hour(config: ClusterConfig, usd_per_cny: float | None, left_out: list[str]) -> float | None:
    fs = config.file_system
    if fs is None:
        return None
    cost = storage_cost(config.provider, fs.capacity_gib, fs.throughput_mbps_per_tib, usd_per_cny)
    if cost is None:
        left_out.append(f"the file system's price on {config.provider} is unknown, so the job total leaves it out")
        return None
    if cost.basis == ESTIMATE:
        left_out.append(
            f"the file system's price on {config.provider} is an estimate ({cost.reference}), counted as resolve "
            "ranked it"
        )
    return cost.usd_per_hour


def _requests(config: ClusterConfig, left_out: list[str]) -> RequestCost | None:
    data = config.data
    if data is None:
        return None
    fs = config.file_system
    if fs is not None:
        from clouds.data import uncounted_charge

        charge = uncounted_charge(config.provider, _created_gib(config) or fs.capacity_gib, fs.throughput_mbps_per_tib)
        left_out += [charge] if charge else []
    files = file_count(data.size_gib, data.files, data.mean_file_mib)
    if files is None:
        left_out.append("bucket request charges not counted: give data.files (or size and mean_file_size)")
        return None
    capacity = _created_gib(config)
    writes = data.written_files if data.write_back else 0
    cost = request_cost(config.provider, files, bucket_passes(data.passes, data.size_gib, capacity), writes or 0)
    if cost is None:
        left_out.append(requests_uncounted(config.provider))
        return None
    if data.write_back and data.written_files is None:
        left_out.append("export (write_back) requests not counted: give data.written_files (files the job writes)")
    return cost


def _created_gib(config: ClusterConfig) -> float | None:
    """The capacity the stack's file system is created with (the cloud rounds the asked one up),
    GiB, as `resolve` counts the bucket's passes with it; None without a file system."""
    fs = config.file_system
    if fs is None:
        return None
    from clouds.filesystems import provisioned_gib

    return provisioned_gib(config.provider, fs) or fs.capacity_gib


def _held_capacity(config: ClusterConfig) -> list[str]:
    r = config.reservation
    if r is None or r.kind != "capacity-block":
        return []
    recorded = config.usd_per_hour or 0.0
    if recorded == 0:
        return [
            f"Capacity Block {r.id}: its fee was paid up front at purchase (the catalog holds no Capacity "
            "Block prices), so the compute figure is $0.00/hour to pay now, not what the block cost"
        ]
    return [
        f"Capacity Block {r.id}: compute is the stack's ${recorded:,.4f}/hour, the block's up-front fee "
        "spread over its hours (the workload's figure; the catalog holds no Capacity Block prices)"
        + ("; hours past the block's end are in it at the on-demand price (`resolve`)" if r.ends is not None else "")
    ]


def usd_per_cny(offering: Offering) -> float | None:
    """The catalog's recorded rate as a CNY-listed row used it (USD per CNY), or None (a USD row,
    or one without a native price)."""
    native, usd = offering.on_demand_native, offering.on_demand_usd_per_hour
    if offering.currency != "CNY" or not native or usd is None:
        return None
    return usd / native
