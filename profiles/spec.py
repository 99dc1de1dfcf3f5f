"""Workload specs (`profiles/workloads/*.yaml`) as a validated pydantic `WorkloadSpec`.

Shorthands users type are accepted: `A100-80GB:8` (accelerator and GPUs per node),
`80GB`/`80GiB` (memory), `72h`/`3d`/`90m`/`2 days` (duration), `4800GiB`/`4.8TiB`
(capacity). Any error becomes a one-line `SpecError` naming the field and the fix
(`profiles.spec_errors` chooses the most useful of pydantic's errors and words it).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, ClassVar, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator, model_validator

from clouds.contract import JobConfig
from profiles import strict_yaml
from profiles.cost.work import CommitmentSpec, ModelSpec, ReservationSpec, SpotSpec, WorkSpec, known_provider
from profiles.data_spec import DataSpec, sized_file_system
from profiles.spec_errors import one_line
from profiles.units import NOT_BOOL, at_most_gib, at_most_hours, parse_duration_hours, parse_size_gib

# `nodes: auto` considers 1 to this many nodes (a choice, not a sourced figure).
AUTO_MAX_NODES = 64
# Numbers must be finite: YAML `.inf` / `.nan` are refused rather than priced.
# defer_build: validators are built on first use, not at import (keeps `trainstack resolve` fast).
_CONFIG = ConfigDict(frozen=True, extra="forbid", populate_by_name=True, allow_inf_nan=False, defer_build=True)


class SpecError(ValueError):
    """A workload spec cannot be read or is invalid; the message is one line."""


class FileSystemSpec(BaseModel):
    """Parallel file system wanted beside the cluster.

    Attributes:
        capacity_gib: capacity in GiB (written with its unit: `4800GiB`, `4.8TiB`, `5TB`).
        throughput_mbps_per_tib: throughput in MB/s per TiB of capacity.
    """

    model_config = _CONFIG
    EXAMPLE: ClassVar[str] = "{capacity: 4800GiB, throughput: 250}"

    capacity_gib: float = Field(alias="capacity", gt=0, description="Capacity, GiB.")
    throughput_mbps_per_tib: Annotated[int, NOT_BOOL] = Field(
        default=250, alias="throughput", gt=0, description="Throughput, MB/s per TiB."
    )

    @field_validator("capacity_gib", mode="before")
    @classmethod
    def _read_capacity(cls, value: object) -> float:
        return at_most_gib(parse_size_gib(value, suggest="{n}GiB (or TiB, GB, TB)"), value)


class WorkloadSpec(BaseModel):
    """What a training job needs; the resolver finds the cheapest offering that fits.

    Attributes:
        name: workload name (also the default stack name).
        accelerators: acceptable accelerator names (`A100`, `A100-80GB`); empty = any
            accelerator meeting `min_gpu_memory_gib`. `NAME:N` also sets `gpus_per_node`.
        min_gpu_memory_gib: minimum memory per accelerator, GiB (written with its unit: `80GB`).
        gpus_per_node: accelerators per node.
        nodes: number of nodes; with `max_nodes`, the smallest count to consider. The YAML
            accepts a range (`2-16`) or `auto` (1 to `AUTO_MAX_NODES`): the resolver then
            picks, per offering, the count with the cheapest job that meets the deadline.
        max_nodes: the largest node count to consider, or None for exactly `nodes`.
        interconnect: `rdma` needs an RDMA fabric (EFA, InfiniBand, GPUDirect); `none` not.
        purchase: `any` (spot allowed, on-demand too), `spot` (spot only), `on-demand`.
        hours: wall-clock run time, hours (`72h`, `3d`, or a bare number of hours); give it or `work`.
        work: the job's work (GPU-hours on a reference, params x tokens, or images);
            hours then follow per offering.
        model: transformer shape for the memory-fit check, or None.
        spot: checkpointing for spot; needed (with `file_system`) whenever spot is allowed.
        deadline_hours: latest acceptable run time, hours (`7d`), or None.
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
        data: the dataset in the team's bucket (`profiles.data_spec`), or None.
    """

    model_config = _CONFIG

    name: str = Field(default="workload", pattern=r"^[a-z0-9][a-z0-9-]*$", description="Workload name.")
    accelerators: tuple[str, ...] = Field(default=(), description="Acceptable accelerators.")
    min_gpu_memory_gib: float | None = Field(
        default=None, alias="min_gpu_memory", gt=0, description="Min memory per GPU, GiB."
    )
    gpus_per_node: Annotated[int | None, NOT_BOOL] = Field(default=None, ge=1, le=64, description="GPUs per node.")
    nodes: Annotated[int, NOT_BOOL] = Field(
        default=1, ge=1, le=10_000, description="Number of nodes (smallest of a range)."
    )
    max_nodes: int | None = Field(default=None, ge=1, le=10_000, description="Largest node count of a range.")
    interconnect: Literal["none", "rdma"] = Field(default="none", description="Node-to-node fabric.")
    purchase: Literal["any", "spot", "on-demand"] = Field(default="on-demand", description="Purchase option.")
    hours: float | None = Field(default=None, gt=0, description="Run time, hours.")
    work: WorkSpec | None = Field(default=None, description="The job's work.")
    model: ModelSpec | None = Field(default=None, description="Model shape for memory fit.")
    spot: SpotSpec | None = Field(default=None, description="Checkpointing for spot.")
    deadline_hours: float | None = Field(default=None, alias="deadline", gt=0, description="Deadline, hours.")
    commitment: CommitmentSpec | None = Field(default=None, description="Reserved term to price.")
    reservations: tuple[ReservationSpec, ...] = Field(default=(), description="Held capacity.")
    providers: tuple[str, ...] = Field(default=(), description="Clouds to consider.")
    regions: tuple[str, ...] = Field(default=(), description="Regions to consider.")
    jurisdiction: Literal["any", "cn-mainland"] = Field(default="any", description="Where data must stay.")
    file_system: FileSystemSpec | None = Field(default=None, description="Parallel file system.")
    job: JobConfig | None = Field(default=None, description="Training job run on every node.")
    data: DataSpec | None = Field(default=None, description="Dataset in the team's bucket.")
    # Which key set the GPU count, for messages: `accelerators` when it came from `NAME:N`.
    _gpus_key: str = PrivateAttr(default="gpus_per_node")

    @property
    def gpus_key(self) -> str:
        """The key the user set the per-node GPU count with: `accelerators` or `gpus_per_node`."""
        return self._gpus_key

    @field_validator("hours", mode="before")
    @classmethod
    def _read_hours(cls, value: object) -> float | None:
        # The key names the unit: `hours: 72` is 72 hours.
        return None if value is None else at_most_hours(parse_duration_hours(value, bare_hours=True), value)

    @field_validator("deadline_hours", mode="before")
    @classmethod
    def _read_deadline(cls, value: object) -> float | None:
        return None if value is None else at_most_hours(parse_duration_hours(value), value)

    @field_validator("min_gpu_memory_gib", mode="before")
    @classmethod
    def _read_memory(cls, value: object) -> float | None:
        return None if value is None else parse_size_gib(value, suggest="{n}GB (as GPU memory is sold) or {n}GiB")

    @field_validator("accelerators", "providers", "regions", mode="before")
    @classmethod
    def _as_list(cls, value: object) -> object:
        return [value] if isinstance(value, str) else value

    @field_validator("regions")
    @classmethod
    def _region_names(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        """Region ids are lowercase in every cloud's catalog (`US-East-1` reads as `us-east-1`);
        names the catalog does not know are refused by the resolver (`profiles.known_names`)."""
        return tuple(dict.fromkeys(name.strip().lower() for name in value))

    @field_validator("providers")
    @classmethod
    def _known_providers(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(dict.fromkeys(known_provider(name) for name in value))

    @field_validator("commitment", mode="before")
    @classmethod
    def _read_commitment(cls, value: object) -> object:
        if value is None or value in ("none", False):
            return None
        return {"term": value} if isinstance(value, str) else value

    @model_validator(mode="before")
    @classmethod
    def _file_system_for_data(cls, data: object) -> object:
        """`data` with a size and no `file_system`: size one for the data and checkpoints."""
        if not isinstance(data, dict) or not isinstance(data.get("data"), dict) or data.get("file_system"):
            return data
        params = next(
            (
                part.get("params")
                for part in (data.get("model"), data.get("work"))
                if isinstance(part, dict) and part.get("params") is not None
            ),
            None,
        )
        sized = sized_file_system(data["data"], params)
        return {**data, "file_system": sized} if sized else data

    @model_validator(mode="before")
    @classmethod
    def _node_range(cls, data: object) -> object:
        """`nodes: 2-16` -> nodes 2, max_nodes 16; `nodes: auto` -> 1 to AUTO_MAX_NODES."""
        if not isinstance(data, dict) or not isinstance(data.get("nodes"), str):
            return data
        text = data["nodes"].strip().lower()
        if text == "auto":
            return {**data, "nodes": 1, "max_nodes": AUTO_MAX_NODES}
        match = re.fullmatch(r"(\d+)\s*-\s*(\d+)", text)
        if match is None:
            return data  # a plain number in quotes, or an error pydantic words
        low, high = int(match.group(1)), int(match.group(2))
        if not 1 <= low <= high:
            raise ValueError(f"nodes: '{data['nodes']}' is not a range of node counts; write it like 2-16 or auto")
        return {**data, "nodes": low, "max_nodes": high}

    def node_counts(self) -> tuple[int, ...]:
        """Node counts to consider: `nodes` alone, every count of a range of up to 32, or
        for wider ranges the powers of two inside it plus both ends."""
        high = self.max_nodes or self.nodes
        if high - self.nodes < 32:
            return tuple(range(self.nodes, high + 1))
        powers = {2**k for k in range(15) if self.nodes <= 2**k <= high}
        return tuple(sorted(powers | {self.nodes, high}))

    @field_validator("purchase", mode="before")
    @classmethod
    def _purchase_alias(cls, value: object) -> object:
        aliases = {"spot-allowed": "any", "spot_allowed": "any", "ondemand": "on-demand"}
        return aliases.get(value, value) if isinstance(value, str) else value

    @model_validator(mode="before")
    @classmethod
    def _split_counts(cls, data: object) -> object:
        """Turn `NAME:N` accelerator entries into names plus `gpus_per_node`."""
        if not isinstance(data, dict) or "accelerators" not in data:
            return data
        raw = data["accelerators"]
        if raw is not None and not isinstance(raw, (str, list, tuple)):
            raise ValueError("accelerators: expected a name or a list such as [A100:8, A100-80GB:8]")
        names, counts = [], set()
        for token in [raw] if isinstance(raw, str) else (raw or []):
            match = re.fullmatch(r"\s*([A-Za-z0-9][\w.\- ]*?)\s*(?::\s*(\d+))?\s*", str(token))
            if not match:
                raise ValueError(f"accelerators: cannot read '{token}'; write NAME or NAME:COUNT, e.g. A100-80GB:8")
            names.append(match.group(1))
            if match.group(2):
                counts.add(int(match.group(2)))
        if len(counts) > 1 or (counts and data.get("gpus_per_node") not in (None, *counts)):
            raise ValueError(
                "accelerators: entries ask for different GPU counts; use one NAME:N count or gpus_per_node"
            )
        return {**data, "accelerators": names, **({"gpus_per_node": counts.pop()} if counts else {})}

    @model_validator(mode="after")
    def _consistent(self) -> WorkloadSpec:
        if not self.accelerators and self.min_gpu_memory_gib is None:
            raise ValueError("accelerators: name at least one (e.g. A100:8) or set min_gpu_memory (e.g. 80GB)")
        if (self.hours is None) == (self.work is None):
            raise ValueError(
                "hours: give either hours (e.g. 72h) or work (e.g. work: {gpu_hours: 1200, reference: A100-80GB})"
            )
        if self.purchase != "on-demand" and (self.spot is None or self.file_system is None):
            raise ValueError(
                f"spot: purchase '{self.purchase}' allows spot, which needs checkpoints on shared storage; "
                "add spot: {checkpoint_interval: 1h} and a file_system, or set purchase: on-demand"
            )
        if self.data and self.data.size_gib and self.file_system and self.file_system.capacity_gib < self.data.size_gib:
            raise ValueError(
                f"file_system.capacity: {self.file_system.capacity_gib:g} GiB is less than the "
                f"{self.data.size_gib:g} GiB of data; raise it, or drop file_system to size it from data"
            )
        if self.max_nodes is not None and self.max_nodes < self.nodes:
            raise ValueError(f"max_nodes: {self.max_nodes} is below nodes {self.nodes}; give a range such as 2-16")
        if self.job is not None and self.file_system is None:
            raise ValueError("job: needs a file_system for its checkpoints and logs; add file_system or remove job")
        if self.job is not None and self.job.min_nodes is not None and self.job.min_nodes > self.nodes:
            raise ValueError(f"job.min_nodes: {self.job.min_nodes} is more than nodes ({self.nodes})")
        work_params = self.work.params if self.work else None
        if work_params and self.model and work_params != self.model.params:
            raise ValueError(
                f"model.params: {self.model.params:g} differs from work.params {work_params:g}; "
                "give the same model size in both"
            )
        return self


def parse_spec(data: object, source: str = "spec") -> WorkloadSpec:
    """Validate a mapping (as read from YAML) into a `WorkloadSpec`.

    Raises:
        SpecError: one line, `SOURCE: FIELD: what is wrong and how to fix it`.
    """
    if not isinstance(data, dict):
        raise SpecError(f"{source}: expected a mapping of keys (name, accelerators, nodes, ...)")
    from_accelerators = "gpus_per_node" not in data and _has_counts(data.get("accelerators"))
    written = {
        "gpus_per_node": (
            f"accelerators: {data.get('accelerators')} asks for a GPU count per node "
            "outside 1-64; write NAME:N with the count of a real instance, e.g. A100:8"
        )
    }
    try:
        spec = WorkloadSpec.model_validate(data)
    except ValidationError as exc:
        raise SpecError(f"{source}: {one_line(exc, WorkloadSpec, written if from_accelerators else None)}") from None
    if from_accelerators:
        spec._gpus_key = "accelerators"
    return spec


def _has_counts(raw: object) -> bool:
    """True when an `accelerators` value carries `NAME:N` counts."""
    tokens = [raw] if isinstance(raw, str) else raw if isinstance(raw, (list, tuple)) else []
    return any(":" in str(token) for token in tokens)


def load_spec(path: Path) -> WorkloadSpec:
    """Read and validate a workload YAML file; the file's stem is the default name.

    Raises:
        SpecError: the file is missing, not UTF-8 text, not YAML, repeats a key, or is invalid
            (one-line message).
    """
    try:
        data = strict_yaml.load(Path(path).read_text(encoding="utf-8"))
    except strict_yaml.DuplicateKeyError as exc:
        raise SpecError(f"{path}: {exc}; keep one (YAML would silently use the last)") from None
    except UnicodeDecodeError as exc:
        raise SpecError(
            f"{path}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start}); "
            "give a workload YAML file saved as UTF-8"
        ) from None
    except OSError as exc:
        raise SpecError(f"{path}: cannot read ({exc.strerror}); give the path of a workload YAML file") from None
    except yaml.reader.ReaderError as exc:
        raise SpecError(
            f"{path}: not a text file (character #x{exc.character:04x} at offset {exc.position}); "
            "give a workload YAML file"
        ) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        raise SpecError(f"{path}:{where} not valid YAML; check indentation and quoting") from None
    if isinstance(data, dict):
        data.setdefault("name", Path(path).stem)
    return parse_spec(data, str(path))
