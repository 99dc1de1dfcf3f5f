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
        staging_how: what copies the dataset in and on what basis its rate stands ("" when
            nothing is copied).
        first_pass_mbps: how fast a lazy link loads the first pass from the bucket, MB/s, when
            that is its own bound (Alibaba's data flow); None: the file system's rate.
    """

    capacity_gib: float
    fs_capacity_gib: float
    read_mbps: float | None
    provisioned_mbps: float
    staging_hours: float
    cache_fits: bool
    staging_how: str = ""
    first_pass_mbps: float | None = None

    @property
    def first_pass_rate(self) -> float:
        """What the first pass reads at, MB/s: the file system's rate, or the link's when slower."""
        link = self.first_pass_mbps if self.first_pass_mbps is not None else self.provisioned_mbps
        return min(self.provisioned_mbps, link)

    def hours_with_io(self, compute_hours: float, data_gib: float, passes: float) -> float:
        """The job's hours when reading is slower than computing: without the `/scratch` cache
        every pass reads the file system (`max(compute, all reads)`, the first at
        `first_pass_rate`); with it only the first pass does (compute plus what that pass's
        reads take beyond its share of compute)."""
        if not self.starves_gpus:
            return compute_hours
        megabytes = data_gib * GIB / MB
        first = megabytes / self.first_pass_rate / 3600
        if self.cache_fits:
            return compute_hours + max(0.0, first - compute_hours / passes)
        rest = megabytes / self.provisioned_mbps / 3600
        return max(compute_hours, first * min(passes, 1.0) + rest * max(passes - 1.0, 0.0))

    @property
    def starves_gpus(self) -> bool:
        """True when the file system (or, for the first pass, the link) delivers less than the
        data loaders read."""
        return self.read_mbps is not None and self.first_pass_rate < self.read_mbps


def size_data_path(
    data_gib: float,
    checkpoints_gib: float,
    fs_capacity_gib: float,
    per_tib_mbps: float,
    read_mbps: float | None,
    local_nvme_gib: float | None,
    lazy_link: bool,
    *,
    delivered_mbps: float | None = None,
    staging_mbps: float | None = None,
    staging_how: str = "",
    first_pass_mbps: float | None = None,
) -> DataPath:
    """Size one job's data path.

    Args:
        data_gib: dataset size, GiB.
        checkpoints_gib: checkpoint space, GiB (`checkpoint_gib`).
        fs_capacity_gib: the capacity the cloud will create (after its rounding), GiB.
        per_tib_mbps: the file system's throughput, MB/s per TiB.
        read_mbps: read rate the GPUs need, MB/s; None when unknown.
        local_nvme_gib: local NVMe per node, GiB; None or 0 without local disks.
        lazy_link: True when the bucket link loads files on first read (FSx data repository
            association); False when the data must be copied in before training.
        delivered_mbps: what the created file system reads, MB/s, when it is not capacity x
            `per_tib_mbps` (a service without tiers: `clouds.filesystems.delivered`).
        staging_mbps: the copy's rate, MB/s (`clouds.data.staging`: what the cloud's copy path
            and its documented rate give); None: the file system's provisioned throughput,
            the upper bound of what any copy can write.
        staging_how: what copies and on what basis, for the row's note.
        first_pass_mbps: a lazy link's own bound on the first pass, MB/s (`DataPath`).

    Returns:
        The sized `DataPath`.
    """
    provisioned = delivered_mbps if delivered_mbps is not None else fs_capacity_gib / 1024 * per_tib_mbps
    rate = staging_mbps if staging_mbps is not None else provisioned
    staging = 0.0 if lazy_link else data_gib * GIB / MB / rate / 3600
    return DataPath(
        capacity_gib=capacity_gib(data_gib, checkpoints_gib),
        fs_capacity_gib=fs_capacity_gib,
        read_mbps=read_mbps,
        provisioned_mbps=provisioned,
        staging_hours=staging,
        cache_fits=bool(local_nvme_gib) and data_gib <= float(local_nvme_gib or 0),
        staging_how="" if lazy_link else staging_how,
        first_pass_mbps=first_pass_mbps if lazy_link else None,
    )


def row_data_path(
    data_gib: float,
    passes: float,
    params: float | None,
    fs_capacity_gib: float,
    per_tib_mbps: float,
    compute_hours: float,
    local_nvme: float | None,
    lazy_link: bool,
    **rates: float | str | None,
) -> DataPath:
    """The data path of one resolve row: the job reads its dataset `passes` times over its compute hours.

    The read rate is the average the data loaders need, `data x passes / compute hours`; with the
    whole dataset cached on each node's `/scratch`, only the first pass reads the file system,
    still at the rate the GPUs consume it.

    Args:
        data_gib: dataset size, GiB.
        passes: passes over the data.
        params: model parameters for the checkpoint space, or None.
        fs_capacity_gib: capacity the cloud creates, GiB.
        per_tib_mbps: file-system throughput, MB/s per TiB.
        compute_hours: the job's hours on this row before staging.
        local_nvme: local NVMe per node, GiB, or None.
        lazy_link: see `size_data_path`.
        rates: `delivered_mbps`, `staging_mbps`, `staging_how` of `size_data_path`.
    """
    read = data_gib * GIB / MB * passes / (compute_hours * 3600)
    ckpt = checkpoint_gib(params) if params else 0.0
    return size_data_path(data_gib, ckpt, fs_capacity_gib, per_tib_mbps, read, local_nvme, lazy_link, **rates)  # type: ignore[arg-type]


def describe(path: DataPath, io_hours: float = 0.0) -> tuple[str, ...]:
    """Row notes: the read rate against what the file system delivers, hours lost to I/O and
    staging, and the `/scratch` cache.

    Args:
        path: the row's data path.
        io_hours: hours the job spends waiting on the file system (`hours_with_io` - compute).
    """
    notes = []
    if path.read_mbps is not None:
        cache = "; /scratch caches the dataset after the first pass" if path.cache_fits else ""
        link = (
            f"; the first pass loads through the bucket link at {path.first_pass_rate:,.0f} MB/s"
            if path.first_pass_rate < path.provisioned_mbps
            else ""
        )
        notes.append(
            f"data: GPUs can read {path.read_mbps:,.0f} MB/s, the file system delivers "
            f"{path.provisioned_mbps:,.0f} MB/s{link}{cache}"
        )
    if path.starves_gpus:
        bound = "the first pass is" if path.cache_fits else "the job is"
        notes.append(
            f"data: {bound} I/O bound: +{io_hours:.2f} h; more file_system.throughput "
            "(MB/s per TiB) or capacity feeds the GPUs"
        )
    if path.staging_hours:
        how = f" ({path.staging_how})" if path.staging_how else ""
        notes.append(f"data: +{path.staging_hours:.2f} h to import the dataset before training{how}")
    return tuple(notes)
