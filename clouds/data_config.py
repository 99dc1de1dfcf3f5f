"""The job's dataset as a stack carries it (`data:`); the rules for it are in `clouds.data`."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator


class DataConfig(BaseModel):
    """The dataset of a job, as a stack carries it.

    Attributes:
        source: URI of the dataset in the team's bucket (`s3://bucket/prefix`, `gs://...`).
        size_gib: dataset size, GiB; None when unknown.
        files: number of files (samples) in it; None when unknown.
        mean_file_mib: mean file size, MiB; None to derive it from `size_gib / files`.
        passes: passes over the data during the job (epochs).
        write_back: True to export checkpoints and results written under the linked path back
            to the bucket (the node may then write that prefix, and nothing else).
        resource_group: Azure Blob only: the resource group of the storage account holding
            `source` (in the deployment's subscription); other clouds refuse it.
        written_files: files the job writes under the linked path and exports (write-back),
            for the export's request charges (one PUT each); None when not known.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    source: str = Field(min_length=1, description="Dataset URI in the team's bucket.")
    size_gib: float | None = Field(default=None, gt=0, description="Dataset size, GiB.")
    files: int | None = Field(default=None, ge=1, description="Number of files.")
    mean_file_mib: float | None = Field(default=None, gt=0, description="Mean file size, MiB.")
    passes: float = Field(default=1, gt=0, description="Passes over the data (epochs).")
    write_back: bool = Field(default=False, description="Export results to the bucket.")
    resource_group: str | None = Field(
        default=None, min_length=1, description="Azure Blob only: the storage account's resource group."
    )
    written_files: int | None = Field(default=None, ge=1, description="Files the job exports (write-back).")

    @model_validator(mode="after")
    def _written_needs_write_back(self) -> DataConfig:
        problem = written_files_problem(self.written_files, self.write_back)
        if problem:
            raise ValueError(problem)
        return self


def written_files_problem(written_files: int | None, write_back: bool) -> str | None:
    """`data.written_files` without `write_back`: nothing is exported, so it means nothing."""
    if written_files is not None and not write_back:
        return (
            "data.written_files: only exports are counted, and this dataset has no write_back; "
            "set write_back: true or drop written_files"
        )
    return None
