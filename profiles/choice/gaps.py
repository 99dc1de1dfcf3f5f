"""Why an allowed cloud gave no row: every cloud the workload allows is either in the table or
named with the constraint that removed its last offerings (`Resolution.clouds`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from profiles.candidate import Candidate
from profiles.catalog.offering import Offering
from profiles.explain import CONSTRAINTS

# What failing each constraint means for a whole cloud, when no offering's own numbers say more.
WHY = {
    "provider": "not in `providers`",
    "region": "no offering in the `regions` asked",
    "jurisdiction": "no offering in a mainland-China region",
    "platform": "runs none of its offerings on the `platform` asked",
    "accelerator": "sells none of the accelerators asked",
    "gpus_per_node": "no offering with the per-node GPU count asked",
    "gpu_memory": "no offering with the GPU memory asked",
    "interconnect": "no offering of these accelerators has an RDMA fabric (EFA, InfiniBand, GPUDirect, eRDMA)",
    "price": "no offering of these accelerators has a price for the purchase asked",
    "file_system": "cannot create the file system asked",
    "data": "cannot link the dataset asked",
    "job": "its nodes cannot run the job asked",
    "memory_fit": "the model does not fit its GPUs",
    "batch": "the global batch is too small for its smallest cluster",
    "throughput": "no sourced speed for its accelerators",
    "run_time": "the work takes longer than the run-time limit",
}


def clouds_without_rows(
    allowed: Sequence[str],
    offerings: Iterable[Offering],
    found: Iterable[Candidate],
    failed: dict[str, list[Offering]],
    details: dict[tuple[str, str], str],
) -> dict[str, str]:
    """Allowed cloud -> why it gave no row: the deepest constraint its offerings reached (the
    one that removed the last of them), with its count and the first offering's own numbers
    where the check gave any (`details`, by (cloud, constraint)); a cloud with no offering in
    the catalog says so.

    Args:
        allowed: the clouds the workload allows (its `providers`, else every cloud).
        offerings: the catalog searched.
        found: the rows kept.
        failed: constraint -> the offerings it removed.
        details: (cloud, constraint) -> the first removed offering's numbers.
    """
    with_rows = {c.offering.provider for c in found}
    listed = {o.provider for o in offerings}
    gaps: dict[str, str] = {}
    for cloud in allowed:
        if cloud in with_rows:
            continue
        if cloud not in listed:
            gaps[cloud] = (
                f"no priced offering in the catalog (`trainstack catalog info`; refresh with "
                f"`trainstack catalog refresh --provider {cloud}`)"
            )
            continue
        reached = {k: [o for o in v if o.provider == cloud] for k, v in failed.items()}
        reached = {k: v for k, v in reached.items() if v}
        if not reached:
            continue
        deepest = max(reached, key=CONSTRAINTS.index)
        detail = details.get((cloud, deepest))
        reason = WHY.get(deepest, deepest)
        why = f"{reason} ({detail})" if detail else reason
        gaps[cloud] = f"{deepest}: {why}; {len(reached[deepest])} offerings removed by it"
    return gaps
