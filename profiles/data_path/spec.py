"""The workload's `data:` section: the dataset in the team's bucket, with the shorthands users type.

```yaml
data: {source: s3://team-data/imagenet, size: 2TiB, files: 1.28M, passes: 90, write_back: true}
```

`size` accepts `2TiB`, `140GiB`, `500GB`; `files` `1.28M`; `mean_file_size` `110KiB`/`0.1MiB` (else
size / files). Without a `file_system`, the workload gets one sized for the data and the
checkpoints (`profiles.data_path.sizing.capacity_gib`).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import BeforeValidator, ConfigDict, Field, field_validator

from clouds.data import source_problem, unlinked_source
from clouds.data_config import DataConfig
from profiles.data_path.sizing import capacity_gib, checkpoint_gib
from profiles.spec.units import not_bool, parse_count, parse_size_gib


class DataSpec(DataConfig):
    """The job's dataset: the stack's `DataConfig` (its fields, bounds and the write-back rule)
    read from what users type.

    Attributes:
        source: dataset URI in the team's bucket (`s3://bucket/prefix`, `gs://bucket/prefix`,
            `https://account.blob.core.windows.net/container/prefix`).
        size_gib: dataset size, GiB (YAML `size`).
        files: number of files (YAML `files`, accepts `1.28M`).
        mean_file_mib: mean file size, MiB (YAML `mean_file_size`, accepts `110KiB`).
        passes: passes over the data (epochs).
        write_back: export checkpoints and results to the bucket.
        resource_group: Azure Blob only: the storage account's resource group.
        written_files: files the job writes back (YAML `written_files`, accepts `2k`), for the
            export's request charges; only with `write_back`.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True, allow_inf_nan=False)
    EXAMPLE: ClassVar[str] = "{source: s3://team-data/imagenet, size: 2TiB, files: 1.28M}"

    # The YAML names and shorthands; the other fields are DataConfig's as they are.
    size_gib: float | None = Field(
        default=None, alias="size", gt=0, description="Dataset size, GiB.", examples=["2TiB"]
    )
    mean_file_mib: float | None = Field(
        default=None, alias="mean_file_size", gt=0, description="Mean file size, MiB.", examples=["110KiB"]
    )
    passes: Annotated[float, BeforeValidator(not_bool)] = Field(
        default=1, gt=0, description="Passes over the data (epochs)."
    )

    @field_validator("source")
    @classmethod
    def _source(cls, value: str) -> str:
        problem = source_problem(value) or unlinked_source(value)
        if problem:
            raise ValueError(problem)
        return value

    @field_validator("size_gib", mode="before")
    @classmethod
    def _size(cls, value: object) -> object:
        return None if value is None else parse_size_gib(value, suggest="{n}GiB (or TiB, GB, TB)")

    @field_validator("mean_file_mib", mode="before")
    @classmethod
    def _mean(cls, value: object) -> object:
        return None if value is None else parse_size_gib(value, suggest="{n}KiB (or MiB)") * 1024

    @field_validator("files", "written_files", mode="before")
    @classmethod
    def _files(cls, value: object) -> object:
        return None if value is None else round(parse_count(value))

    def config(self) -> DataConfig:
        """The stack's `data` (`clouds.data.DataConfig`): every field of it, as this spec read it."""
        return DataConfig(**{name: getattr(self, name) for name in DataConfig.model_fields})


def sized_file_system(data: dict[str, Any], params: object | None) -> dict[str, Any] | None:
    """A `file_system` mapping sized for raw `data` (as typed) plus checkpoints of `params`, or None
    when the data's size is not given (or unreadable: `DataSpec` then reports it).

    Capacity = (data + checkpoints) x (1 + headroom), rounded up to a whole GiB (see
    `profiles.data_path.sizing`); throughput stays the file system's default.
    """
    try:
        size = parse_size_gib(data["size"]) if data.get("size") is not None else None
        count = parse_count(params) if params is not None else 0.0
    except (ValueError, TypeError):
        return None
    if size is None:
        return None
    needed = capacity_gib(size, checkpoint_gib(count) if count else 0.0)
    return {"capacity": f"{-(-needed // 1):.0f}GiB"}
