"""Sanity, not silence: a stack whose size is far beyond what its GPUs suggest gets a warning.

A hand-edited stack can ask for anything the clouds accept (`nodes: 5000`, a 10 PB file system)
and `plan` prices it faithfully; these rules say, in one line each, when a size looks like a
slip of the finger rather than a plan. They warn (in `plan`, its JSON and `check`); a budget
(`trainstack:max_usd_per_hour`) refuses a stack by its price, and a stack that sets
`trainstack:refuse_oversized: true` has the budget rule (plan, check, the policy pack) refuse
these warnings (`policies.stack_rules.oversized`).

The rules and their thresholds (trainstack's choices, not sourced figures):

- nodes: more than `MAX_SANE_NODES` (64: the most nodes `resolve` ever considers on its own,
  `nodes: auto`; a larger cluster is rare enough to be worth a second look);
- file system: it costs more per hour than the nodes it feeds (`MAX_STORAGE_SHARE` 1.0: a
  training cluster's shared file system is normally a fraction of its GPU bill, e.g. the
  example stacks' FSx is $1.53/h beside $4.93/h of nodes), or, when unpriced, it holds more
  than `MAX_GIB_PER_GPU` per GPU (10 TiB: four times the largest example's 2.4 TiB per GPU);
- file system below its data: the capacity the cloud creates (after its rounding) holds less
  than the stack's `data.size_gib`. The workload refuses this outright (`profiles.spec.rules`:
  `file_system.capacity` below the data); a stack edited by hand gets this warning, because
  such a file system cannot keep the dataset and every pass reads the bucket again (which is
  how `profiles.cost.requests.bucket_passes` prices it).
"""

from __future__ import annotations

import math

from profiles.spec.rules import AUTO_MAX_NODES

MAX_SANE_NODES = AUTO_MAX_NODES  # 64 nodes: the most `nodes: auto` considers
MAX_STORAGE_SHARE = 1.0  # file-system USD/hour over node USD/hour
MAX_GIB_PER_GPU = 10 * 1024  # 10 TiB of file system per GPU, when the file system is unpriced


def sanity_warnings(
    nodes: int,
    gpus_per_node: int,
    compute_usd_per_hour: float | None,
    storage_usd_per_hour: float | None,
    capacity_gib: float | None,
    budget_usd_per_hour: float | None = None,
    data_gib: float | None = None,
    created_gib: float | None = None,
) -> list[str]:
    """One `warning:` line per size far beyond what the cluster's GPUs suggest (see the module
    docstring for the rules).

    Args:
        nodes: the stack's node count.
        gpus_per_node: accelerators per node.
        compute_usd_per_hour: the nodes' price, USD/hour (whole cluster), or None.
        storage_usd_per_hour: the file system's price, USD/hour, or None (none or unpriced).
        capacity_gib: the file system's capacity, GiB, or None without one.
        budget_usd_per_hour: the stack's `trainstack:max_usd_per_hour`, or None when unset
            (the nodes line then suggests setting it; when set, it names it instead).
        data_gib: the dataset's size, GiB (`data.size_gib`), or None when not given.
        created_gib: the capacity the cloud creates for the file system, GiB (after its
            rounding, `clouds.filesystems.provisioned_gib`); None: `capacity_gib` as asked.
    """
    from clouds.words import usd

    lines = []
    if nodes > MAX_SANE_NODES:
        bill = f" ({usd(compute_usd_per_hour)}/hour for the nodes)" if compute_usd_per_hour is not None else ""
        cap = (
            "or set trainstack:max_usd_per_hour to cap it"
            if budget_usd_per_hour is None
            else f"its budget is {usd(budget_usd_per_hour)}/hour (trainstack:max_usd_per_hour)"
        )
        lines.append(
            f"warning: nodes: {nodes:,} is far beyond the {MAX_SANE_NODES} nodes trainstack ever picks on its "
            f"own{bill}; check the stack's nodes (a typo?), {cap}"
        )
    if capacity_gib is None:
        return lines
    held = capacity_gib if created_gib is None else max(created_gib, capacity_gib)
    if data_gib is not None and held < data_gib:
        lines.append(
            f"warning: file_system: {held:,.0f} GiB cannot hold the {math.ceil(data_gib):,} GiB of data "
            "(data.size_gib), so every pass reads the bucket again; raise file_system.capacity_gib to at least "
            f"{math.ceil(data_gib)} (or check data.size_gib)"
        )
    if storage_usd_per_hour is not None and compute_usd_per_hour:
        if storage_usd_per_hour > MAX_STORAGE_SHARE * compute_usd_per_hour:
            lines.append(
                f"warning: file_system: {capacity_gib:,.0f} GiB costs {usd(storage_usd_per_hour)}/hour, more than "
                f"the {nodes} x {gpus_per_node} GPUs it feeds ({usd(compute_usd_per_hour)}/hour); check "
                "file_system.capacity_gib (a unit slip? GiB, TiB and PB differ by 1,024 and more)"
            )
    elif capacity_gib > MAX_GIB_PER_GPU * nodes * gpus_per_node:
        lines.append(
            f"warning: file_system: {capacity_gib:,.0f} GiB is more than {MAX_GIB_PER_GPU // 1024} TiB per GPU for "
            f"{nodes} x {gpus_per_node} GPUs; check file_system.capacity_gib (a unit slip?)"
        )
    return lines


def stack_warnings(
    config, compute_usd_per_hour: float | None, usd_storage: float | None, budget_usd_per_hour: float | None = None
) -> list[str]:
    """`sanity_warnings` for a stack's cluster `config` (a `ClusterConfig`) as priced: the nodes'
    USD/hour and the file system's USD for the run (`config.hours`), as `plan` and `check`
    compute them (`profiles.stack.price`), with the stack's budget (USD/hour) when set, and
    its dataset (`data.size_gib`) against the capacity its cloud creates."""
    from clouds.filesystems import provisioned_gib

    fs = config.file_system
    hours = config.hours
    storage = usd_storage / hours if usd_storage is not None and hours else None
    return sanity_warnings(
        config.nodes,
        config.accelerator_count,
        compute_usd_per_hour,
        storage,
        None if fs is None else fs.capacity_gib,
        budget_usd_per_hour,
        None if config.data is None else config.data.size_gib,
        None if fs is None else provisioned_gib(config.provider, fs),
    )
