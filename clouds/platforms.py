"""Managed training platforms (SageMaker, Azure ML, ModelArts, PAI, TI-ONE) as cloud capabilities.

A platform belongs to one cloud: it is declared under `platforms:` in that cloud's
`clouds/<cloud>/cloud.yaml` (read by `clouds.cloud_file`), and every cross-cutting answer
(the workload's valid `platform:` words, the resolver's managed rows, the pool component and
the job submitter of a stack) is derived from those declarations here, naming no cloud.

`vm` is the cloud's own nodes (the `GpuCluster` component, the node agent): every cloud has it
and no cloud declares it. `any` asks for VM and managed rows side by side.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

VM = "vm"
ANY = "any"


@dataclass(frozen=True)
class Platform:
    """One managed training platform of one cloud.

    Attributes:
        name: the workload's and the stack's `platform:` word (`sagemaker`).
        display_name: the name users know (`Amazon SageMaker`).
        price_factor: the platform's price of a node as a multiple of the cloud's VM price for
            the same instance type (1.0: billed at the VM price).
        price_basis: where `price_factor` comes from: a source (id or address) or, when no
            source gives it, `assumed: ...` with the error stated. Never silently 1.0.
        spot: how the platform buys spare capacity (`managed spot training`), or "" when it
            has none: its rows are on-demand only.
        spot_factor: the platform's spot price as a multiple of the VM's spot price.
        restart_hours: hours from an interruption to the job running again on the platform.
        restart_basis: the source of `restart_hours`, or `assumed: ...`.
        on_interruption: what the platform does when a node is lost (one line for `resolve`).
        adds: what the platform gives that the cloud's VMs do not (scale to zero, a job queue,
            health checks), each a short phrase for the row's reason.
        instance_prefix: what the platform puts before the VM's instance type (`ml.`).
        types: instance-type prefixes the platform offers (`p4d.`), empty: every GPU type.
        pool: `"module:Class"` of the pool component (the long-lived cluster in the stack).
        validator: `"module:function"` of the pool's `validate(args, name)` (pure, no Pulumi):
            raises `ValueError` (one line naming the field) for a stack its pool cannot build;
            `plan`, `--write-stack` and the pool component all call it (`clouds.registry.validator`).
        submit: `"module:function"` of the job submitter `trainstack run` calls.
        live_check: `"module:function"` of the platform's own preflight (`trainstack check`),
            `(cluster, session, quotas, name) -> [Finding]`, run instead of the cloud's
            `Cloud.live_check` (whose VM quotas and zone offerings do not govern the platform's
            instances), and with no VM capacity signals; "" keeps the cloud's.
        sdk: the distribution the pool component needs, named when it is missing.
        extra: the `trainstack[...]` extra that installs it.
        own_mlflow: True when the platform's jobs run with its own MLflow tracking URI set
            (`job.tracking: {mlflow: managed}` needs nothing more; `clouds.tracking`).
        managed_mlflow: True when the pool component creates the platform's managed MLflow
            tracking server for `job.tracking: {mlflow: managed}` and the submitter points the
            job at it (SageMaker).
        file_system: True when the pool mounts the stack's parallel file system on its nodes
            (the workload's `file_system` is kept, created and priced as on VMs: HyperPod's
            FSx for Lustre); False: the platform keeps its own storage and none is created.
        status: `"module:function"` reading the pool's live state for `trainstack status`
            (`(cluster, stack, settings) -> [GroupStatus]`, as `trainstack.status.<cloud>_live`),
            or "" for a platform whose pool has no nodes of its own to read.
        max_job_hours: the longest one job runs on the platform before the platform stops it,
            hours (None: no limit); a longer job runs as several jobs, each resuming from its
            checkpoints (`profiles.catalog.platform_rows.job_limit_note`).
        max_job_basis: the source of `max_job_hours`.
        rows: the platform's own catalog rows (hardware only it sells: Ascend pools), each a
            mapping of `profiles.catalog.offering.Offering` fields with CNY or USD prices.
        picks_zone: True when the platform places each job in a zone of the region itself (the
            request names no zone or subnet: SageMaker training jobs): its rows are one per
            region (zone = region), priced at the dearest zone's VM price, and its stacks name
            no zone (`profiles.catalog.platform_rows.region_row`).
    """

    name: str
    display_name: str
    price_factor: float
    price_basis: str
    restart_hours: float
    restart_basis: str
    on_interruption: str
    adds: tuple[str, ...] = ()
    spot: str = ""
    spot_factor: float = 1.0
    instance_prefix: str = ""
    types: tuple[str, ...] = ()
    pool: str = ""
    validator: str = ""
    submit: str = ""
    live_check: str = ""
    sdk: str = ""
    extra: str = ""
    rows: tuple[Mapping[str, Any], ...] = field(default_factory=tuple)
    own_mlflow: bool = False
    managed_mlflow: bool = False
    file_system: bool = False
    status: str = ""
    max_job_hours: float | None = None
    max_job_basis: str = ""
    picks_zone: bool = False

    def offers(self, instance_type: str) -> bool:
        """True when the platform runs the cloud's `instance_type` nodes."""
        return not self.types or instance_type.startswith(self.types)

    def instance_name(self, instance_type: str) -> str:
        """The instance type as the platform's API spells it (`ml.p4d.24xlarge`)."""
        return instance_type if instance_type.startswith(self.instance_prefix) else self.instance_prefix + instance_type

    @property
    def assumed(self) -> bool:
        """True when the platform's price is an explicit estimate, not a sourced figure."""
        return self.price_basis.startswith("assumed")

    def note(self) -> str:
        """What the platform does on an interruption, for the row's spot note."""
        return f"{self.display_name}: on interruption {self.on_interruption} ({self.restart_hours:g} h, {self.restart_basis})"

    def price_note(self) -> str:
        """The row's price note: the factor over the VM price and where it comes from."""
        return f"{self.display_name} price {self.price_factor:g}x the VM's: {self.price_basis}"


def read_platforms(raw: Mapping[str, Mapping[str, Any]]) -> dict[str, Platform]:
    """`platforms:` of a `cloud.yaml` (name -> `Platform` fields) as `Platform` objects.

    Raises:
        ValueError: a platform named `vm` or `any` (words every workload has), an unknown
            field, or a `price_factor` of zero or less (a premium is never zero or free).
    """
    found: dict[str, Platform] = {}
    for name, fields in raw.items():
        if name in (VM, ANY):
            raise ValueError(f"platforms: '{name}' is every cloud's word; name the platform itself")
        values = dict(fields)
        for key in ("adds", "types"):
            values[key] = tuple(values.get(key, ()))
        values["rows"] = tuple(values.get("rows", ()))
        platform = Platform(name=name, **values)
        if platform.price_factor <= 0 or platform.spot_factor <= 0:
            raise ValueError(f"platforms.{name}.price_factor: must be above 0 (an estimate, never free)")
        found[name] = platform
    return found
