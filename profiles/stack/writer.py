"""Write a resolved choice as a Pulumi stack file (`stacks/Pulumi.<name>.yaml`).

The file holds the provider-neutral cluster config under `trainstack:cluster`, the
provider's own region key, and a header comment with the price and catalog version. The
header carries a checksum of the body, so a later `--write-stack` can tell a generated
file from a hand-edited one and refuses to overwrite edits unless forced. The file is
written (and read back) by `profiles.stack.file`.
"""

from __future__ import annotations

import math
import shlex
from typing import Literal

import yaml

from clouds.capacity import capacity_problem
from clouds.config import CONFIG_KEY, provider_region_key
from clouds.contract import ClusterConfig, Commitment, FileSystemConfig
from clouds.filesystems import explicit_deployment_type
from clouds.healing import writes_queued_resource
from clouds.registry import NAMES
from clouds.reservation import ReservationConfig
from profiles.catalog.platform_rows import makes_file_system, zone_said
from profiles.cost.cluster_cost import cluster_cost
from profiles.cost.commitment import commitment_note
from profiles.resolver import Candidate
from profiles.spec import WorkloadSpec
from profiles.stack.carry_over import keep_cluster_settings, keep_zone, kept_settings
from profiles.stack.fallbacks import group_fallback_types, group_fallback_zones
from profiles.stack.file import (
    FALLBACKS_KEY,
    STACK_NAME,
    StackFileError,
    digest,
    is_hand_edited,
    stack_path,
    write_stack,
)

# Reading, validating and writing stack files lives in `profiles.stack.file`, what a rewrite keeps
# of the old file in `profiles.stack.carry_over`; these names stay importable from here for callers
# of the writer.
StackWriteError = StackFileError
__all__ = ["STACK_NAME", "StackWriteError", "cluster_config", "is_hand_edited", "keep_cluster_settings"]
__all__ += ["keep_zone", "kept_settings", "render_stack", "stack_path", "write_stack"]

# The candidate purchases priced as a reserved term (`Candidate.purchase`); any other is "none".
_COMMITMENTS: dict[str, Commitment] = {"reserved-1y": "1y", "reserved-3y": "3y"}


# The cluster fields a stack takes from the chosen offering as they are.
_FROM_OFFERING = ("provider", "region", "zone", "instance_type", "accelerator", "accelerator_count")


def cluster_config(
    spec: WorkloadSpec, candidate: Candidate, catalog_version: str, ranked: tuple[Candidate, ...] = ()
) -> ClusterConfig:
    """The provider-neutral cluster config for a resolved candidate.

    The file-system capacity is rounded up to whole GiB; each component rounds further to
    a size its service accepts. Reserved terms launch on-demand (the term is billing only)
    and held capacity is written as `reservation:` with its kind, placement group and size. An offering without an RDMA fabric
    (chosen for a single node) is written with `interconnect: none`. A pick its cloud requests as
    queued resources (`clouds.healing.writes_queued_resource`: GCP TPU spot slices, re-requested
    by the cluster's controller when preempted) is written with `queued_resource: true`, a flex-start
    pick with `flex_start: true` (on-demand nodes of one type, no fallback types). With
    `ranked` (every candidate, rank order) a VM pick's node group's `fallback_types` are the types its
    cloud's group can hold beside the pick (`profiles.stack.fallbacks.group_fallback_types`).
    """
    o = candidate.offering
    purchase: Literal["spot", "on-demand"] = "spot" if candidate.purchase == "spot" else "on-demand"
    file_system = None
    if spec.file_system and makes_file_system(o):  # a managed platform keeps its own storage (but HyperPod)
        file_system = FileSystemConfig(
            # the workload's capacity, or the larger one the row sized up to feed the GPUs
            capacity_gib=math.ceil(candidate.fs_capacity_gib or spec.file_system.capacity_gib),
            # the tier the row buys: the workload's, or a faster one that made the job cheaper
            throughput_mbps_per_tib=candidate.throughput or spec.file_system.throughput_mbps_per_tib,
        )
        # A service that gives less throughput than asked is written as an explicit choice.
        explicit = explicit_deployment_type(o.provider, file_system)
        if explicit:
            file_system = file_system.model_copy(update={"deployment_type": explicit})
    config = ClusterConfig(
        **{name: getattr(o, name) for name in _FROM_OFFERING},
        nodes=candidate.nodes,
        purchase=purchase,
        commitment=_COMMITMENTS.get(candidate.purchase, "none"),
        commitment_reuse=spec.commitment.reuse if spec.commitment and candidate.purchase in _COMMITMENTS else None,
        reservation=_reservation(candidate),
        block_nodes=candidate.block_nodes,
        interconnect=spec.interconnect if o.rdma else "none",
        hours=candidate.hours,  # unrounded: plan prices these hours, and must give resolve's USD/job
        deadline_hours=spec.deadline_hours,
        usd_per_hour=round(candidate.usd_per_hour, 6),
        catalog_version=catalog_version,
        file_system=file_system,
        data=spec.data.config() if spec.data else None,
        job=spec.job,
        platform=None if o.platform == "vm" else o.platform,  # always set: a rewrite never keeps the old one
    )
    if purchase == "spot" and spec.spot is not None and spec.spot.on_demand_after_hours is not None:
        minutes = max(1, round(spec.spot.on_demand_after_hours * 60))
        config = config.model_copy(update={"on_demand_after_minutes": minutes})
        if problem := capacity_problem(config):  # no fallback, or no head; in the workload's words throughout
            raise ValueError(problem.replace("on_demand_after_minutes", "spot.fallback"))
    if candidate.purchase == "flex-start":  # one resize request of one type, at the flex-start price
        return config.model_copy(update={"flex_start": True})
    if spec.purchase in ("any", "flex-start"):  # flex-start was ranked and not picked: a rewrite drops it
        config = config.model_copy(update={"flex_start": False})
    # a platform's pool is one type in one place (an AmlCompute size, a HyperPod instance group, a
    # training job's instance type): no fallback types or zones
    if ranked and candidate.reservation is None and not candidate.reservation_id and o.platform == "vm":
        types = group_fallback_types(candidate, ranked, spec.interconnect)
        config = config.model_copy(update={"fallback_types": types})
        config = config.model_copy(update={"fallback_zones": group_fallback_zones(candidate, ranked, config)})
    if spec.node_image is not None:  # set only when given: a rewrite keeps the stack's own value
        config = config.model_copy(update={"node_image": spec.node_image})
    # Set only when true: otherwise a rewrite keeps the stack's own value (`keep_cluster_settings`).
    if writes_queued_resource(o.provider, o.instance_type, purchase):
        return config.model_copy(update={"queued_resource": True})
    return config


def _reservation(candidate: Candidate) -> ReservationConfig | None:
    """The stack's `reservation:` for a held-capacity candidate (kind, id, placement group,
    size, zone from the spec), else None."""
    if candidate.reservation is not None:
        return candidate.reservation.config()
    return ReservationConfig(id=candidate.reservation_id) if candidate.reservation_id else None


def render_stack(
    config: ClusterConfig,
    workload: str,
    catalog_built: str,
    usd_per_cny: float | None = None,
    kept: dict | None = None,
    on_demand_usd_per_hour: float | None = None,
    fallbacks: list[dict] | None = None,
) -> str:
    """Stack file text for `config`: header comment (price part by part, catalog, checksum)
    and YAML body.

    The header's figures come from `profiles.cost.cluster_cost`, the same home as `trainstack
    plan`'s and the budget policy's: USD/hour and USD per job with compute, file system and
    bucket requests stated per part, and a `# Cost note:` line for each part left out.

    Args:
        usd_per_cny: the catalog's USD per CNY, for a file system priced in CNY (else left out).
        kept: the existing stack file's own settings to carry over (see `kept_settings`).
        on_demand_usd_per_hour: the nodes' on-demand price, whole cluster, USD/hour: what a
            commitment stack bills without the commitment (`profiles.cost.commitment`).
        fallbacks: the rows the stack may move to on no capacity (`profiles.stack.fallbacks`), written
            under `trainstack:fallbacks` (an empty list removes the key); None keeps the file's own.

    Raises:
        TypeError: the cluster has no `usd_per_hour` (price it first).
    """
    if config.usd_per_hour is None:  # the header below formats the price, which fails on None
        raise TypeError(f"render_stack: the {config.provider} cluster has no usd_per_hour; price it first")
    cost = cluster_cost(config, config.usd_per_hour, usd_per_cny)
    cluster = config.model_dump(mode="json", exclude_none=True)
    for key in ("fallback_types", "fallback_zones", "flex_start"):  # one type, one zone, no flex: left out
        if not cluster.get(key):
            cluster.pop(key, None)
    region_key = provider_region_key(config.provider)
    kept = kept or {}
    # Every cloud's region key goes: a cluster moved to another cloud (`--force`) must not keep
    # the old cloud's `aws:region` beside the new `gcp:region`.
    region_keys = {provider_region_key(name) for name in NAMES} | {region_key}
    own = {k: v for k, v in (kept.get("config") or {}).items() if k not in region_keys and k != CONFIG_KEY}
    if fallbacks is not None:
        own.pop(FALLBACKS_KEY, None)
        if fallbacks:
            own[FALLBACKS_KEY] = fallbacks
    top = {k: v for k, v in kept.items() if k != "config"}
    body = yaml.safe_dump(
        {**top, "config": {region_key: config.region, CONFIG_KEY: cluster, **own}},
        sort_keys=False,
        default_flow_style=False,
    )
    kept_rows = fallbacks if fallbacks is not None else (kept.get("config") or {}).get(FALLBACKS_KEY) or []
    term = "" if config.commitment == "none" else f" (priced at a {config.commitment} commitment's rate)"
    committed = commitment_note(config, on_demand_usd_per_hour)
    header = (
        f"# Written by `trainstack resolve {shlex.quote(workload)} --write-stack`; review with `pulumi preview`.\n"
        f"# Choice: {config.provider}{'/' + config.platform if config.platform else ''} {config.instance_type} "
        f"x{config.nodes} {'flex-start' if config.flex_start else config.purchase}{term} in "
        f"{config.region} ({zone_said(config.provider, config.platform, config.zone)}).\n"
        f"# Cost: {cost.hourly_text()}; {cost.job_text()}.\n"
        + "".join(f"# Cost note: {line}.\n" for line in ([committed] if committed else []) + list(cost.left_out))
        + fallback_note(config, kept_rows)
        + f"# Catalog {config.catalog_version} (built {catalog_built}). Hand edits are kept: "
        f"resolve will not overwrite them without --force.\n"
    )
    return f"{header}# trainstack-checksum: sha256:{digest(body)}\n{body}"


def fallback_note(config: ClusterConfig, rows: list[dict]) -> str:
    """`# Fallback: ...` header lines: the group's other types, and the stack's fallback rows
    with the job's hours and compute cost on the last of them; "" when it has neither."""
    lines = []
    if config.fallback_types:
        lines.append(f"# Fallback: the node group also launches {', '.join(config.fallback_types)} (rank order).\n")
    if config.fallback_zones:
        lines.append(f"# Fallback: the node group also launches in {', '.join(config.fallback_zones)}.\n")
    if config.on_demand_after_minutes is not None:
        lines.append(
            f"# Fallback: on-demand fills the group after {config.on_demand_after_minutes} min short of spot.\n"
        )
    if rows:
        last = rows[-1]
        lines.append(
            f"# Fallback: {len(rows)} row(s) for `trainstack up`; on the last ({last.get('instance_type')} "
            f"{last.get('purchase')} in {last.get('zone')}) the job takes {last.get('hours', 0):,.1f} h and its "
            f"compute costs ${last.get('usd_per_hour', 0) * last.get('hours', 0):,.2f}.\n"
        )
    return "".join(lines)
