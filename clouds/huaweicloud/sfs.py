"""SFS Turbo (HPC type) sizing: pick the `hpc_bandwidth` tier from the throughput and round
the capacity up to a size the tier accepts.

Figures:
  * Tiers 20M/40M (HDD), 125M/250M (SSD), 500M/1000M (ESSD) MB/s per TiB; bandwidth is
    tier x TiB with a 150 MB/s floor; capacity 3.6 TiB (20M) or 1.2 TiB (others) up to
    1 PB in multiples of 1.2 TiB: shared/reference-facts/china-clouds.md section 4
    (Huawei "SFS Turbo file system types", sfsturbo_01_0005, official).
  * `size` in GiB, from 3,686 (20M) or 1,228 (others) to 1,048,576; "a multiple of 1.2TiB,
    which needs to be rounded down after converting to GiB. Such as 3.6TiB->3686GiB,
    4.8TiB->4915GiB": huaweicloud/terraform-provider-huaweicloud docs/resources/sfs_turbo.md
    (official; the provider pulumi_huaweicloud bridges, section 5.3).
"""

from __future__ import annotations

from typing import NamedTuple

SHARE_TYPE = "HPC"  # `sfs.Turbo(share_type=...)`: the per-TiB bandwidth tiers below
# throughput tier (MB/s per TiB) -> `hpc_bandwidth` value (section 4, sfs_turbo.md).
HPC_BANDWIDTH_TIERS: dict[int, str] = {
    20: "20M",
    40: "40M",
    125: "125M",
    250: "250M",
    500: "500M",
    1000: "1000M",
}
# Minimum capacity in 1.2 TiB steps: 3.6 TiB for 20M, 1.2 TiB for the others (section 4).
MIN_STEPS: dict[int, int] = {20: 3}
# 1.2 TiB in GiB is 1228.8 = 6144 / 5; sizes are k x 6144 / 5 rounded down (sfs_turbo.md).
STEP_GIB_NUMERATOR, STEP_GIB_DENOMINATOR = 6144, 5
MAX_SIZE_GIB = 1_048_576  # sfs_turbo.md; section 4 says "to 1 PB"
MIN_BANDWIDTH_MBPS = 150  # section 4: bandwidth floor


class TurboSizing(NamedTuple):
    """Arguments for one HPC SFS Turbo file system.

    Attributes:
        hpc_bandwidth: tier for `sfs.Turbo(hpc_bandwidth=...)`, e.g. `250M`.
        size_gib: capacity for `sfs.Turbo(size=...)`, GiB (a multiple of 1.2 TiB, rounded
            down to whole GiB).
        mbps_per_tib: the throughput tier, MB/s per TiB.
        bandwidth_mbps: expected file-system bandwidth, MB/s (tier x TiB, at least 150).
    """

    hpc_bandwidth: str
    size_gib: int
    mbps_per_tib: int
    bandwidth_mbps: int


def hpc_bandwidth(throughput_mbps_per_tib: int) -> str:
    """The `hpc_bandwidth` tier for a throughput.

    Args:
        throughput_mbps_per_tib: MB/s per TiB; one of 20, 40, 125, 250, 500, 1000.

    Raises:
        ValueError: for any other value, listing the valid tiers.
    """
    tier = HPC_BANDWIDTH_TIERS.get(throughput_mbps_per_tib)
    if tier is None:
        valid = ", ".join(str(t) for t in HPC_BANDWIDTH_TIERS)
        raise ValueError(
            f"file_system.throughput_mbps_per_tib: {throughput_mbps_per_tib} has no SFS Turbo "
            f"HPC tier; set one of {valid} MB/s per TiB (section 4)"
        )
    return tier


def round_size_gib(capacity_gib: int, throughput_mbps_per_tib: int) -> int:
    """Round a capacity up to the next size the tier accepts.

    Examples: 1 GiB at 250 -> 1228; 1229 -> 2457; 4800 -> 4915; 1 GiB at 20 -> 3686.

    Args:
        capacity_gib: requested capacity, GiB (> 0).
        throughput_mbps_per_tib: the tier, MB/s per TiB (sets the minimum).

    Raises:
        ValueError: for a non-positive capacity, or one above 1,048,576 GiB once rounded.
    """
    if capacity_gib <= 0:
        raise ValueError(f"file_system.capacity_gib: {capacity_gib} must be > 0 GiB")
    # Smallest k with floor(k * 6144 / 5) >= capacity, i.e. k * 6144 >= capacity * 5.
    steps = -(-capacity_gib * STEP_GIB_DENOMINATOR // STEP_GIB_NUMERATOR)
    steps = max(steps, MIN_STEPS.get(throughput_mbps_per_tib, 1))
    size = steps * STEP_GIB_NUMERATOR // STEP_GIB_DENOMINATOR
    if size > MAX_SIZE_GIB:
        raise ValueError(
            f"file_system.capacity_gib: {capacity_gib} rounds up to {size} GiB, above the SFS "
            f"Turbo maximum of {MAX_SIZE_GIB} GiB; ask for less or split the data"
        )
    return size


def turbo_sizing(capacity_gib: int, throughput_mbps_per_tib: int) -> TurboSizing:
    """Validate and size an HPC SFS Turbo file system.

    Args:
        capacity_gib: requested capacity, GiB; rounded up with `round_size_gib`.
        throughput_mbps_per_tib: throughput tier, MB/s per TiB.

    Returns:
        Tier, size in GiB, tier in MB/s per TiB and the expected bandwidth in MB/s.

    Raises:
        ValueError: one line naming the field and its valid values.
    """
    tier = hpc_bandwidth(throughput_mbps_per_tib)
    size = round_size_gib(capacity_gib, throughput_mbps_per_tib)
    bandwidth = max(MIN_BANDWIDTH_MBPS, throughput_mbps_per_tib * size // 1024)
    return TurboSizing(tier, size, throughput_mbps_per_tib, bandwidth)
