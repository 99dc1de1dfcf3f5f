"""CFS Turbo sizing: pick Standard Turbo (TB) or High-Performance Turbo (TP) and round the
capacity up to a size that type accepts.

Facts from shared/reference-facts/china-clouds.md section 4 (official: Tencent CFS limits
doc 2024, billing doc 2025-11-25), which the tencentcloud-iac-pulumi 0.2.3
`cfs.FileSystem.capacity` doc repeats:
  * `TB` (Standard Turbo): minimum 40,960 GiB, step 20,480 GiB.
  * `TP` (High-Performance Turbo): minimum 20,480 GiB, step 10,240 GiB.
  * spec limit 100 PiB and 100 GiB/s per file system (recommended at most 4 PiB / 2 PiB
    and 10 GiB/s); billed hourly on **purchased** capacity, so rounding up is billed.
  * Turbo needs `protocol="TURBO"` and `net_interface="CCN"` with `ccn_id` and a
    `cidr_block` that must not overlap other ranges in the CCN (SDK doc).
  * Throughput per TiB of TB and TP: **unsourced**. `throughput_mbps_per_tib` therefore
    cannot choose between them; `FileSystemConfig.deployment_type` (`TB` or `TP`) does,
    and None picks `TP` (the high-performance type, with the smaller minimum purchase).
  * Price: unsourced.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from clouds.filesystems import FileSystemRequest

PROTOCOL = "TURBO"
NET_INTERFACE = "CCN"
DEFAULT_TYPE = "TP"
MAX_CAPACITY_GIB = 100 * 1024 * 1024  # 100 PiB spec limit (section 4)


class TurboType(NamedTuple):
    """One CFS Turbo storage type (section 4).

    Attributes:
        storage_type: `TB` or `TP`.
        label: the product name.
        min_gib: smallest capacity, GiB.
        step_gib: capacity increment, GiB.
    """

    storage_type: str
    label: str
    min_gib: int
    step_gib: int


TURBO_TYPES: dict[str, TurboType] = {
    "TB": TurboType("TB", "Standard Turbo", 40_960, 20_480),
    "TP": TurboType("TP", "High-Performance Turbo", 20_480, 10_240),
}


class TurboSizing(NamedTuple):
    """Arguments of one CFS Turbo file system.

    Attributes:
        storage_type: `TB` or `TP`.
        capacity_gib: capacity, GiB, a size the type accepts.
    """

    storage_type: str
    capacity_gib: int


def round_capacity_gib(capacity_gib: int, turbo: TurboType) -> int:
    """Round a requested capacity up to the type's minimum plus whole steps.

    Examples for TP (20,480 + n x 10,240): 4,800 -> 20,480; 20,481 -> 30,720.
    For TB (40,960 + n x 20,480): 40,960 -> 40,960; 50,000 -> 61,440.

    Raises:
        ValueError: for a non-positive capacity.
    """
    if capacity_gib <= 0:
        raise ValueError(f"file_system.capacity_gib: {capacity_gib} must be > 0 GiB")
    if capacity_gib <= turbo.min_gib:
        return turbo.min_gib
    steps = math.ceil((capacity_gib - turbo.min_gib) / turbo.step_gib)
    return turbo.min_gib + steps * turbo.step_gib


def turbo_sizing(config: FileSystemRequest) -> TurboSizing:
    """Validate a file-system config and size the CFS Turbo file system.

    Args:
        config: capacity (GiB, rounded up) and deployment type (`TB`, `TP` or None for TP).

    Returns:
        The storage type and the rounded capacity.

    Raises:
        ValueError: one line naming the field and its valid values.
    """
    kind = (config.deployment_type or DEFAULT_TYPE).upper()
    turbo = TURBO_TYPES.get(kind)
    if turbo is None:
        valid = ", ".join(f"{t.storage_type} ({t.label})" for t in TURBO_TYPES.values())
        raise ValueError(
            f"file_system.deployment_type: '{config.deployment_type}' is not a CFS Turbo type; "
            f"valid: {valid}, or omit it for TP"
        )
    capacity = round_capacity_gib(config.capacity_gib, turbo)
    if capacity > MAX_CAPACITY_GIB:
        raise ValueError(
            f"file_system.capacity_gib: {config.capacity_gib} exceeds the CFS Turbo limit of "
            f"{MAX_CAPACITY_GIB} GiB (100 PiB); request less or split the data"
        )
    return TurboSizing(turbo.storage_type, capacity)
