"""A file system trainstack sizes itself is never refused for its size: raised, per cloud, to
the smallest its bucket link can use (`clouds.data.link_min_capacity`: Alibaba's CPFS must be
faster than the smallest data flow, so 2,560 GiB of data-sized CPFS at 200 MB/s per TiB
becomes 3,073 GiB). A capacity the workload states is kept, and a too-small one is refused
with the size that would do.
"""

from __future__ import annotations

import functools

from profiles.data_path.terms import tier_for
from profiles.spec import WorkloadSpec


def for_link(spec: WorkloadSpec, provider: str) -> tuple[WorkloadSpec, str | None]:
    """`spec` as `provider`'s rows see it, and the note saying the file system was raised (None
    when it was not): a data-sized file system (no `file_system.capacity` written) raised to
    the smallest the cloud's bucket link can use."""
    fs = spec.file_system
    if fs is None or spec.data is None or "capacity_gib" in fs.given:
        return spec, None
    floor = _floor(provider, tier_for(provider, fs))
    if floor is None or floor[0] <= fs.capacity_gib:
        return spec, None
    gib, why = floor
    note = f"data: file system sized up from {fs.capacity_gib:,.0f} to {gib:,} GiB: {why}"
    return spec._replace(file_system=fs._replace(capacity_gib=float(gib))), note


@functools.lru_cache(maxsize=64)
def _floor(provider: str, mbps_per_tib: int) -> tuple[int, str] | None:
    from clouds.data import link_min_capacity

    return link_min_capacity(provider, mbps_per_tib)
