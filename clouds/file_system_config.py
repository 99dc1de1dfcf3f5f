"""The shared parallel file system a cluster's stack asks for (`FileSystemConfig`, a stack's
`file_system:`); `clouds.contract` re-exports it beside `ClusterConfig`."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class FileSystemConfig(BaseModel):
    """A parallel file system shared by all nodes of the cluster.

    Attributes:
        capacity_gib: requested capacity in GiB; each component rounds it up to the
            next size its file system service accepts.
        throughput_mbps_per_tib: provisioned throughput in MB/s per TiB of capacity.
        deployment_type: the service's own deployment type (FSx for Lustre:
            `PERSISTENT_2` by default); None lets the component choose.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)  # built on first use

    capacity_gib: int = Field(gt=0, description="Requested capacity, GiB.")
    throughput_mbps_per_tib: int = Field(
        default=250, gt=0, description="Throughput, MB/s per TiB of capacity.", examples=[250]
    )  # the example a refusal suggests: a tier FSx, AMLFS, Managed Lustre and SFS Turbo all sell
    deployment_type: str | None = Field(default=None, description="Service deployment type, e.g. PERSISTENT_2.")
