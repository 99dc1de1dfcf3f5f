"""Check a stack's cluster against what the catalog knows of its cloud, before anything is built.

A hand-edited stack can name a type the cloud does not sell (`p9z.mega`), an accelerator the
type does not carry (`H100` on `p4d.24xlarge`), the wrong count (3 on an 8-GPU type), a
region or zone that does not exist (`us-east4-z`, `apse2-az9`), or a type its region or zone
does not offer (`p5en.48xlarge` in `use1-az1`: `plan` would otherwise price it from nothing
and show the old type's recorded price). Each of these fields is
confirmed against the catalog rows of the stack's provider, and each problem names the
valid values. A cloud the catalog has no rows for (Tencent, Huawei, Volcengine and Baidu
until `catalog refresh`) cannot be confirmed, so it is not checked here; its component's
own validation and `trainstack check` still apply.

The Pulumi program runs this check too (`__main__.py`), so `plan`, `check` and `pulumi up`
refuse the same stacks. It reads one cloud's CSV file with the standard library only: no
Pulumi, no cloud SDK, a few milliseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clouds.words import article, listed
from profiles.catalog import loader
from profiles.catalog.offering import Offering
from profiles.catalog.platform_rows import picks_zone, stack_rows


def catalog_rows(provider: str) -> list[Offering]:
    """Every catalog row of `provider`, priced in USD or not; [] when it has no catalog file.

    Read like `load_catalog` reads offerings: from the file's compact copy when it matches
    (`profiles.catalog.compact`, kind `rows`), and once per process for an unchanged file."""
    path = loader.DATA_DIR / f"{provider}.csv"
    if not path.is_file():
        return []
    try:
        return list(loader.every_row(path))
    except (loader.CatalogError, OSError):
        return []  # a broken catalog is reported by the commands that price from it


def _gpus(row: Offering) -> str:
    memory = f" ({row.accelerator_memory_gib:g} GiB each)" if row.accelerator_memory_gib else ""
    return f"{row.accelerator_count} x {row.accelerator}{memory}"


def catalog_problems(cluster: Any, rows: Sequence[Offering] | None = None) -> list[str]:
    """What in `cluster` the catalog contradicts, one `field: problem; fix` line each.

    Confirmed, in order: the region; the instance type (for the cloud at all); the
    accelerator (name and memory variant, `A100` vs `A100-80GB`) and its count per node, among
    the type's rows (a GCP N1 host carries T4, V100, P100 or P4); then that the region, and
    where the catalog lists zones, the zone, offers that type with that accelerator.

    Args:
        cluster: a `ClusterConfig` (provider, region, zone, instance_type, accelerator,
            accelerator_count).
        rows: the provider's catalog rows (default: the stack's platform's own rows where it
            sells hardware of its own, `platform_rows.stack_rows`; else `catalog_rows(cluster.provider)`).

    Returns:
        [] when every field the catalog can confirm agrees (or it has no rows for the cloud).
    """
    if rows is None:  # a platform that sells its own hardware (Lingjun, ModelArts) is matched against its rows
        rows = stack_rows(cluster.provider, getattr(cluster, "platform", None)) or catalog_rows(cluster.provider)
    else:
        rows = [r for r in rows if r.provider == cluster.provider]
    if not rows:
        return []
    problems = []
    regions = {r.region for r in rows}
    if cluster.region not in regions:
        problems.append(
            f"region: '{cluster.region}' is not {article(cluster.provider)} region the catalog knows; "
            f"valid: {listed(regions, cluster.region)}"
        )
    typed = [r for r in rows if r.instance_type == cluster.instance_type]
    if not typed:
        same_gpu = {r.instance_type for r in rows if r.accelerator == cluster.accelerator}
        near = listed(same_gpu or {r.instance_type for r in rows}, cluster.instance_type)
        return [
            *problems,
            f"instance_type: '{cluster.instance_type}' is not {article(cluster.provider)} instance type the "
            f"catalog knows; valid{' ' + cluster.accelerator + ' types' if same_gpu else ''}: {near}",
        ]
    carrying = [r for r in typed if r.accelerator == cluster.accelerator]
    if not carrying:
        kinds = sorted({_gpus(r) for r in typed})
        problems.append(
            f"accelerator: '{cluster.accelerator}' but {cluster.instance_type} carries {' or '.join(kinds)}; "
            f"set accelerator: {listed({r.accelerator for r in typed}, cluster.accelerator)} "
            "or choose another instance_type"
        )
    elif all(r.accelerator_count != cluster.accelerator_count for r in carrying):
        counts = sorted({r.accelerator_count for r in carrying})
        problems.append(
            f"accelerator_count: {cluster.accelerator_count} but {cluster.instance_type} carries "
            f"{_gpus(carrying[0])}; set accelerator_count: {' or '.join(map(str, counts))}"
        )
    if cluster.region in regions:
        problems += _placement_problems(cluster, rows, carrying or typed)
    return problems


def _placement_problems(cluster: Any, rows: Sequence[Offering], typed: Sequence[Offering]) -> list[str]:
    """The region, then the zone, offering `typed` (the type's rows with the stack's
    accelerator): a type the zone does not offer is refused with the zones that do and the
    types the zone does offer, closest first (after `catalog refresh`, the catalog's own)."""
    here = [r for r in typed if r.region == cluster.region]
    if not here:
        return [
            f"region: {cluster.instance_type} is not offered in {cluster.region} per the catalog; "
            f"regions offering it: {listed({r.region for r in typed}, cluster.region)}"
        ]
    if all(r.zone == r.region for r in here) or picks_zone(cluster.provider, getattr(cluster, "platform", None)):
        return []  # priced per region (Azure, the Alibaba snapshot), or the platform picks the zone: none to confirm
    zones = {r.zone for r in rows if r.region == cluster.region and r.zone != r.region}
    offering = {r.zone for r in here}
    if cluster.zone not in zones:
        # A zone name (`us-east-1a`) where the catalog keys zones by ID (`use1-az1`): names map
        # to IDs differently in each account, so the ID cannot be guessed from the name.
        by_id = cluster.zone.startswith(cluster.region) and not any(z.startswith(cluster.region) for z in zones)
        named = (
            f"; the catalog names zones by zone ID, not by name: give the ID of {cluster.zone} in your account"
            if by_id
            else ""
        )
        return [
            f"zone: '{cluster.zone}' is not a zone of {cluster.region} the catalog knows; zones there: "
            f"{listed(zones, cluster.zone)} ({cluster.instance_type} listed in {listed(offering)}){named}"
        ]
    if cluster.zone in offering or getattr(cluster, "reservation", None) is not None:
        return []  # held capacity is the zone's own word for it; `check` looks the reservation up
    sold_here = [r for r in rows if r.zone == cluster.zone]
    other_gpus = sorted({r.accelerator for r in sold_here if r.instance_type == cluster.instance_type})
    if other_gpus:  # the zone has the type with other accelerators (a GCP N1 host)
        instead = f"accelerator: {listed(other_gpus, cluster.accelerator)}"
    else:
        alike = {r.instance_type for r in sold_here if r.accelerator == cluster.accelerator}
        near = listed(alike or {r.instance_type for r in sold_here}, cluster.instance_type)
        instead = f"an instance_type {cluster.zone} offers: {near}"
    return [
        f"instance_type: {cluster.instance_type} ({_gpus(here[0])}) is not offered in {cluster.zone} per the "
        f"catalog; set zone: {listed(offering, cluster.zone)}, or {instead} (if the zone offers it now, "
        f"`trainstack catalog refresh --provider {cluster.provider}` updates the catalog)"
    ]
