"""The workload spec's pydantic models: the validation whose errors users see.

`profiles.spec.parse_spec` reads most workloads without these (`profiles.spec.reader`, so
`trainstack resolve` need not import pydantic); whatever that reader is unsure of is
validated here, and a valid spec comes back as the plain values of `profiles.spec.values`.
The rules themselves live in `profiles.spec.rules`, called by both readers. Any error
becomes a one-line `SpecError` naming the field and the fix (`profiles.spec.errors` chooses
the most useful of pydantic's errors and words it).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator

from clouds.contract import JobConfig
from clouds.platform_lookup import platform_word
from profiles.cost.work import CommitmentSpec, ModelSpec, ReservationSpec, SpotSpec, WorkSpec
from profiles.data_path.spec import DataSpec
from profiles.spec import rules
from profiles.spec.errors import one_line
from profiles.spec.fields import NUMBER
from profiles.spec.rules import AUTO_MAX_NODES
from profiles.spec.units import MAX_NODES
from profiles.spec.values import KEYS, SpecError, WorkloadSpec

# Numbers must be finite: YAML `.inf` / `.nan` are refused rather than priced.
# defer_build: validators are built on first use, not at import.
LIST = BeforeValidator(rules.as_list)  # one name or a list of names
_CONFIG = ConfigDict(frozen=True, extra="forbid", populate_by_name=True, allow_inf_nan=False, defer_build=True)


class FileSystemModel(BaseModel):
    """Parallel file system wanted beside the cluster.

    Attributes:
        capacity_gib: capacity in GiB (written with its unit: `4800GiB`, `4.8TiB`, `5TB`).
        throughput_mbps_per_tib: throughput in MB/s per TiB of capacity.
    """

    model_config = _CONFIG
    EXAMPLE: ClassVar[str] = "{capacity: 4800GiB, throughput: 250}"

    capacity_gib: Annotated[float, BeforeValidator(rules.capacity_gib)] = Field(
        alias="capacity", gt=0, description="Capacity, GiB.", examples=["4800GiB"]
    )
    throughput_mbps_per_tib: Annotated[int, NUMBER] = Field(
        default=250, alias="throughput", gt=0, description="Throughput, MB/s per TiB.", examples=[250]
    )


class WorkloadModel(BaseModel):
    """What a training job needs; the resolver finds the cheapest offering that fits.

    Attributes:
        name: workload name (also the default stack name).
        accelerators: acceptable accelerator names (`A100`, `A100-80GB`); empty = any
            accelerator meeting `min_gpu_memory_gib`. `NAME:N` also sets `gpus_per_node`.
        min_gpu_memory_gib: minimum memory per accelerator, GiB (written with its unit: `80GB`).
        gpus_per_node: accelerators per node (every entry).
        accelerator_counts: `NAME:N` per-node counts of single entries when the entries do not
            share one count (`[tpu-v6e, H100:8]`: H100 nodes of 8, any TPU slice).
        nodes: number of nodes; with `max_nodes`, the smallest count to consider. The YAML
            accepts a range (`2-16`) or `auto` (1 to `AUTO_MAX_NODES`): the resolver then
            picks, per offering, the count with the cheapest job that meets the deadline.
        max_nodes: the largest node count to consider, or None for exactly `nodes`.
        interconnect: `rdma` needs an RDMA fabric (EFA, InfiniBand, GPUDirect); `none` not.
        purchase: `any` (spot and flex-start allowed, on-demand too), `spot` (spot only),
            `on-demand`, or `flex-start` (GCP Dynamic Workload Scheduler: the nodes come all at
            once when capacity is there, for at most 7 days: `clouds.gcp.flex_start`).
        hours: wall-clock run time, hours (`72h`, `3d`, or a bare number of hours); give it or `work`.
        work: the job's work (GPU-hours on a reference, params x tokens, or images);
            hours then follow per offering.
        model: transformer shape for the memory-fit check, or None.
        spot: checkpointing for spot; needed (with `file_system`) whenever spot is allowed.
        deadline_hours: latest acceptable run time, hours (`7d`), or None.
        node_margin: share of the job's cost (0.05 or `5%`) a larger node count or slice
            must save to be taken over the fewest that meet the deadline; None:
            `profiles.choice.nodes.DEFAULT_NODE_MARGIN`.
        commitment: a reserved term to price (`1y`, `3y`, or `{term: 1y, reuse: 0.8}`
            when other work uses the capacity after the job), or None (`none`).
        reservations: capacity already held, priced as given.
        providers: clouds to consider (lowercase names from the catalog); empty = all.
        regions: regions to consider; empty = all.
        jurisdiction: `cn-mainland` keeps the data in mainland China (only regions there
            qualify); `any` by default.
        file_system: shared parallel file system, or None.
        job: the training job the cluster runs on every node under torchrun (command or
            script, workdir, checkpoint_dir, nproc_per_node, env, restart limits); needs a
            `file_system`. None = the cluster comes up idle, as before.
        file_system: shared parallel file system, or None; with `data` and no file system,
            one sized for the data and checkpoints.
        data: the dataset in the team's bucket (`profiles.data_path.spec`), or None.
        platform: where the job runs: `vm` (the cloud's own nodes, the default), a managed
            platform (`sagemaker`, `azureml`, `modelarts`, `pai`, `ti-one`: `clouds.platforms`)
            or `any` (VM and managed rows ranked side by side).
        node_image: the nodes' OS image id a platform needs and publishes no default for (PAI
            Lingjun node groups); written into the stack.
    """

    model_config = _CONFIG

    name: str = Field(default="workload", pattern=r"^[a-z0-9][a-z0-9-]*$", description="Workload name.")
    accelerators: Annotated[tuple[str, ...], LIST] = Field(default=(), description="Acceptable accelerators.")
    min_gpu_memory_gib: Annotated[float | None, BeforeValidator(rules.gpu_memory_gib)] = Field(
        default=None, alias="min_gpu_memory", gt=0, description="Min memory per GPU, GiB.", examples=["80GB"]
    )
    gpus_per_node: Annotated[int | None, NUMBER] = Field(default=None, ge=1, le=64, description="GPUs per node.")
    accelerator_counts: Annotated[tuple[str, ...], LIST] = Field(
        default=(), description="Per-entry GPUs per node, NAME:N (from `accelerators`)."
    )
    nodes: Annotated[int, NUMBER] = Field(
        default=1, ge=1, le=MAX_NODES, description="Number of nodes (smallest of a range)."
    )
    max_nodes: Annotated[int | None, NUMBER] = Field(
        default=None, ge=1, le=MAX_NODES, description="Largest node count of a range."
    )
    interconnect: Literal["none", "rdma"] = Field(default="none", description="Node-to-node fabric.")
    purchase: Annotated[Literal["any", "spot", "on-demand", "flex-start"], BeforeValidator(rules.purchase)] = Field(
        default="on-demand", description="Purchase option."
    )
    hours: Annotated[float | None, BeforeValidator(rules.run_hours)] = Field(
        default=None, gt=0, description="Run time, hours.", examples=["72h"]
    )
    work: WorkSpec | None = Field(default=None, description="The job's work.")
    model: ModelSpec | None = Field(default=None, description="Model shape for memory fit.")
    spot: SpotSpec | None = Field(default=None, description="Checkpointing for spot.")
    deadline_hours: Annotated[float | None, BeforeValidator(rules.deadline_hours)] = Field(
        default=None, alias="deadline", gt=0, description="Deadline, hours.", examples=["7d"]
    )
    node_margin: Annotated[float | None, BeforeValidator(rules.share)] = Field(
        default=None,
        ge=0,
        le=1,
        description="Share of the job's cost a larger cluster must save to be taken.",
        examples=["5%"],
    )
    commitment: Annotated[CommitmentSpec | None, BeforeValidator(rules.commitment)] = Field(
        default=None, description="Reserved term to price."
    )
    reservations: tuple[ReservationSpec, ...] = Field(default=(), description="Held capacity.")
    providers: Annotated[tuple[str, ...], LIST, AfterValidator(rules.provider_names)] = Field(
        default=(), description="Clouds to consider."
    )
    regions: Annotated[tuple[str, ...], LIST, AfterValidator(rules.region_names)] = Field(
        default=(), description="Regions to consider."
    )
    jurisdiction: Annotated[Literal["any", "cn-mainland"], BeforeValidator(rules.word)] = Field(
        default="any", description="Jurisdiction the data must stay in."
    )
    file_system: FileSystemModel | None = Field(default=None, description="Parallel file system.")
    job: JobConfig | None = Field(default=None, description="Training job run on every node.")
    data: DataSpec | None = Field(default=None, description="Dataset in the team's bucket.")
    platform: Annotated[str, BeforeValidator(platform_word)] = Field(
        default="vm", description="Platform the job runs on (vm or a managed platform or any).", examples=["sagemaker"]
    )
    node_image: str | None = Field(
        default=None, pattern=r"^\S+$", description="Nodes' OS image id where a platform has no default (PAI Lingjun)."
    )

    @model_validator(mode="before")
    @classmethod
    def _read_shorthands(cls, data: object) -> object:
        """`NAME:N` counts split out, then node ranges read, then a file system sized for the data."""
        return rules.file_system_for_data(rules.node_range(rules.split_counts(data)))

    @model_validator(mode="after")
    def _consistent(self) -> WorkloadModel:
        rules.check_workload(self)
        return self


def validate(data: dict[str, Any], source: str, written: dict[str, str] | None) -> WorkloadSpec:
    """`data` validated by `WorkloadModel`, as the plain `WorkloadSpec`.

    Args:
        data: the mapping read from YAML.
        source: where it came from, for the message (a path, or `spec`).
        written: field -> the whole message when that field fails although the user never
            wrote it (`profiles.spec.errors.one_line`).

    Raises:
        SpecError: one line, `SOURCE: FIELD: what is wrong and how to fix it`.
    """
    try:
        model = WorkloadModel.model_validate(data)
    except ValidationError as exc:
        raise SpecError(f"{source}: {one_line(exc, WorkloadModel, written)}") from None
    return plain(WorkloadSpec, model)


def plain(cls: type, model: Any) -> Any:
    """The pydantic `model` as an instance of the plain value class `cls` (nested sections
    too; `given` = the model's `model_fields_set`; sections only pydantic reads stay as they are)."""
    values: dict[str, Any] = {}
    for name, spec in KEYS[cls].items():
        value = getattr(model, name)
        nested = isinstance(spec.kind, type) and value is not None
        values[name] = plain(spec.kind, value) if nested else value
    if "given" in cls._fields:  # type: ignore[attr-defined]
        values["given"] = frozenset(model.model_fields_set)
    return cls(**values)


__all__ = ["AUTO_MAX_NODES", "FileSystemModel", "SpecError", "WorkloadModel", "plain", "validate"]
