"""The workload spec as the resolver reads it: plain frozen values, no pydantic.

`profiles.spec.parse_spec` returns a `WorkloadSpec` of these, whichever reader validated it:
the fast reader (`profiles.spec_reader`, driven by each field's `Key` below) or the pydantic
models (`profiles.spec_model`, `profiles.cost.work`), whose fields, bounds and rules these
mirror one for one (`tests/profiles/test_spec_reader.py` compares them). Units and meanings
are documented on the pydantic models; the sections only pydantic reads (`job`, `data`,
`reservations`) stay pydantic objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Literal

from profiles import spec_rules as rules
from profiles.spec_reader import key
from profiles.units import not_bool, parse_count

if TYPE_CHECKING:
    from clouds.contract import JobConfig
    from profiles.cost.work import ReservationSpec
    from profiles.data_spec import DataSpec

_MODE = ("none", "selective", "full")


@dataclass(frozen=True)
class Work:
    """`profiles.cost.work.WorkSpec` as a plain value."""

    AFTER: ClassVar = (rules.check_work,)

    gpu_hours: float | None = field(default=None, metadata=key("float", optional=True, gt=0, before=not_bool))
    reference: str | None = field(default=None, metadata=key("str", optional=True, before=rules.reference))
    params: float | None = field(default=None, metadata=key("float", optional=True, gt=0, before=rules.count))
    tokens: float | None = field(default=None, metadata=key("float", optional=True, gt=0, before=rules.count))
    images: float | None = field(default=None, metadata=key("float", optional=True, gt=0, before=rules.count))
    epochs: float | None = field(default=None, metadata=key("float", optional=True, gt=0, before=not_bool))
    flops_per_image: float | None = field(default=None, metadata=key("float", optional=True, gt=0, before=rules.count))
    mfu: float | None = field(default=None, metadata=key("float", optional=True, gt=0, le=1, before=not_bool))
    mfu_recompute: Literal["none", "selective", "full"] = field(default="selective", metadata=key(_MODE))
    batch_tokens: float | None = field(default=None, metadata=key("float", optional=True, gt=0, before=rules.count))

    def training_flops(self) -> float | None:
        """Total training FLOPs, or None when the work is given as gpu_hours."""
        return rules.training_flops(self)


@dataclass(frozen=True)
class ModelShape:
    """`profiles.cost.work.ModelSpec` (a transformer's shape) as a plain value."""

    params: float = field(metadata=key("float", gt=0, before=parse_count))
    layers: int = field(metadata=key("int", ge=1, before=not_bool))
    hidden: int = field(metadata=key("int", ge=1, before=not_bool))
    heads: int = field(metadata=key("int", ge=1, before=not_bool))
    seq_len: int = field(metadata=key("int", ge=1, before=not_bool))
    micro_batch: int = field(default=1, metadata=key("int", ge=1, before=not_bool))
    bytes_per_param: float = field(default=16.0, metadata=key("float", gt=0, before=not_bool))
    sharding: Literal["fsdp", "none"] = field(default="fsdp", metadata=key(("fsdp", "none")))
    gradient_checkpointing: Literal["auto", "none", "selective", "full"] = field(
        default="auto", metadata=key(("auto", *_MODE), before=rules.checkpointing)
    )
    attention: Literal["flash", "standard"] = field(default="flash", metadata=key(("flash", "standard")))


@dataclass(frozen=True)
class Spot:
    """`profiles.cost.work.SpotSpec` (checkpointing for spot) as a plain value."""

    checkpoint_interval_hours: float = field(
        metadata=key("float", alias="checkpoint_interval", gt=0, before=rules.hours_of)
    )
    restart_hours: float | None = field(
        default=None, metadata=key("float", alias="restart", optional=True, ge=0, before=rules.hours_of)
    )
    interruptions_per_node_month: float | None = field(
        default=None, metadata=key("float", optional=True, ge=0, before=not_bool)
    )


@dataclass(frozen=True)
class Commitment:
    """`profiles.cost.work.CommitmentSpec` (a reserved term) as a plain value."""

    term: Literal["1y", "3y"] = field(metadata=key(("1y", "3y")))
    reuse: float = field(default=0.0, metadata=key("float", ge=0, le=1, before=not_bool))


@dataclass(frozen=True)
class FileSystemSpec:
    """`profiles.spec_model.FileSystemModel` (the parallel file system) as a plain value;
    `given` holds the fields the workload wrote (pydantic's `model_fields_set`)."""

    EXAMPLE: ClassVar[str] = "{capacity: 4800GiB, throughput: 250}"

    capacity_gib: float = field(metadata=key("float", alias="capacity", gt=0, before=rules.capacity_gib))
    throughput_mbps_per_tib: int = field(default=250, metadata=key("int", alias="throughput", gt=0, before=not_bool))
    given: frozenset[str] = frozenset()


@dataclass(frozen=True)
class WorkloadSpec:
    """What a training job needs (`profiles.spec_model.WorkloadModel` documents each field), as a
    plain value; `gpus_key` is the key the user set the per-node GPU count with."""

    BEFORE: ClassVar = (rules.node_range, rules.split_counts)
    AFTER: ClassVar = (rules.check_workload,)

    name: str = field(default="workload", metadata=key("str", pattern=r"^[a-z0-9][a-z0-9-]*$"))
    accelerators: tuple[str, ...] = field(default=(), metadata=key("strs", before=rules.as_list))
    min_gpu_memory_gib: float | None = field(
        default=None,
        metadata=key("float", alias="min_gpu_memory", optional=True, gt=0, before=rules.gpu_memory_gib),
    )
    gpus_per_node: int | None = field(default=None, metadata=key("int", optional=True, ge=1, le=64, before=not_bool))
    nodes: int = field(default=1, metadata=key("int", ge=1, le=10_000, before=not_bool))
    max_nodes: int | None = field(default=None, metadata=key("int", optional=True, ge=1, le=10_000))
    interconnect: Literal["none", "rdma"] = field(default="none", metadata=key(("none", "rdma")))
    purchase: Literal["any", "spot", "on-demand"] = field(
        default="on-demand", metadata=key(("any", "spot", "on-demand"), before=rules.purchase)
    )
    hours: float | None = field(default=None, metadata=key("float", optional=True, gt=0, before=rules.run_hours))
    work: Work | None = field(default=None, metadata=key(Work, optional=True))
    model: ModelShape | None = field(default=None, metadata=key(ModelShape, optional=True))
    spot: Spot | None = field(default=None, metadata=key(Spot, optional=True))
    deadline_hours: float | None = field(
        default=None,
        metadata=key("float", alias="deadline", optional=True, gt=0, before=rules.deadline_hours),
    )
    commitment: Commitment | None = field(
        default=None, metadata=key(Commitment, optional=True, before=rules.commitment)
    )
    reservations: tuple[ReservationSpec, ...] = field(default=(), metadata=key("pydantic"))
    providers: tuple[str, ...] = field(
        default=(), metadata=key("strs", before=rules.as_list, after=rules.provider_names)
    )
    regions: tuple[str, ...] = field(default=(), metadata=key("strs", before=rules.as_list, after=rules.region_names))
    jurisdiction: Literal["any", "cn-mainland"] = field(default="any", metadata=key(("any", "cn-mainland")))
    file_system: FileSystemSpec | None = field(default=None, metadata=key(FileSystemSpec, optional=True))
    job: JobConfig | None = field(default=None, metadata=key("pydantic", optional=True))
    data: DataSpec | None = field(default=None, metadata=key("pydantic", optional=True))
    gpus_key: str = "gpus_per_node"

    def node_counts(self) -> tuple[int, ...]:
        """Node counts to consider: `nodes` alone, every count of a range of up to 32, or
        for wider ranges the powers of two inside it plus both ends."""
        return rules.node_counts(self.nodes, self.max_nodes)
