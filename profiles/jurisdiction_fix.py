"""The "to fix" of a workload whose `jurisdiction: cn-mainland` removed the last candidates,
from what the workload actually set: never "add a cloud to `providers`" when every cloud is
allowed, and never "set `jurisdiction: any`" (the one change data that must stay in mainland
China must not take).

In order: `regions` all outside mainland China; a `data.source` only clouds without a
mainland region can link; `providers` without a cloud that has mainland regions; else the
catalog lists no mainland offering for the rest of the workload.
"""

from __future__ import annotations

from collections.abc import Sequence

from clouds.data import link_for
from clouds.regions import in_mainland_china
from clouds.registry import CLOUDS
from profiles.catalog.offering import Offering
from profiles.spec import WorkloadSpec


def jurisdiction_fix(spec: WorkloadSpec, offerings: Sequence[Offering]) -> str:
    """The fix for a no-match the `jurisdiction` constraint explains (see module docstring).

    Args:
        spec: the workload (`jurisdiction: cn-mainland`).
        offerings: the loaded catalog (of the allowed clouds).
    """
    mainland = [o for o in offerings if in_mainland_china(o.provider, o.region)]
    examples = sorted({o.region for o in mainland})[:2]
    such_as = f" such as {', '.join(examples)}" if examples else ""
    if spec.regions and not any(in_mainland_china(name, r) for name in CLOUDS for r in spec.regions):
        return (
            f"`regions` ({', '.join(spec.regions)}) lie outside mainland China, where `jurisdiction: cn-mainland` "
            f"keeps the data; list mainland regions{such_as}, or remove `regions`"
        )
    if not mainland and spec.providers:
        others = [n for n, c in CLOUDS.items() if c.mainland is not None and n not in spec.providers]
        return f"add a cloud with mainland-China regions ({', '.join(others)}) to `providers`"
    links = [(name, link_for(name)) for name in sorted({o.provider for o in mainland})]
    if spec.data is not None and not any(link is not None and link.owns(spec.data.source) for _, link in links):
        kinds = " or ".join(f"{link.SOURCE_KIND} ({name})" for name, link in links if link is not None)
        return (
            f"data.source: no cloud with mainland-China regions can link '{spec.data.source}'; copy the data "
            f"to {kinds or 'a bucket in mainland China'} in the cluster's region and point data.source there"
        )
    return (
        "no mainland-China offering meets the rest of the workload: relax `accelerators`, nodes or "
        "`interconnect` (the nearest offerings above)"
    )
