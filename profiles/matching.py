"""Does an offering suit a workload before anything is costed? The catalog-level constraints
each offering is checked against (`static_failures`, in `profiles.explain.CONSTRAINTS` order),
the job-specific ones on top (`each_failure`), the one-line details `resolve` reports for a
file system, a dataset or a job no row can take, and which of the rows left out of USD
comparisons (listed in CNY with no usable rate) could have fitted (`fitting`): a "no offering
matches" error mentions the missing rate only then.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from clouds.data import data_problem, holds
from clouds.filesystems import FileSystemAsk, file_system_problem
from clouds.healing import job_problem
from clouds.job_fields import NO_FILE_SYSTEM
from clouds.platform_job import job_problem as platform_job_problem
from clouds.platforms import ANY
from clouds.regions import in_mainland_china
from profiles.bootstrap_fit import bootstrap_problem
from profiles.catalog import loader
from profiles.catalog.offering import Offering
from profiles.catalog.platform_rows import makes_file_system, platform_of
from profiles.cost.estimate import Rejection, job_hours
from profiles.cost.flex import purchase_price
from profiles.cost.held import held
from profiles.costing import PURCHASES
from profiles.data_path.link_sizing import for_link
from profiles.data_path.terms import tier_for
from profiles.spec import FileSystemSpec, WorkloadSpec
from profiles.spec.rules import count_of
from profiles.spec.values import KEYS

if TYPE_CHECKING:
    from profiles.data_path.spec import DataSpec


def static_failures(spec: WorkloadSpec, wanted: frozenset[str], offering: Offering) -> Iterator[str]:
    """Yield, in `CONSTRAINTS` order, each catalog-level constraint `offering` fails."""
    if spec.providers and offering.provider not in spec.providers:
        yield "provider"
    if spec.regions and offering.region not in spec.regions:
        yield "region"
    if spec.jurisdiction == "cn-mainland" and not in_mainland_china(offering.provider, offering.region):
        yield "jurisdiction"
    if wanted and offering.accelerator not in wanted:
        yield "accelerator"
    if spec.platform not in (ANY, offering.platform):
        yield "platform"
    count = count_of(spec, offering.accelerator) if spec.gpus_per_node or spec.accelerator_counts else None
    if count is not None and offering.accelerator_count != count:
        yield "gpus_per_node"
    if spec.min_gpu_memory_gib and (offering.accelerator_memory_gib or 0) < spec.min_gpu_memory_gib:
        yield "gpu_memory"
    if spec.interconnect == "rdma" and spec.fewest_nodes > 1 and not offering.rdma:
        yield "interconnect"
    if all(purchase_price(offering, p) is None for p in PURCHASES[spec.purchase]) and not held(
        spec, offering, spec.nodes
    ):
        yield "price"
    vm = offering.platform == "vm"  # a managed platform reads the bucket itself
    if spec.file_system and makes_file_system(offering) and file_system_detail(spec, offering.provider):
        yield "file_system"
    if spec.data and vm and _data_problem(spec, offering.provider):
        yield "data"
    if spec.job and job_detail(spec, offering):
        yield "job"


def job_detail(spec: WorkloadSpec, offering: Offering) -> str | None:
    """Why the spec's job cannot run on `offering`'s nodes (`clouds.healing.job_problem`), or None."""
    from clouds.job_secrets import secret_problem
    from clouds.tracking import tracking_problem  # pydantic: loaded only for a workload with a job

    assert spec.job is not None
    nproc = spec.job.nproc_per_node
    platform = None if offering.platform == "vm" else offering.platform
    source = spec.data.source if spec.data is not None else None
    if tracked := tracking_problem(spec.job.tracking, platform, offering.provider, source):
        return tracked
    if secrets := secret_problem(offering.provider, platform, spec.job):  # no secret store its nodes read
        return secrets
    if offering.platform != "vm":  # the platform runs the job (`trainstack run`), not the node agent
        managed = platform_of(offering)
        if managed is not None and not managed.submit:  # a pool trainstack submits no job to (HyperPod)
            return (
                f"job: trainstack submits no job to {managed.display_name} yet (docs/platforms.md); "
                "remove job and run it on the cluster, or pick another platform"
            )
        if nproc is not None and nproc > offering.accelerator_count:
            return f"job.nproc_per_node: at most {offering.accelerator_count} on {offering.instance_type}"
        return platform_job_problem(offering.platform, spec.job, spec.fewest_nodes)
    if spec.file_system is None:  # `platform: any`: the managed rows need none, the VM rows do
        return f"{NO_FILE_SYSTEM}, or keep to the managed platforms' rows (`platform`)"
    found = job_problem(offering.provider, offering.instance_type, nproc, offering.accelerator_count)
    return found or bootstrap_problem(spec, offering)


@functools.lru_cache(maxsize=64)
def _fs_problem(provider: str, capacity_gib: int, throughput: int) -> str | None:
    problem = file_system_problem(provider, FileSystemAsk(capacity_gib, throughput))
    return None if problem is None else _as_written(problem)


def _as_written(text: str) -> str:
    """A stack-side file-system message in the workload's words: the stack's `capacity_gib` and
    `throughput_mbps_per_tib` are the workload's `capacity` and `throughput` (their aliases)."""
    for name, key in KEYS[FileSystemSpec].items():
        if key.alias:
            text = re.sub(rf"\b{name}\b", key.alias, text)
    return text


def file_system_detail(spec: WorkloadSpec, provider: str) -> str | None:
    """Why `provider` cannot create the spec's file system, or None (cached per provider)."""
    fs = for_link(spec, provider)[0].file_system
    assert fs is not None
    return _fs_problem(provider, math.ceil(fs.capacity_gib), tier_for(provider, fs))


@functools.lru_cache(maxsize=64)
def _link_problem(provider: str, data: DataSpec, file_system: tuple[float, int] | None) -> str | None:
    problem = data_problem(provider, data.config(), file_system is not None, file_system)
    return None if problem is None else _as_written(problem)


def data_detail(details: dict[str, str], spec: WorkloadSpec, provider: str) -> None:
    """Keep the first `data` rejection, unless this provider holds the bucket: its reason
    (a missing field, a bad URI) is the one that helps."""
    assert spec.data is not None
    problem = str(_data_problem(spec, provider))
    if holds(provider, spec.data.source):
        details["data"] = problem
    else:
        details.setdefault("data", problem)


def _data_problem(spec: WorkloadSpec, provider: str) -> str | None:
    """Why `provider` cannot link the spec's dataset (its bucket is another cloud's, say), or None."""
    assert spec.data is not None
    fs = for_link(spec, provider)[0].file_system
    sizing = (fs.capacity_gib, tier_for(provider, fs)) if fs is not None else None
    return _link_problem(provider, spec.data, sizing)


def each_failure(spec: WorkloadSpec, wanted: frozenset[str], offering: Offering) -> Iterator[str]:
    """Yield every constraint `offering` fails, job-specific checks last, one at a time: a caller
    that needs only the first few stops there."""
    yield from static_failures(spec, wanted, offering)
    estimate = job_hours(spec, offering)
    if isinstance(estimate, Rejection):
        yield estimate.constraint


def unpriced_rows(currencies: Iterable[str], providers: Iterable[str] = loader.PROVIDERS) -> list[Offering]:
    """Catalog rows listed in one of `currencies` with no USD price (the rows left out)."""
    wanted = set(currencies)
    rows: list[Offering] = []
    for provider in providers:
        path = loader.DATA_DIR / f"{provider}.csv"
        if wanted and path.is_file():
            rows += [
                o
                for o in loader.every_row(path)
                if o.currency in wanted and o.on_demand_usd_per_hour is None and o.spot_usd_per_hour is None
            ]
    return rows


def fitting(spec: WorkloadSpec, rows: Iterable[Offering]) -> dict[str, int]:
    """currency -> how many of `rows` fail nothing in `spec` but their missing USD price.

    A row fits when its provider, region, jurisdiction, accelerator, GPU count, GPU memory,
    fabric and file system all suit the spec (`static_failures`).
    """
    names = {n.casefold() for n in spec.accelerators}
    counts: dict[str, int] = {}
    for row in rows:
        if names and row.accelerator.casefold() not in names:
            continue
        if set(static_failures(spec, frozenset(), row)) <= {"price"}:
            counts[row.currency] = counts.get(row.currency, 0) + 1
    return counts
