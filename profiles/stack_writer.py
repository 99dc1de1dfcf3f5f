"""Write a resolved choice as a Pulumi stack file (`stacks/Pulumi.<name>.yaml`).

The file holds the provider-neutral cluster config under `trainstack:cluster`, the
provider's own region key, and a header comment with the price and catalog version. The
header carries a checksum of the body, so a later `--write-stack` can tell a generated
file from a hand-edited one and refuses to overwrite edits unless forced.
"""

from __future__ import annotations

import hashlib
import math
import re
from pathlib import Path

import yaml

from clouds.config import CONFIG_KEY, provider_region_key
from clouds.contract import ClusterConfig, FileSystemConfig
from profiles.files import write_atomically
from profiles.resolver import Candidate
from profiles.spec import WorkloadSpec

# The provider package's own config key for the region (what `pulumi config` would set).
_CHECKSUM = re.compile(r"^# trainstack-checksum: sha256:([0-9a-f]{64})\n", re.M)
# Every cloud resource name derives from the stack name (`f"{name}-nodes"`), so it must suit
# the strictest cloud: GCP names are lowercase letters, digits and hyphens starting with a
# letter; Azure caps scale-set names at 64 characters, and the components add suffixes.
STACK_NAME = re.compile(r"^[a-z][a-z0-9-]{0,39}$")


class StackWriteError(ValueError):
    """A stack file cannot be written (message names the file and the fix)."""


def cluster_config(spec: WorkloadSpec, candidate: Candidate, catalog_version: str) -> ClusterConfig:
    """The provider-neutral cluster config for a resolved candidate.

    The file-system capacity is rounded up to whole GiB; each component rounds further to
    a size its service accepts. Reserved terms launch on-demand (the term is billing only)
    and held capacity launches into its reservation id. An offering without an RDMA fabric
    (chosen for a single node) is written with `interconnect: none`.
    """
    o = candidate.offering
    file_system = None
    if spec.file_system:
        file_system = FileSystemConfig(
            capacity_gib=math.ceil(spec.file_system.capacity_gib),
            throughput_mbps_per_tib=spec.file_system.throughput_mbps_per_tib,
        )
    return ClusterConfig(
        provider=o.provider, region=o.region, zone=o.zone, instance_type=o.instance_type,
        accelerator=o.accelerator, accelerator_count=o.accelerator_count, nodes=candidate.nodes,
        purchase="spot" if candidate.purchase == "spot" else "on-demand",
        commitment=candidate.purchase.removeprefix("reserved-") if candidate.purchase.startswith("reserved-") else "none",
        capacity_reservation_id=candidate.reservation_id,
        interconnect=spec.interconnect if o.rdma else "none", hours=round(candidate.hours, 4),
        usd_per_hour=round(candidate.usd_per_hour, 6), catalog_version=catalog_version,
        file_system=file_system, data=spec.data.config() if spec.data else None,
        job=spec.job,
    )


def render_stack(config: ClusterConfig, workload: str, catalog_built: str, usd_storage: float | None = None,
                 kept: dict | None = None) -> str:
    """Stack file text for `config`: header comment (price, catalog, checksum) and YAML body.

    Args:
        usd_storage: the file system's cost for the run, USD, when known; the header then
            gives the job total as compute plus storage.
        kept: the existing stack file's own settings to carry over (see `kept_settings`).
    """
    cluster = config.model_dump(mode="json", exclude_none=True)
    region_key = provider_region_key(config.provider)
    kept = kept or {}
    own = {k: v for k, v in (kept.get("config") or {}).items() if k not in (region_key, CONFIG_KEY)}
    top = {k: v for k, v in kept.items() if k != "config"}
    body = yaml.safe_dump(
        {**top, "config": {region_key: config.region, CONFIG_KEY: cluster, **own}},
        sort_keys=False,
        default_flow_style=False,
    )
    header = (
        f"# Written by `trainstack resolve {workload} --write-stack`; review with `pulumi preview`.\n"
        f"# Choice: {config.provider} {config.instance_type} x{config.nodes} {config.purchase} in "
        f"{config.region} ({config.zone}): ${config.usd_per_hour:,.4f}/hour, "
        f"${config.usd_total:,.2f} compute{_storage_text(usd_storage, config.usd_total)} for {config.hours:g} h.\n"
        f"# Catalog {config.catalog_version} (built {catalog_built}). Hand edits are kept: "
        f"resolve will not overwrite them without --force.\n"
    )
    return f"{header}# trainstack-checksum: sha256:{_digest(body)}\n{body}"


def _storage_text(usd_storage: float | None, usd_compute: float) -> str:
    if usd_storage is None:
        return ""
    return f" + ${usd_storage:,.2f} storage = ${usd_compute + usd_storage:,.2f} per job"


def _digest(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def is_hand_edited(text: str) -> bool:
    """True when a stack file's body no longer matches the checksum it was written with
    (or it has none, i.e. it was not written by trainstack)."""
    match = _CHECKSUM.search(text)
    return match is None or _digest(text[match.end():]) != match.group(1)


def stack_path(project_dir: Path, name: str) -> Path:
    """`<project>/stacks/Pulumi.<name>.yaml`.

    Raises:
        StackWriteError: `name` is empty or not 1-40 lowercase letters, digits and hyphens
            starting with a letter (see `STACK_NAME`).
    """
    if not name:
        raise StackWriteError("stack name: give one, e.g. training-a100; cloud resource names derive from it")
    if not STACK_NAME.fullmatch(name):
        raise StackWriteError(
            f"stack name '{name}': use 1-40 lowercase letters, digits and '-', starting with a letter "
            "(e.g. training-a100); cloud resource names derive from it and GCP and Azure accept no other"
        )
    return project_dir / "stacks" / f"Pulumi.{name}.yaml"


def write_stack(path: Path, text: str, force: bool = False) -> bool:
    """Write a stack file atomically; returns False when the file already had this text.

    Raises:
        StackWriteError: without `force`, the file exists and was edited by hand (or not
            written by trainstack), or the new text moves the cluster to another provider,
            region or zone (which replaces every resource, file system included).
    """
    if path.exists():
        current = path.read_text(encoding="utf-8")
        if current == text:
            return False
        if is_hand_edited(current) and not force:
            why = "edited by hand since trainstack wrote it" if _CHECKSUM.search(current) else "not written by trainstack"
            raise StackWriteError(f"{path}: {why}; pass --force to replace its cluster (its other settings are kept)")
        moved = _placement(current), _placement(text)
        if None not in moved and moved[0] != moved[1] and not force:
            raise StackWriteError(
                f"{path}: the new pick moves the cluster from {' '.join(moved[0])} to {' '.join(moved[1])}, so "
                "`pulumi up` would replace every resource, its file system included; pass --force or write "
                "another stack name"
            )
    write_atomically(path, text)
    return True


def keep_zone(config: ClusterConfig, path: Path) -> ClusterConfig:
    """A region-priced pick (`zone` == `region`, e.g. Alibaba's snapshot rows) keeps the zone
    id the existing stack at `path` names in the same provider and region; other picks, and
    stacks elsewhere, are returned unchanged.
    """
    if config.zone != config.region or not path.exists():
        return config
    placement = _placement(path.read_text(encoding="utf-8"))
    if placement is None or placement[:2] != (config.provider, config.region) or placement[2] == config.region:
        return config
    return config.model_copy(update={"zone": placement[2]})


def kept_settings(path: Path) -> dict:
    """What a rewrite must keep from the stack file at `path`: its top-level keys (e.g. the
    secrets provider's `encryptionsalt`) and every config key but the cluster and its region
    (a budget, `trainstack:previous_names`, secrets, `gcp:project`). `{}` when there is no
    readable file."""
    if not path.exists():
        return {}
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError:
        return {}
    if not isinstance(document, dict):
        return {}
    config = document.get("config")
    return {**document, "config": config if isinstance(config, dict) else {}}


def _placement(text: str) -> tuple[str, str, str] | None:
    """(provider, region, zone) of a stack file's cluster; None when it cannot be read."""
    try:
        cluster = (yaml.safe_load(text) or {})["config"][CONFIG_KEY]
        return str(cluster["provider"]), str(cluster["region"]), str(cluster["zone"])
    except (yaml.YAMLError, KeyError, TypeError):
        return None
