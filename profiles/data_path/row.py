"""The data part of one resolve row: the hours the file system adds (I/O waits, staging), the
bucket's request charges, and the file-system throughput tier the row buys.

When the asked tier cannot feed the GPUs, each faster tier the cloud sells is costed for the
whole job, compute and file system for the hours that tier gives (`profiles.data_path.sizing`),
and the cheapest job wins: a faster tier costs more per hour but can shorten an I/O-bound run
by more. The comparison leaves out spot interruptions (they scale both options' hours alike).
A tier the workload states (`file_system.throughput`) is kept; the row then says when a faster
one would make the job cheaper. A file system sized from `data` takes the chosen tier, and grows
(`sized_up`) when a larger one feeds the GPUs for less; a capacity the workload states is kept,
and the row names the larger one. What each option delivers is what the cloud creates
(`profiles.data_path.terms`): a service without tiers (GCP Filestore) delivers the same at any tier,
so only its size can help. A row that no option lets feed its GPUs is marked `io_bound`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import replace

from clouds.words import usd
from facts.limits import MAX_FILE_SYSTEM_GIB
from profiles.catalog.offering import Offering
from profiles.cost.requests import bucket_passes, file_count, request_cost, requests_uncounted
from profiles.data_path.link_sizing import for_link
from profiles.data_path.sizing import GIB, MB
from profiles.data_path.terms import TIERS, DataRow, at_tier, tier_for
from profiles.spec import WorkloadSpec


def data_row(
    spec: WorkloadSpec, offering: Offering, compute_hours: float, usd_per_hour: float, usd_per_cny: float | None
) -> DataRow:
    """The data path's one entry for costing a row (`profiles.costing`): its file system and
    data terms at the throughput tier and size that make the job cheapest, with the bucket's
    request charges, after a data-sized file system is raised to the smallest the cloud's
    bucket link can use (`link_sizing.for_link`: the row asks for that capacity and says so, and
    the stack is written with it).

    Args:
        spec: the workload (`file_system`, `data`).
        offering: the row's offering.
        compute_hours: the job's hours before the file system's terms.
        usd_per_hour: the cluster's compute price for this purchase, USD/hour.
        usd_per_cny: the catalog's USD per CNY (CNY-listed storage prices), or None.
    """
    raised, note = for_link(spec, offering.provider)
    row = _cheapest(raised, offering, compute_hours, usd_per_hour, usd_per_cny)
    if note is None or raised.file_system is None:
        return row
    return replace(row, capacity_gib=row.capacity_gib or raised.file_system.capacity_gib, notes=(*row.notes, note))


def _cheapest(
    spec: WorkloadSpec, offering: Offering, compute_hours: float, usd_per_hour: float, usd_per_cny: float | None
) -> DataRow:
    """The row's file system and data terms, at the throughput tier (and size) that makes the
    job cheapest.

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
    kept = at_tier(spec, offering, compute_hours, asked, usd_per_cny)
    if kept.storage is None or kept.wait_hours <= 0:
        return _with_requests(spec, offering, kept)
    stated = "throughput_mbps_per_tib" in spec.file_system.given
    faster = [
        row
        for tier in TIERS
        if tier > asked
        and (row := at_tier(spec, offering, compute_hours, tier, usd_per_cny)).storage is not None
        and row.hours < kept.hours
    ]
    cost = functools.partial(_cost, usd_per_hour=usd_per_hour)
    best = min([kept, *faster], key=cost)
    larger = min(
        sized_up(spec, offering, compute_hours, (asked,) if stated else (asked, *TIERS), usd_per_cny),
        key=cost,
        default=None,
    )
    hint = None
    if larger is not None and cost(larger) < cost(best):
        if "capacity_gib" not in spec.file_system.given:
            return _with_requests(spec, offering, _add(larger, _sized_note(larger, kept, usd_per_hour)))
        hint = _larger_hint(larger, best, usd_per_hour)
    return _with_requests(spec, offering, _add(_tier_choice(kept, faster, best, stated, usd_per_hour), hint))


def _cost(row: DataRow, usd_per_hour: float) -> tuple[float, int]:
    return (round(row.usd(usd_per_hour), 6), row.throughput or 0)


def _tier_choice(kept: DataRow, faster: list[DataRow], best: DataRow, stated: bool, usd_per_hour: float) -> DataRow:
    """The row at the cheapest tier for the workload's capacity, with the note saying why."""
    if best is kept:
        return _add(kept if faster else _fastest_tier_hint(kept), _kept_note(kept, faster, usd_per_hour))
    if stated:
        saving = kept.usd(usd_per_hour) - best.usd(usd_per_hour)
        return _add(
            kept,
            f"data: file_system.throughput {best.throughput} would make this job {usd(saving)} cheaper "
            f"{_hours_versus(best.hours, kept.hours)}; set file_system.throughput: {best.throughput}",
        )
    note = (
        f"data: file system raised to {best.throughput} MB/s per TiB: {usd(best.usd(usd_per_hour))} per job "
        f"({best.hours:,.2f} h) vs {usd(kept.usd(usd_per_hour))} at {kept.throughput} ({kept.hours:,.2f} h, I/O bound)"
    )
    if best.wait_hours > 0 and best is faster[-1]:
        best = _fastest_tier_hint(best)
    return _add(best, note)


def sized_up(
    spec: WorkloadSpec, offering: Offering, compute_hours: float, tiers: tuple[int, ...], usd_per_cny: float | None
) -> list[DataRow]:
    """The row's terms with a file system large enough to feed the GPUs, one per tier of
    `tiers` the cloud can create at that size: capacity = the read rate the GPUs need / the
    tier, where that is more than the workload's capacity (and at most `MAX_FILE_SYSTEM_GIB`, what
    a stack holds). Where the created service does not
    deliver its tier (a service without tiers), the larger size is kept only if it shortens
    the job."""
    assert spec.file_system is not None and spec.data is not None and spec.data.size_gib
    need = spec.data.size_gib * GIB / MB * spec.data.passes / (compute_hours * 3600)
    found = []
    for tier in sorted(set(tiers)):
        capacity = math.ceil(need / tier * 1024)
        if not spec.file_system.capacity_gib < capacity <= MAX_FILE_SYSTEM_GIB:
            continue
        row = at_tier(spec, offering, compute_hours, tier, usd_per_cny, capacity)
        if row.storage is not None:
            found.append(row)
    return found


def _larger_hint(larger: DataRow, kept: DataRow, usd_per_hour: float) -> str:
    """A stated capacity is kept: say which larger one would make the job cheaper."""
    saving = kept.usd(usd_per_hour) - larger.usd(usd_per_hour)
    return (
        f"data: file_system.capacity {larger.capacity_gib:,.0f}GiB at {larger.throughput} MB/s per TiB would feed the "
        f"GPUs and make this job {usd(saving)} cheaper {_hours_versus(larger.hours, kept.hours)}"
    )


def _hours_versus(new: float, old: float) -> str:
    """`(2.00 h instead of 5.09 h)`, or `(the same 2.00 h)` where the two read alike to the
    hundredth of an hour (the saving is then the storage's price, not time)."""
    shown_new, shown_old = f"{new:,.2f}", f"{old:,.2f}"
    return f"({shown_new} h instead of {shown_old} h)" if shown_new != shown_old else f"(the same {shown_new} h)"


def _sized_note(best: DataRow, kept: DataRow, usd_per_hour: float) -> str:
    assert best.storage is not None and kept.storage is not None
    return (
        f"data: file system sized up to {best.storage.capacity_gib:,.0f} GiB at {best.throughput} MB/s per TiB "
        f"to feed the GPUs: {usd(best.usd(usd_per_hour))} per job ({best.hours:,.2f} h) vs "
        f"{usd(kept.usd(usd_per_hour))} at {kept.storage.capacity_gib:,.0f} GiB ({kept.hours:,.2f} h, I/O bound)"
    )


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
        f"({next_tier.hours:,.2f} h) but cost {usd(extra)} more per job"
    )


def _add(row: DataRow, note: str | None) -> DataRow:
    return row if note is None else replace(row, notes=(*row.notes, note))


def _uncounted(provider: str, capacity_gib: float, tier: int) -> str | None:
    from clouds.data import uncounted_charge

    text = uncounted_charge(provider, capacity_gib, tier)
    return None if text is None else f"data: {text}"


def _with_requests(spec: WorkloadSpec, offering: Offering, row: DataRow) -> DataRow:
    """Add the bucket's request charges (`profiles.cost.requests`), or say why they are not counted."""
    if spec.data is None:
        return row
    if row.storage is not None and row.throughput is not None:
        row = _add(row, _uncounted(offering.provider, row.storage.capacity_gib, row.throughput))
    data = spec.data
    files = file_count(data.size_gib, data.files, data.mean_file_mib)
    if files is None:
        return _add(row, "data: bucket request charges not counted: give data.files (or size and mean_file_size)")
    capacity = row.storage.capacity_gib if row.storage else None
    writes = (data.written_files or 0) if data.write_back else 0
    cost = request_cost(offering.provider, files, bucket_passes(data.passes, data.size_gib, capacity), writes)
    if cost is None:
        return _add(row, f"data: {requests_uncounted(offering.provider)}")
    row = replace(row, notes=(*row.notes, cost.describe()), usd_requests=cost.usd)
    if data.write_back and data.written_files is None:
        return _add(
            row, "data: export (write_back) requests not counted: give data.written_files (files the job writes)"
        )
    return row
