"""Size the data path of a job: file-system capacity and throughput, staging time, and whether the
file system can feed the GPUs.

Pure arithmetic over the workload's `data:` (dataset size, file count or mean file size, passes)
and the job's sample rate. Units: GiB for sizes, MB/s (10^6 bytes per second) for rates, as the
file-system services state throughput (FSx "MB/s per TiB", AMLFS "MBps per TiB"), hours for time.

Figures:
  - checkpoints hold 16 bytes per parameter (fp32 master weights, two Adam moments and the 16-bit
    weights: Rajbhandari et al. 2020, ZeRO, section 3.1, the same figure `memory.py` uses);
  - `HEADROOM` (25 % free space on top of data and checkpoints) and `KEPT_CHECKPOINTS` (2, the
    last one and the one being written) are unsourced assumptions, stated as such.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

BYTES_PER_PARAM_CHECKPOINT = 16  # Rajbhandari et al. 2020 (mixed-precision Adam state)
KEPT_CHECKPOINTS = 2  # unsourced assumption: the last complete checkpoint and the one being written
HEADROOM = 0.25  # unsourced assumption: free space kept on top of data and checkpoints
GIB = 2**30
MB = 10**6


def checkpoint_gib(params: float, kept: int = KEPT_CHECKPOINTS) -> float:
    """Space the job's checkpoints take on the shared file system, GiB.

    Args:
        params: model parameters (13e9 for a 13B model).
        kept: checkpoints kept at once.
    """
    return params * BYTES_PER_PARAM_CHECKPOINT * kept / GIB


def capacity_gib(data_gib: float, checkpoints_gib: float = 0.0, headroom: float = HEADROOM) -> float:
    """File-system capacity the job needs before the service rounds it up, GiB:
    `(data + checkpoints) x (1 + headroom)`."""
    return (data_gib + checkpoints_gib) * (1 + headroom)


def mean_file_bytes(data_gib: float, files: int | None, mean_file_mib: float | None) -> float | None:
    """Mean size of one sample file in bytes, from the file count or given directly; None if neither."""
    if mean_file_mib is not None:
        return mean_file_mib * 2**20
    if files:
        return data_gib * GIB / files
    return None


def read_rate_mbps(samples_per_second: float, sample_bytes: float) -> float:
    """Read rate the data loaders need across the whole cluster, MB/s."""
    return samples_per_second * sample_bytes / MB


def throughput_per_tib_needed(read_mbps: float, capacity: float) -> float:
    """Throughput per TiB of capacity that delivers `read_mbps` from `capacity` GiB, MB/s per TiB."""
    return read_mbps / (capacity / 1024)


@dataclass(frozen=True)
class DataPath:
    """The sized data path of one job on one offering.

    Attributes:
        capacity_gib: capacity the job needs, GiB, before the service's rounding.
        fs_capacity_gib: capacity the cloud creates (after its rounding), GiB.
        read_mbps: read rate the GPUs need, MB/s (None without a sample rate or file size).
        provisioned_mbps: what the file system delivers, MB/s (capacity x per-TiB throughput).
        staging_hours: hours spent copying the bucket into the file system before training
            can start (0 for a lazy link that loads a file on its first read).
        cache_fits: True when the whole dataset fits on each node's local NVMe (`/scratch`), so
            passes after the first read from the cache, not from the file system.
    """

    capacity_gib: float
    fs_capacity_gib: float
    read_mbps: float | None
    provisioned_mbps: float
    staging_hours: float
    cache_fits: bool

    @property
    def starves_gpus(self) -> bool:
        """True when the file system delivers less than the data loaders read."""
        return self.read_mbps is not None and self.provisioned_mbps < self.read_mbps

    def problem(self) -> str | None:
        """One line when the file system cannot feed the GPUs, with what would; else None."""
        if not self.starves_gpus:
            return None
        assert self.read_mbps is not None
        per_tib = math.ceil(throughput_per_tib_needed(self.read_mbps, self.fs_capacity_gib))
        return (f"file system delivers {self.provisioned_mbps:,.0f} MB/s but the GPUs read "
                f"{self.read_mbps:,.0f} MB/s; raise file_system.throughput to >= {per_tib} MB/s per TiB "
                "or the capacity")


def size_data_path(data_gib: float, checkpoints_gib: float, fs_capacity_gib: float, per_tib_mbps: float,
                   read_mbps: float | None, local_nvme_gib: float | None, lazy_link: bool) -> DataPath:
    """Size one job's data path.

    Args:
        data_gib: dataset size, GiB.
        checkpoints_gib: checkpoint space, GiB (`checkpoint_gib`).
        fs_capacity_gib: the capacity the cloud will create (after its rounding), GiB.
        per_tib_mbps: the file system's throughput, MB/s per TiB.
        read_mbps: read rate the GPUs need, MB/s; None when unknown.
        local_nvme_gib: local NVMe per node, GiB; None or 0 without local disks.
        lazy_link: True when the bucket link loads files on first read (FSx data repository
            association); False when the data must be imported before training.

    Returns:
        The sized `DataPath`; staging at the file system's provisioned throughput, the upper
        bound of what an import can write.
    """
    provisioned = fs_capacity_gib / 1024 * per_tib_mbps
    staging = 0.0 if lazy_link else data_gib * GIB / MB / provisioned / 3600
    return DataPath(
        capacity_gib=capacity_gib(data_gib, checkpoints_gib),
        fs_capacity_gib=fs_capacity_gib,
        read_mbps=read_mbps,
        provisioned_mbps=provisioned,
        staging_hours=staging,
        cache_fits=bool(local_nvme_gib) and data_gib <= float(local_nvme_gib or 0),
    )
