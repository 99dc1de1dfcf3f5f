"""The provider-neutral cluster contract shared by every GPU cluster component.

`trainstack resolve --write-stack` writes a `ClusterConfig` under the stack key
`trainstack:cluster`; `__main__.py` reads it back, validates it and hands it to the
component registered for `provider`. Every component exposes the same public outputs,
named in `OUTPUT_NAMES`.

This module imports no Pulumi code, so the resolver can build a config without loading
the engine or any cloud SDK.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from clouds.cluster_rules import check_cluster
from clouds.data_config import DataConfig
from clouds.field_errors import example_of
from clouds.file_system_config import FileSystemConfig
from clouds.job_config import JobConfig
from clouds.reservation import ReservationConfig, reservation_shorthand
from facts.limits import MAX_HOURS

CONFIG_NAMESPACE = "trainstack"
CLUSTER_KEY = "cluster"
# The reserved term a stack's price assumes ("none": on-demand or spot prices).
Commitment = Literal["none", "1y", "3y"]

# Public outputs every component registers and exposes as attributes (same names).
OUTPUT_NAMES: tuple[str, ...] = (
    "node_ids",
    "node_private_ips",
    "placement_group",
    "file_system_dns",
    "file_system_mount_name",
    "usd_per_hour",
    # the command that mounts the file system at `clouds.mounts.SHARED_MOUNT` on another host of
    # the network, as the nodes mount it; None where the cloud's nodes do not mount it
    "file_system_mount_command",
)


_NUMBERS = ("accelerator_count", "nodes", "hours", "deadline_hours", "usd_per_hour", "commitment_reuse")


class ClusterConfig(BaseModel):
    """One GPU training cluster, as resolved and written to a stack file.

    Attributes:
        provider: registry name of the cloud (`aws`, ...).
        region: provisioning-API region name (`us-east-1`).
        zone: zone to place every node in. On AWS this is the availability-zone ID
            (`use1-az4`), which names the same physical zone in every account.
        instance_type: the cloud's instance/VM size (`p4d.24xlarge`).
        accelerator: normalized accelerator name (`A100`, `A100-80GB`, `H100`).
        accelerator_count: accelerators per node.
        nodes: number of nodes.
        purchase: `spot` or `on-demand` (how the instances are launched).
        commitment: `1y`/`3y` when the price assumes a reserved term or savings plan
            (billing only: the instances still launch on-demand), `none` otherwise.
        commitment_reuse: the workload's `commitment.reuse` (0-1, the fraction of the term's
            unused rest other work will use), recorded so the stack states the job's share of
            the term; None when not recorded (an older stack) or without a commitment.
        interconnect: `rdma` enables the cloud's RDMA fabric (EFA, InfiniBand,
            GPUDirect); `none` leaves plain Ethernet.
        hours: planned run time in hours, used for the job total.
        deadline_hours: the workload's latest acceptable run time, hours, or None; `plan`
            and the review say so when `hours` exceeds it.
        usd_per_hour: compute price of the nodes in USD/hour at resolve time (the file system
            and bucket requests are priced apart: `profiles.cost.cluster_cost`); None in a stack
            written by hand for an offering the catalog has no USD price for (the Chinese
            clouds' list prices come from their price APIs; china-clouds.md section 0).
        catalog_version: version of the price catalog the price came from.
        file_system: the shared parallel file system, or None for none.
        ssh_cidrs: IPv4 CIDRs allowed to reach SSH (port 22); empty means no SSH rule.
            Each must be written as a network (`203.0.113.7/32` for one address); the whole
            internet, blocks wider than /8 and IPv6 are refused (`clouds.cidrs`).
        subnet_id: an existing subnet to use instead of creating a network.
        reservation: held capacity to launch into and what kind it is (a targeted
            capacity reservation or an AWS Capacity Block, in its own placement group or
            none; `clouds.reservation`), or None. `capacity_reservation_id: X` is accepted
            as shorthand for `reservation: {id: X}` and stays readable as a property, and
            `reservations: [one]` (as the workload spec spells it) as `reservation: one`.
        queued_resource: TPU slices (GCP) are requested as queued resources rather than
            created as TPU VMs: the component creates the rest of the cluster and an on-demand
            controller VM that creates each slice's queued resource and re-requests one a spot
            preemption left SUSPENDED (`clouds.gcp.queued`). False: the slices are TPU VMs in
            the stack, and a preempted spot slice is not replaced.
        tags: extra cost-allocation tags/labels applied to every resource.
        ssh_public_key: OpenSSH public key for the admin user where the cloud needs one
            (Azure); None lets the component generate a key pair and export the private
            key only as a Pulumi secret.
        kms_key_id: KMS key id to encrypt node disks and the file system with, for clouds
            that encrypt only with a customer key (Huawei Cloud: ECS system disks and SFS
            Turbo); None leaves them unencrypted there. Every other cloud's component
            refuses it: they encrypt with a managed key, or cannot encrypt at all.
        job: the training job every node runs under torchrun, with a rendezvous on an
            on-demand head node; None = the cluster comes up without one.
        data: the job's dataset in the team's bucket, linked to the file system where the
            cloud can (`clouds.data`), or None.
        fallback_types: further instance types the node group may launch, in rank order, when
            `instance_type` has no capacity (same accelerator count and interconnect class; the
            cloud's own multi-type group feature: `clouds.capacity`); empty: one type.
        fallback_zones: further zones of the region the node group may launch in when `zone`
            has no capacity, for a cluster with no placement group (`clouds.capacity.zones_problem`).
        flex_start: the nodes come from one Dynamic Workload Scheduler flex-start request,
            created all at once when capacity is there, for at most 7 days (`clouds.gcp.flex_start`).
        on_demand_nodes: with `purchase: spot`, nodes the group keeps on-demand (never evicted)
            beside the spot ones, the cloud's own mix (`clouds.capacity.mix_problem`); None: all spot.
        block_nodes: with a Capacity Block `reservation`, the nodes that run in the block, in a
            node group of their own; the other `nodes - block_nodes` run beside them in the node
            group as `purchase` (spot or on-demand, with `fallback_types`), the same placement
            group and fabric (`clouds.capacity.block_problem`). None: every node in the block.
        on_demand_after_minutes: with `purchase: spot`, minutes the group may stay below size
            before on-demand capacity of the same shape fills the gap (`clouds.capacity`); None:
            spot only.
        platform: the cloud's managed platform the cluster is a pool of (`clouds.platforms`:
            `azureml`, `sagemaker`, `modelarts`, ...), whose pool component the program builds
            and whose service `trainstack run` submits the job to; None: the cloud's own VMs.
        node_image: the nodes' OS image id where the platform publishes no default (a PAI
            Lingjun node group's `image_id`, from the Lingjun console); None elsewhere.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, defer_build=True)

    @model_validator(mode="before")
    @classmethod
    def _no_yes_no_numbers(cls, data: object) -> object:
        """`nodes: true` is a YAML yes/no, not 1: refuse booleans where numbers go; a single
        `ssh_cidrs` string is a one-item list."""
        if isinstance(data, dict) and isinstance(data.get("ssh_cidrs"), str):
            data = {**data, "ssh_cidrs": [data["ssh_cidrs"]]}
        if isinstance(data, dict) and ("capacity_reservation_id" in data or "reservations" in data):
            data = reservation_shorthand(data)
        purchase = str(data.get("purchase", "")).strip().lower() if isinstance(data, dict) else ""
        if purchase in ("reserved-1y", "reserved-3y"):  # `resolve`'s purchase column for a priced term
            term = purchase.removeprefix("reserved-")
            raise ValueError(
                f"purchase: '{data['purchase']}' is how resolve names on-demand nodes priced under a {term} "  # type: ignore[index]
                f"commitment; write purchase: on-demand and commitment: {term}"
            )
        if isinstance(data, dict):
            for key in _NUMBERS:
                if isinstance(data.get(key), bool):
                    example = example_of(cls.model_fields[key])  # within the field's bounds (reuse: at most 1)
                    raise ValueError(
                        f"{key}: expected a number, got {str(data[key]).lower()}; write e.g. {key}: {example}"
                    )
        return data

    provider: str = Field(description="Cloud registry name (one of `clouds.registry.NAMES`).")
    region: str = Field(min_length=1, description="Region name as the provisioning API spells it.")
    zone: str = Field(min_length=1, description="Zone (AWS: availability-zone ID).")
    instance_type: str = Field(min_length=1, description="Instance or VM size.")
    accelerator: str = Field(min_length=1, description="Normalized accelerator name.")
    accelerator_count: int = Field(ge=1, description="Accelerators per node.")
    nodes: int = Field(ge=1, le=10_000, description="Number of nodes.")
    purchase: Literal["spot", "on-demand"] = Field(description="Purchase option.")
    commitment: Commitment = Field(default="none", description="Priced reserved term.")
    commitment_reuse: float | None = Field(
        default=None, ge=0, le=1, description="Fraction (0-1) of the term's rest other work uses.", examples=[0.8]
    )
    interconnect: Literal["none", "rdma"] = Field(default="rdma", description="Node-to-node fabric.")
    hours: float = Field(gt=0, le=MAX_HOURS, description="Planned run time, hours (at most 3 years).")
    deadline_hours: float | None = Field(default=None, gt=0, description="Latest acceptable run time, hours.")
    usd_per_hour: float | None = Field(
        default=None,
        ge=0,
        allow_inf_nan=False,
        description=(
            "Compute price of the nodes, USD/hour (no file system or bucket requests: `plan` adds those; 0 for "
            "prepaid capacity; None when no USD price is known)."
        ),
    )
    catalog_version: str = Field(default="unknown", description="Price catalog version.")
    file_system: FileSystemConfig | None = Field(default=None, description="Shared file system.")
    ssh_cidrs: tuple[str, ...] = Field(default=(), description="CIDRs allowed to SSH (port 22).")
    subnet_id: str | None = Field(default=None, description="Existing subnet to use.")
    reservation: ReservationConfig | None = Field(default=None, description="Held capacity to launch into.")
    queued_resource: bool = Field(default=False, description="TPU slices requested as queued resources.")
    tags: dict[str, str] = Field(default_factory=dict, description="Extra cost tags/labels.")
    ssh_public_key: str | None = Field(default=None, description="Admin OpenSSH public key.")
    kms_key_id: str | None = Field(
        default=None,
        min_length=1,
        pattern=r"^\S+$",
        description="KMS key id to encrypt node disks and the file system with, for clouds that "
        "encrypt only with a customer key (Huawei Cloud).",
    )
    job: JobConfig | None = Field(default=None, description="Training job run on every node.")
    data: DataConfig | None = Field(default=None, description="Dataset in the team's bucket.")
    fallback_types: tuple[str, ...] = Field(default=(), description="Further node types, rank order.")
    fallback_zones: tuple[str, ...] = Field(default=(), description="Further zones, for a group with no placement.")
    flex_start: bool = Field(default=False, description="Nodes from one flex-start resize request.")
    on_demand_nodes: int | None = Field(default=None, ge=1, description="Spot cluster's nodes kept on-demand.")
    block_nodes: int | None = Field(
        default=None, ge=1, description="Nodes in the Capacity Block's own group (the rest bought as `purchase`)."
    )
    on_demand_after_minutes: int | None = Field(
        default=None, ge=1, le=10_080, description="Minutes below size before on-demand fills the gap."
    )
    platform: str | None = Field(default=None, description="Managed platform the cluster is a pool of (None: VMs).")
    node_image: str | None = Field(default=None, min_length=1, description="Nodes' OS image id (PAI Lingjun).")

    def model_post_init(self, __context: object) -> None:
        check_cluster(self)  # the fields that must go together (`clouds.cluster_rules`)

    @property
    def capacity_reservation_id(self) -> str | None:
        """The held reservation's id (or resource group ARN, or GCP name), or None."""
        return self.reservation.id if self.reservation else None

    @property
    def deadline_miss_hours(self) -> float | None:
        """Hours the planned run exceeds the deadline by; None when it meets it or has none."""
        if self.deadline_hours is None or self.hours <= self.deadline_hours:
            return None
        return self.hours - self.deadline_hours

    @property
    def usd_total(self) -> float | None:
        """Compute cost of the nodes over the planned run, USD (usd_per_hour x hours); None when unpriced."""
        return None if self.usd_per_hour is None else self.usd_per_hour * self.hours
