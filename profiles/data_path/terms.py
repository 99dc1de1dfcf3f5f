"""The file system and data terms of one row at one throughput tier and size: what the cloud
creates, its price, what it delivers (`clouds.filesystems.delivered`), how the cloud's stack
copies the data in (`clouds.data.staging`), and the hours the job then waits on it; and the
tier a row starts from (`tier_for`).

`profiles.data_path.row` compares these terms across tiers and sizes and keeps the cheapest job.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from clouds.data import link_for
from clouds.filesystems import throughput_notes
from facts.local_nvme import local_nvme_gib
from profiles.catalog.offering import Offering
from profiles.cost.storage import StorageCost, storage_cost
from profiles.data_path.sizing import DataPath, row_data_path
from profiles.data_path.sizing import describe as describe_data_path
from profiles.spec import FileSystemSpec, WorkloadSpec

# Throughput tiers (MB/s per TiB) any cloud sells; each cloud's rule keeps its own
# (`profiles.cost.storage.storage_cost` is None for a tier it cannot create).
TIERS = (40, 125, 200, 250, 500, 1000)


def tier_for(provider: str, file_system: FileSystemSpec) -> int:
    """The throughput tier (MB/s per TiB) a row starts from: the workload's when it states one;
    else the default when `provider` can create it, else the tier it sells nearest to the
    default (the faster on a tie), so a cloud without the default tier (Alibaba CPFS: 100 or
    200) is priced at its own rather than refused for a number nobody asked for."""
    asked = file_system.throughput_mbps_per_tib
    if "throughput_mbps_per_tib" in file_system.given:
        return asked
    return _nearest_sold(provider, math.ceil(file_system.capacity_gib), asked)


@functools.lru_cache(maxsize=256)
def _nearest_sold(provider: str, capacity_gib: int, default: int) -> int:
    from clouds.filesystems import FileSystemAsk, file_system_problem

    sold = [
        t for t in sorted({default, *TIERS}) if file_system_problem(provider, FileSystemAsk(capacity_gib, t)) is None
    ]
    if not sold or default in sold:
        return default
    return min(sold, key=lambda tier: (abs(tier - default), -tier))


@dataclass(frozen=True)
class DataRow:
    """The file system and data terms of one row.

    Attributes:
        hours: the job's hours with the file system's I/O waits and staging, before purchase
            terms (spot interruptions).
        storage: the file system created, at `throughput`.
        throughput: its tier, MB/s per TiB.
        notes: the row's file-system and data notes.
        usd_requests: the bucket's request charges for the job, USD; None without `data`, an
            unknown file count, or no sourced request price.
        wait_hours: hours of `hours` spent waiting on the file system (I/O and staging).
        capacity_gib: the capacity asked of the cloud when the row sized the file system up to
            feed the GPUs (`sized_up`), GiB; None: the workload's.
        io_bound: True when even this file system cannot feed the GPUs (the row's hours include
            the waiting, and its notes say so).
    """

    hours: float
    storage: StorageCost | None
    throughput: int | None
    notes: tuple[str, ...]
    usd_requests: float | None = None
    wait_hours: float = 0.0
    capacity_gib: float | None = None
    io_bound: bool = False

    def usd(self, usd_per_hour: float) -> float:
        """The job's compute and file-system cost at cluster price `usd_per_hour`, USD."""
        storage = self.storage.usd_per_hour if self.storage else 0.0
        return (usd_per_hour + storage) * self.hours


@functools.lru_cache(maxsize=1024)
def _storage(provider: str, capacity_gib: float, tier: int, usd_per_cny: float | None) -> StorageCost | None:
    return storage_cost(provider, capacity_gib, tier, usd_per_cny)


def at_tier(
    spec: WorkloadSpec,
    offering: Offering,
    compute_hours: float,
    tier: int,
    usd_per_cny: float | None,
    capacity: float | None = None,
) -> DataRow:
    """The row's terms with the file system at `tier` (and `capacity` GiB when sized up, else
    the workload's)."""
    assert spec.file_system is not None
    if not spec.data:  # the offering counts only by its cloud: rows of one cloud share the answer
        return _file_system_only(spec.file_system, offering.provider, compute_hours, tier, usd_per_cny, capacity)
    asked = spec.file_system.capacity_gib if capacity is None else capacity
    storage = _storage(offering.provider, asked, tier, usd_per_cny)
    notes: tuple[str, ...] = (storage.describe(),) if storage is not None else ()
    notes += throughput_notes(offering.provider, asked, tier, _tier_label(spec, tier))
    if not (spec.data and spec.data.size_gib and storage is not None):
        return DataRow(compute_hours, storage, tier, notes, capacity_gib=capacity)
    path = _data_path(spec, offering, storage.capacity_gib, tier, compute_hours, asked)
    with_io = path.hours_with_io(compute_hours, spec.data.size_gib, spec.data.passes)
    wait = with_io - compute_hours + path.staging_hours
    notes += describe_data_path(path, with_io - compute_hours)
    return DataRow(
        compute_hours + wait, storage, tier, notes, wait_hours=wait, capacity_gib=capacity, io_bound=path.starves_gpus
    )


@functools.lru_cache(maxsize=4096)
def _file_system_only(
    file_system: FileSystemSpec,
    provider: str,
    compute_hours: float,
    tier: int,
    usd_per_cny: float | None,
    capacity: float | None,
) -> DataRow:
    """`at_tier` without `data`: the file system alone, no I/O terms."""
    asked = file_system.capacity_gib if capacity is None else capacity
    storage = _storage(provider, asked, tier, usd_per_cny)
    notes: tuple[str, ...] = (storage.describe(),) if storage is not None else ()
    notes += throughput_notes(provider, asked, tier, _label(file_system, tier))
    return DataRow(compute_hours, storage, tier, notes, capacity_gib=capacity)


def _tier_label(spec: WorkloadSpec, tier: int) -> str:
    """How the row came by `tier`: `asked` (the workload states it), `default` or `chosen` (faster)."""
    assert spec.file_system is not None
    return _label(spec.file_system, tier)


def _label(file_system: FileSystemSpec, tier: int) -> str:
    """`_tier_label` of the workload's file system."""
    given = "throughput_mbps_per_tib" in file_system.given
    if not given and tier < file_system.throughput_mbps_per_tib:
        return "the cloud's nearest to the default"
    if tier != file_system.throughput_mbps_per_tib:
        return "chosen"
    return "asked" if given else "default"


@functools.lru_cache(maxsize=1024)
def _rates(provider: str, capacity_gib: int, tier: int) -> tuple[float | None, float | None, str, float | None]:
    """(delivered read MB/s or None, staging MB/s or None, how it stages, the link's own bound on
    the first pass or None) of the file system `provider` creates for `capacity_gib` at `tier`
    (`clouds.filesystems.delivered`, `clouds.data.staging`, `clouds.data.first_read_mbps`)."""
    from clouds.data import first_read_mbps, staging
    from clouds.filesystems import FileSystemAsk, delivered, explicit_deployment_type

    ask = FileSystemAsk(capacity_gib, tier)
    ask = ask._replace(deployment_type=explicit_deployment_type(provider, ask))
    rates, copy = delivered(provider, ask), staging(provider, ask)
    return (
        None if rates is None else rates.read_mbps,
        None if copy is None else copy.mbps,
        "" if copy is None else copy.how,
        first_read_mbps(provider, capacity_gib, tier),
    )


def _data_path(
    spec: WorkloadSpec, offering: Offering, capacity_gib: float, tier: int, hours: float, asked_gib: float | None = None
) -> DataPath:
    """The row's data path: the dataset read over `hours` from the file system the cloud creates
    (`capacity_gib`, for `asked_gib` at `tier`; default: the created size), copied in the cloud's
    way where its link imports."""
    assert spec.data is not None and spec.data.size_gib is not None
    link = link_for(offering.provider)
    params = (spec.model.params if spec.model else None) or (spec.work.params if spec.work else None)
    read, copy, how, first = _rates(offering.provider, math.ceil(asked_gib or capacity_gib), tier)
    return row_data_path(
        spec.data.size_gib,
        spec.data.passes,
        params,
        capacity_gib,
        tier,
        hours,
        local_nvme_gib(offering.instance_type),
        lazy_link=link is not None and link.LINK == "lazy",
        delivered_mbps=read,
        staging_mbps=copy,
        staging_how=how,
        first_pass_mbps=first,
    )
