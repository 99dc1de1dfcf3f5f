"""The data part of one resolve row: the hours the file system adds (I/O waits, staging), the
bucket's request charges, and the file-system throughput tier the row buys.

When the asked tier cannot feed the GPUs, each faster tier the cloud sells is costed for the
whole job, compute and file system for the hours that tier gives (`profiles.cost.data_path`),
and the cheapest job wins: a faster tier costs more per hour but can shorten an I/O-bound run
by more. The comparison leaves out spot interruptions (they scale both options' hours alike).
A tier the workload states (`file_system.throughput`) is kept; the row then says when a faster
one would make the job cheaper. A file system sized from `data` takes the chosen tier.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

from clouds.data import link_for
from facts.local_nvme import local_nvme_gib
from profiles.catalog.offering import Offering
from profiles.cost.data_path import DataPath, row_data_path
from profiles.cost.data_path import describe as describe_data_path
from profiles.cost.requests import bucket_passes, file_count, request_cost
from profiles.cost.storage import StorageCost, storage_cost
from profiles.spec import FileSystemSpec, WorkloadSpec

# Throughput tiers (MB/s per TiB) any cloud sells; each cloud's rule keeps its own
# (`profiles.cost.storage.storage_cost` is None for a tier it cannot create).
TIERS = (40, 125, 200, 250, 500, 1000)


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
    """

    hours: float
    storage: StorageCost | None
    throughput: int | None
    notes: tuple[str, ...]
    usd_requests: float | None = None
    wait_hours: float = 0.0

    def usd(self, usd_per_hour: float) -> float:
        """The job's compute and file-system cost at cluster price `usd_per_hour`, USD."""
        storage = self.storage.usd_per_hour if self.storage else 0.0
        return (usd_per_hour + storage) * self.hours


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


@functools.lru_cache(maxsize=1024)
def _storage(provider: str, capacity_gib: float, tier: int, usd_per_cny: float | None) -> StorageCost | None:
    return storage_cost(provider, capacity_gib, tier, usd_per_cny)


def data_row(
    spec: WorkloadSpec, offering: Offering, compute_hours: float, usd_per_hour: float, usd_per_cny: float | None
) -> DataRow:
    """The row's file system and data terms, at the throughput tier that makes the job cheapest.

    Args:
        spec: the workload (`file_system`, `data`).
        offering: the row's offering.
        compute_hours: the job's hours before the file system's terms.
        usd_per_hour: the cluster's compute price for this purchase, USD/hour.
        usd_per_cny: the catalog's USD per CNY (CNY-listed storage prices), or None.
    """
    if spec.file_system is None:
        return DataRow(compute_hours, None, None, ())
    asked = tier_for(offering.provider, spec.file_system)
    kept = _at_tier(spec, offering, compute_hours, asked, usd_per_cny)
    if kept.storage is None or kept.wait_hours <= 0:
        return _with_requests(spec, offering, kept)
    faster = [
        row
        for tier in TIERS
        if tier > asked and (row := _at_tier(spec, offering, compute_hours, tier, usd_per_cny)).storage is not None
    ]
    best = min([kept, *faster], key=lambda row: (round(row.usd(usd_per_hour), 6), row.throughput))
    if best is kept:
        note = _kept_note(kept, faster, usd_per_hour)
        return _with_requests(spec, offering, _add(kept if faster else _fastest_tier_hint(kept), note))
    if "throughput_mbps_per_tib" in spec.file_system.given:
        saving = kept.usd(usd_per_hour) - best.usd(usd_per_hour)
        note = (
            f"data: file_system.throughput {best.throughput} would make this job ${saving:,.0f} cheaper "
            f"({best.hours:,.2f} h instead of {kept.hours:,.2f} h); set file_system.throughput: {best.throughput}"
        )
        return _with_requests(spec, offering, _add(kept, note))
    note = (
        f"data: file system raised to {best.throughput} MB/s per TiB: ${best.usd(usd_per_hour):,.0f} per job "
        f"({best.hours:,.2f} h) vs ${kept.usd(usd_per_hour):,.0f} at {asked} ({kept.hours:,.2f} h, I/O bound)"
    )
    if best.wait_hours > 0 and best is faster[-1]:
        best = _fastest_tier_hint(best)
    return _with_requests(spec, offering, _add(best, note))


def _fastest_tier_hint(row: DataRow) -> DataRow:
    """At the fastest tier the cloud sells, only more capacity adds throughput: say so."""
    generic = "more file_system.throughput (MB/s per TiB) or capacity feeds the GPUs"
    fastest = f"{row.throughput} MB/s per TiB is the fastest tier here: more file_system.capacity feeds the GPUs"
    return replace(row, notes=tuple(n.replace(generic, fastest) for n in row.notes))


def _kept_note(kept: DataRow, faster: list[DataRow], usd_per_hour: float) -> str | None:
    if not faster:
        return None
    next_tier = faster[0]
    extra = next_tier.usd(usd_per_hour) - kept.usd(usd_per_hour)
    return (
        f"data: kept {kept.throughput} MB/s per TiB: {next_tier.throughput} would end the I/O wait sooner "
        f"({next_tier.hours:,.2f} h) but cost ${extra:,.0f} more per job"
    )


def _add(row: DataRow, note: str | None) -> DataRow:
    return row if note is None else replace(row, notes=(*row.notes, note))


def _at_tier(
    spec: WorkloadSpec, offering: Offering, compute_hours: float, tier: int, usd_per_cny: float | None
) -> DataRow:
    """The row's terms with the file system at `tier`."""
    assert spec.file_system is not None
    storage = _storage(offering.provider, spec.file_system.capacity_gib, tier, usd_per_cny)
    notes: tuple[str, ...] = (storage.describe(),) if storage is not None else ()
    notes += _throughput_notes(offering.provider, spec.file_system.capacity_gib, tier, _tier_label(spec, tier))
    if not (spec.data and spec.data.size_gib and storage is not None):
        return DataRow(compute_hours, storage, tier, notes)
    path = _data_path(spec, offering, storage.capacity_gib, tier, compute_hours)
    with_io = path.hours_with_io(compute_hours, spec.data.size_gib, spec.data.passes)
    wait = with_io - compute_hours + path.staging_hours
    notes += describe_data_path(path, with_io - compute_hours)
    return DataRow(compute_hours + wait, storage, tier, notes, wait_hours=wait)


def _tier_label(spec: WorkloadSpec, tier: int) -> str:
    """How the row came by `tier`: `asked` (the workload states it), `default` or `chosen` (faster)."""
    assert spec.file_system is not None
    if "throughput_mbps_per_tib" not in spec.file_system.given and tier < spec.file_system.throughput_mbps_per_tib:
        return "the cloud's nearest to the default"
    if tier != spec.file_system.throughput_mbps_per_tib:
        return "chosen"
    return "asked" if "throughput_mbps_per_tib" in spec.file_system.given else "default"


@functools.lru_cache(maxsize=1024)
def _throughput_notes(provider: str, capacity_gib: float, mbps_per_tib: int, label: str) -> tuple[str, ...]:
    """Where the cloud's file system gives less throughput than asked, which the stack then
    states as an explicit choice (GCP Filestore ZONAL below a Managed Lustre tier)."""
    import math

    from clouds.filesystems import FileSystemAsk, explicit_deployment_type

    explicit = explicit_deployment_type(provider, FileSystemAsk(math.ceil(capacity_gib), mbps_per_tib))
    if explicit is None:
        return ()
    from clouds.gcp.filesystems import FILESTORE_WRITE_MIBPS_PER_TIB

    return (
        f"file system below the {mbps_per_tib} MB/s per TiB {label}: Filestore ZONAL "
        f"writes {FILESTORE_WRITE_MIBPS_PER_TIB} MiB/s per TiB; a stack written from this row says "
        f"deployment_type: {explicit}",
    )


def _data_path(spec: WorkloadSpec, offering: Offering, capacity_gib: float, tier: int, hours: float) -> DataPath:
    """The row's data path: the dataset read over `hours` from the file system the cloud creates."""
    assert spec.data is not None and spec.data.size_gib is not None
    link = link_for(offering.provider)
    params = (spec.model.params if spec.model else None) or (spec.work.params if spec.work else None)
    return row_data_path(
        spec.data.size_gib,
        spec.data.passes,
        params,
        capacity_gib,
        tier,
        hours,
        local_nvme_gib(offering.instance_type),
        lazy_link=link is not None and link.LINK == "lazy",
    )


def _with_requests(spec: WorkloadSpec, offering: Offering, row: DataRow) -> DataRow:
    """Add the bucket's request charges (`profiles.cost.requests`), or say why they are not counted."""
    if spec.data is None:
        return row
    data = spec.data
    files = file_count(data.size_gib, data.files, data.mean_file_mib)
    if files is None:
        return _add(row, "data: bucket request charges not counted: give data.files (or size and mean_file_size)")
    capacity = row.storage.capacity_gib if row.storage else None
    writes = (data.written_files or 0) if data.write_back else 0
    cost = request_cost(offering.provider, files, bucket_passes(data.passes, data.size_gib, capacity), writes)
    if cost is None:
        return _add(row, f"data: bucket request charges not counted: no sourced {offering.provider} request price")
    row = replace(row, notes=(*row.notes, cost.describe()), usd_requests=cost.usd)
    if data.write_back and data.written_files is None:
        return _add(
            row, "data: export (write_back) requests not counted: give data.written_files (files the job writes)"
        )
    return row
