"""The workload spec as the resolver reads it: plain immutable values, no pydantic.

`profiles.spec.parse_spec` returns a `WorkloadSpec` of these, whichever reader validated it:
the fast reader (`profiles.spec.reader`, driven by each class's `Key`s in `KEYS` below) or the
pydantic models (`profiles.spec.model`, `profiles.cost.work`), whose fields, bounds and rules
these mirror one for one (`tests/profiles/test_spec_reader.py` compares them). Units and
meanings are documented on the pydantic models; the sections only pydantic reads (`job`,
`data`, `reservations`) stay pydantic objects. NamedTuples, not dataclasses: defining a
dataclass costs about 1 ms at import, and `trainstack resolve` imports these on every run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from clouds.platform_lookup import platform_word
from profiles.spec import rules
from profiles.spec.purchase_words import term as commitment_term
from profiles.spec.units import not_bool, on_demand_after, parse_count

if TYPE_CHECKING:
    from clouds.contract import JobConfig
    from profiles.cost.work import ReservationSpec
    from profiles.data_path.spec import DataSpec

_MODE = ("none", "selective", "full")


class SpecError(ValueError):
    """A workload spec cannot be read or is invalid; the message is one line."""


class Key(NamedTuple):
    """How one field of a plain spec value is written and checked (`KEYS`, read by `profiles.spec.reader`).

    Attributes:
        kind: `str`, `int`, `float`, `bool`, `strs` (a list of names), a tuple of the allowed
            words (a Literal), a plain value class (a nested section), or `pydantic` (a
            section only the pydantic models read).
        alias: the YAML key when it differs from the field name (`capacity`).
        by_name: the field name is accepted too (pydantic's `populate_by_name`).
        optional: None is a valid value.
        gt, ge, le: bounds on a number.
        pattern: a regular expression a `str` must match.
        before: the rule applied to the raw value first (`profiles.spec.rules`).
        after: the rule applied to the checked value.
    """

    kind: Any
    alias: str | None = None
    by_name: bool = True
    optional: bool = False
    gt: float | None = None
    ge: float | None = None
    le: float | None = None
    pattern: str | None = None
    before: Callable[[Any], Any] | None = None
    after: Callable[[Any], Any] | None = None


class Work(NamedTuple):
    """`profiles.cost.work.WorkSpec` as a plain value."""

    gpu_hours: float | None = None
    reference: str | None = None
    params: float | None = None
    tokens: float | None = None
    images: float | None = None
    epochs: float | None = None
    flops_per_image: float | None = None
    mfu: float | None = None
    mfu_recompute: Literal["none", "selective", "full"] = "selective"
    mfu_attention: Literal["12", "6", "0"] = "12"
    mfu_reference: str | None = None
    kind: Literal["llm", "cnn", "bert"] | None = None
    batch_tokens: float | None = None
    batch_images: float | None = None

    def training_flops(self) -> float | None:
        """Total training FLOPs, or None when the work is given as gpu_hours."""
        return rules.training_flops(self)


class ModelShape(NamedTuple):
    """`profiles.cost.work.ModelSpec` (a transformer's shape) as a plain value."""

    params: float
    layers: int
    hidden: int
    heads: int
    seq_len: int
    micro_batch: int = 1
    bytes_per_param: float = 16.0
    sharding: Literal["fsdp", "none"] = "fsdp"
    gradient_checkpointing: Literal["auto", "none", "selective", "full"] = "auto"
    attention: Literal["flash", "standard"] = "flash"


class Spot(NamedTuple):
    """`profiles.cost.work.SpotSpec` (checkpointing for spot) as a plain value."""

    checkpoint_interval_hours: float
    restart_hours: float | None = None
    interruptions_per_node_month: float | None = None
    on_demand_after_hours: float | None = None


class Commitment(NamedTuple):
    """`profiles.cost.work.CommitmentSpec` (a reserved term) as a plain value."""

    term: Literal["1y", "3y"]
    reuse: float = 0.0


class FileSystemSpec(NamedTuple):
    """`profiles.spec.model.FileSystemModel` (the parallel file system) as a plain value;
    `given` holds the fields the workload wrote (pydantic's `model_fields_set`)."""

    capacity_gib: float
    throughput_mbps_per_tib: int = 250
    given: frozenset[str] = frozenset()


class WorkloadSpec(NamedTuple):
    """What a training job needs (`profiles.spec.model.WorkloadModel` documents each field), as a
    plain value; `gpus_key` is the key the user set the per-node GPU count with."""

    name: str = "workload"
    accelerators: tuple[str, ...] = ()
    min_gpu_memory_gib: float | None = None
    gpus_per_node: int | None = None
    accelerator_counts: tuple[str, ...] = ()
    nodes: int = 1
    max_nodes: int | None = None
    interconnect: Literal["none", "rdma"] = "none"
    purchase: Literal["any", "spot", "on-demand", "flex-start"] = "on-demand"
    hours: float | None = None
    work: Work | None = None
    model: ModelShape | None = None
    spot: Spot | None = None
    deadline_hours: float | None = None
    node_margin: float | None = None
    commitment: Commitment | None = None
    reservations: tuple[ReservationSpec, ...] = ()
    providers: tuple[str, ...] = ()
    regions: tuple[str, ...] = ()
    jurisdiction: Literal["any", "cn-mainland"] = "any"
    file_system: FileSystemSpec | None = None
    job: JobConfig | None = None
    data: DataSpec | None = None
    platform: str = "vm"
    node_image: str | None = None
    gpus_key: str = "gpus_per_node"

    @property
    def fewest_nodes(self) -> int:
        """The fewest nodes a row may have: `nodes`, or a range's `job.min_nodes` when higher
        (the job would wait for more nodes than a smaller row has)."""
        return max(self.nodes, self.job.min_nodes or 1) if self.job is not None else self.nodes

    def node_counts(self) -> tuple[int, ...]:
        """Node counts to consider: `nodes` alone, every count of a range of up to 32, or
        for wider ranges the powers of two inside it plus both ends; a range starts at
        `fewest_nodes`, so no row has fewer nodes than `job.min_nodes`."""
        return rules.node_counts(self.fewest_nodes, self.max_nodes)


def _opt(kind: Any, **options: Any) -> Key:
    return Key(kind, optional=True, **options)


# How each field is written and checked (`profiles.spec.reader.Key`); fields without one
# (`given`, `gpus_key`) are set by the reader itself.
KEYS: dict[type, dict[str, Key]] = {
    Work: {
        "gpu_hours": _opt("float", gt=0, before=not_bool),
        "reference": _opt("str", before=rules.reference),
        "params": _opt("float", gt=0, before=rules.count),
        "tokens": _opt("float", gt=0, before=rules.count),
        "images": _opt("float", gt=0, before=rules.count),
        "epochs": _opt("float", gt=0, before=not_bool),
        "flops_per_image": _opt("float", gt=0, before=rules.count),
        "mfu": _opt("float", gt=0, le=1, before=not_bool),
        "mfu_recompute": Key(_MODE),
        "mfu_attention": Key(("12", "6", "0"), before=rules.attention_count),
        "mfu_reference": _opt("str", before=rules.reference),
        "kind": _opt(("llm", "cnn", "bert")),
        "batch_tokens": _opt("float", gt=0, before=rules.count),
        "batch_images": _opt("float", gt=0, before=rules.count),
    },
    ModelShape: {
        "params": Key("float", gt=0, before=parse_count),
        "layers": Key("int", ge=1, before=not_bool),
        "hidden": Key("int", ge=1, before=not_bool),
        "heads": Key("int", ge=1, before=not_bool),
        "seq_len": Key("int", ge=1, before=not_bool),
        "micro_batch": Key("int", ge=1, before=not_bool),
        "bytes_per_param": Key("float", gt=0, before=not_bool),
        "sharding": Key(("fsdp", "none")),
        "gradient_checkpointing": Key(("auto", *_MODE), before=rules.checkpointing),
        "attention": Key(("flash", "standard")),
    },
    Spot: {
        "checkpoint_interval_hours": Key("float", alias="checkpoint_interval", gt=0, before=rules.hours_of),
        "restart_hours": _opt("float", alias="restart", ge=0, before=rules.hours_of),
        "interruptions_per_node_month": _opt("float", ge=0, before=not_bool),
        "on_demand_after_hours": _opt("float", alias="fallback", gt=0, before=on_demand_after),
    },
    Commitment: {
        "term": Key(("1y", "3y"), before=commitment_term),
        "reuse": Key("float", ge=0, le=1, before=rules.share),
    },
    FileSystemSpec: {
        "capacity_gib": Key("float", alias="capacity", gt=0, before=rules.capacity_gib),
        "throughput_mbps_per_tib": Key("int", alias="throughput", gt=0, before=not_bool),
    },
    WorkloadSpec: {
        "name": Key("str", pattern=r"^[a-z0-9][a-z0-9-]*$"),
        "accelerators": Key("strs", before=rules.as_list),
        "min_gpu_memory_gib": _opt("float", alias="min_gpu_memory", gt=0, before=rules.gpu_memory_gib),
        "gpus_per_node": _opt("int", ge=1, le=64, before=not_bool),
        "accelerator_counts": Key("strs", before=rules.as_list),
        "nodes": Key("int", ge=1, le=10_000, before=not_bool),
        "max_nodes": _opt("int", ge=1, le=10_000, before=not_bool),
        "interconnect": Key(("none", "rdma")),
        "purchase": Key(("any", "spot", "on-demand", "flex-start"), before=rules.purchase),
        "hours": _opt("float", gt=0, before=rules.run_hours),
        "work": _opt(Work),
        "model": _opt(ModelShape),
        "spot": _opt(Spot),
        "deadline_hours": _opt("float", alias="deadline", gt=0, before=rules.deadline_hours),
        "node_margin": _opt("float", ge=0, le=1, before=rules.share),
        "commitment": _opt(Commitment, before=rules.commitment),
        "reservations": Key("pydantic"),
        "providers": Key("strs", before=rules.as_list, after=rules.provider_names),
        "regions": Key("strs", before=rules.as_list, after=rules.region_names),
        "jurisdiction": Key(("any", "cn-mainland"), before=rules.word),
        "file_system": _opt(FileSystemSpec),
        "job": _opt("pydantic"),
        "data": _opt("pydantic"),
        "platform": Key("str", before=platform_word),
        "node_image": _opt("str", pattern=r"^\S+$"),
    },
}
# Rules over the whole mapping before its keys are read, and over the read value after.
BEFORE: dict[type, tuple[Any, ...]] = {WorkloadSpec: (rules.node_range, rules.split_counts)}
AFTER: dict[type, tuple[Any, ...]] = {Work: (rules.check_work,), WorkloadSpec: (rules.check_workload,)}
