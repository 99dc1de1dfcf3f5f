"""Which GCP file system to create for a `FileSystemConfig`, and its size.

Source ids refer to shared/reference-facts/storage.md:
  C1, C4  Filestore service tiers: ZONAL holds 1-9.75 TiB in 256 GiB steps and
          10-100 TiB in 2.5 TiB steps; per TiB it reads 260 MiB/s.
  L1      Managed Lustre performance tiers (MB/s per TiB -> min, max, step GiB).
  P1      Parallelstore is available by invitation only, so it is never chosen.

Rule (`choose_file_system`): with no `deployment_type`, Managed Lustre when the requested
throughput is one of its tiers (125, 250, 500, 1000 MB/s per TiB) and the capacity
reaches that tier's minimum; otherwise Filestore ZONAL, but only when it delivers the
throughput asked (it writes 88 MiB/s per TiB, C4): below that it is an error, never a
silent switch to a file system a third as fast. `deployment_type` `ZONAL` or
`MANAGED_LUSTRE` chooses the service explicitly. Capacity is always rounded up, never down.
The resolver prices the Filestore fallback (`offered_file_system`) and writes its choice
into the stack as `deployment_type: ZONAL` (`explicit_deployment_type`), and says so.

L1 gives Lustre steps as e.g. "9,000 up to 1,530,000; then 72,000". Above the threshold
sizes are read as multiples of the larger step (every L1 maximum is one: 10,008,000 =
139 x 72,000), not as threshold + k x step.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from clouds.filesystems import Delivery, FileSystemAsk, FileSystemRequest

FILESTORE = "filestore"
LUSTRE = "lustre"
FILESTORE_TIER = "ZONAL"
MANAGED_LUSTRE = "MANAGED_LUSTRE"
SHARE_NAME = "trainstack"  # Filestore share (at most 16 characters)
LUSTRE_FILESYSTEM = "trainfs"  # Lustre fsname (at most 8 letters and digits)
# Filestore ZONAL sizes, GiB (C1, C4): 1,024-9,984 by 256, then 10,240-102,400 by 2,560.
FILESTORE_MIN_GIB = 1024
FILESTORE_LOW_MAX_GIB = 9984
FILESTORE_LOW_STEP_GIB = 256
FILESTORE_HIGH_MIN_GIB = 10240
FILESTORE_HIGH_STEP_GIB = 2560
FILESTORE_MAX_GIB = 102400
FILESTORE_READ_MIBPS_PER_TIB = 260  # C4, per TiB of capacity
FILESTORE_WRITE_MIBPS_PER_TIB = 88  # C4, per TiB of capacity (lower range)
_MB_PER_MIB = 1.048576


class LustreTier(NamedTuple):
    """Capacity rules of one Managed Lustre performance tier, GiB (L1).

    Attributes:
        min_gib: smallest capacity.
        max_gib: largest capacity.
        step_gib: step up to `threshold_gib`.
        threshold_gib: size after which `large_step_gib` applies.
        large_step_gib: step above the threshold (sizes are multiples of it).
    """

    min_gib: int
    max_gib: int
    step_gib: int
    threshold_gib: int
    large_step_gib: int


# MB/s per TiB -> tier (L1).
LUSTRE_TIERS: dict[int, LustreTier] = {
    1000: LustreTier(9_000, 10_008_000, 9_000, 1_530_000, 72_000),
    500: LustreTier(18_000, 20_016_000, 18_000, 3_060_000, 144_000),
    250: LustreTier(36_000, 40_032_000, 36_000, 6_120_000, 288_000),
    125: LustreTier(72_000, 12_240_000, 72_000, 12_240_000, 72_000),
}


class FileSystemChoice(NamedTuple):
    """The file system to create.

    Attributes:
        kind: `filestore` or `lustre`.
        capacity_gib: capacity, GiB, a size the service accepts.
        tier: Filestore tier (`ZONAL`) or Lustre MB/s per TiB (`"250"`, a string as
            `gcp.lustre.Instance.per_unit_storage_throughput` takes it).
    """

    kind: str
    capacity_gib: int
    tier: str


def _round_up(value: int, step: int) -> int:
    return math.ceil(value / step) * step


def filestore_capacity_gib(capacity_gib: int) -> int:
    """Round up to a Filestore ZONAL size (C1, C4): 1 -> 1024, 4800 -> 4864, 9985 -> 10240.

    Raises:
        ValueError: for a non-positive capacity or one above 102,400 GiB (100 TiB).
    """
    if capacity_gib <= 0:
        raise ValueError(f"file_system.capacity_gib: {capacity_gib} must be > 0 GiB")
    if capacity_gib > FILESTORE_MAX_GIB:
        raise ValueError(
            f"file_system.capacity_gib: {capacity_gib} GiB exceeds Filestore ZONAL's "
            f"{FILESTORE_MAX_GIB} GiB; for Managed Lustre set "
            f"throughput_mbps_per_tib to one of {', '.join(map(str, sorted(LUSTRE_TIERS)))}"
        )
    size = max(capacity_gib, FILESTORE_MIN_GIB)
    if size <= FILESTORE_LOW_MAX_GIB:
        return _round_up(size, FILESTORE_LOW_STEP_GIB)
    return max(_round_up(size, FILESTORE_HIGH_STEP_GIB), FILESTORE_HIGH_MIN_GIB)


def lustre_capacity_gib(capacity_gib: int, throughput_mbps_per_tib: int) -> int:
    """Round up to a Managed Lustre size of the tier (L1), at least its minimum.

    Example: 4800 GiB at 250 -> 36,000; 40,000 at 250 -> 72,000; 1,600,000 at 1000 ->
    1,656,000 (multiple of 72,000 above 1,530,000).

    Raises:
        ValueError: for an unknown tier or a capacity above the tier's maximum.
    """
    tier = LUSTRE_TIERS.get(throughput_mbps_per_tib)
    if tier is None:
        raise ValueError(
            f"file_system.throughput_mbps_per_tib: {throughput_mbps_per_tib} is not a Managed "
            f"Lustre tier; valid (MB/s per TiB): {', '.join(map(str, sorted(LUSTRE_TIERS)))}"
        )
    size = max(capacity_gib, tier.min_gib)
    size = _round_up(size, tier.step_gib)
    if size > tier.threshold_gib:
        size = _round_up(size, tier.large_step_gib)
    if size > tier.max_gib:
        holding = [str(mbps) for mbps, t in sorted(LUSTRE_TIERS.items()) if capacity_gib <= t.max_gib]
        fix = f"set throughput_mbps_per_tib to {' or '.join(holding)}" if holding else "ask for less"
        raise ValueError(
            f"file_system.capacity_gib: {capacity_gib} GiB exceeds the {throughput_mbps_per_tib} "
            f"MB/s/TiB Managed Lustre maximum of {tier.max_gib} GiB; {fix}"
        )
    return size


def choose_file_system(fs: FileSystemRequest) -> FileSystemChoice:
    """Pick Filestore ZONAL or Managed Lustre and size it (rule in the module docstring).

    Args:
        fs: requested capacity (GiB), throughput (MB/s per TiB) and optional
            `deployment_type` (`ZONAL`, `MANAGED_LUSTRE`, or None to choose).

    Returns:
        The service, its rounded capacity and its tier.

    Raises:
        ValueError: for Parallelstore (P1) or another unknown `deployment_type`, or a
            size the chosen service cannot hold.
    """
    kind = (fs.deployment_type or "").upper()
    if kind not in ("", FILESTORE_TIER, MANAGED_LUSTRE):
        hint = " (Parallelstore is invitation-only, P1)" if kind == "PARALLELSTORE" else ""
        raise ValueError(
            f"file_system.deployment_type: '{fs.deployment_type}' is not supported on GCP{hint}; "
            f"valid: {FILESTORE_TIER}, {MANAGED_LUSTRE}, or leave it unset to choose"
        )
    tier = LUSTRE_TIERS.get(fs.throughput_mbps_per_tib)
    lustre = kind == MANAGED_LUSTRE or (kind == "" and tier is not None and fs.capacity_gib >= tier.min_gib)
    if lustre:
        size = lustre_capacity_gib(fs.capacity_gib, fs.throughput_mbps_per_tib)
        return FileSystemChoice(LUSTRE, size, str(fs.throughput_mbps_per_tib))
    if fs.capacity_gib > FILESTORE_MAX_GIB:
        raise ValueError(_filestore_too_small(fs, tier))
    size = filestore_capacity_gib(fs.capacity_gib)
    if kind == "" and fs.throughput_mbps_per_tib > filestore_write_mbps_per_tib():
        raise ValueError(_shortfall(fs, tier))
    return FileSystemChoice(FILESTORE, size, FILESTORE_TIER)


def filestore_write_mbps_per_tib() -> float:
    """Filestore ZONAL's write throughput, MB/s per TiB (88 MiB/s, C4)."""
    return FILESTORE_WRITE_MIBPS_PER_TIB * _MB_PER_MIB


def delivered(fs: FileSystemRequest) -> Delivery:
    """What the file system offered for `fs` delivers, MB/s (`offered_file_system`): Managed
    Lustre its capacity x tier (L1); Filestore ZONAL, which sells no throughput tiers, reads
    260 and writes 88 MiB/s per TiB of capacity whatever tier was asked (C4).

    Raises:
        ValueError: when neither service can hold `fs`.
    """
    choice = offered_file_system(fs)
    tib = choice.capacity_gib / 1024
    if choice.kind == LUSTRE:
        rate = tib * int(choice.tier)
        return Delivery(rate, rate, "Google's Managed Lustre tier", f"Managed Lustre {choice.tier} MB/s per TiB")
    return Delivery(
        tib * FILESTORE_READ_MIBPS_PER_TIB * _MB_PER_MIB,
        tib * FILESTORE_WRITE_MIBPS_PER_TIB * _MB_PER_MIB,
        "Google's Filestore zonal tier table",
        f"Filestore {FILESTORE_TIER}",
    )


def _filestore_too_small(fs: FileSystemRequest, tier: LustreTier | None) -> str:
    """The refusal of a capacity above Filestore ZONAL's largest size: the fix is Managed Lustre,
    chosen by `deployment_type` when Filestore was chosen explicitly, else by a throughput that
    is one of its tiers; only tiers that hold the capacity are named."""
    head = f"file_system.capacity_gib: {fs.capacity_gib} GiB exceeds Filestore ZONAL's {FILESTORE_MAX_GIB} GiB"
    explicit = (fs.deployment_type or "").upper() == FILESTORE_TIER
    switch = f"set file_system.deployment_type: {MANAGED_LUSTRE}" if explicit else "for Managed Lustre set"
    if explicit and tier is not None and fs.capacity_gib <= tier.max_gib:
        return f"{head}; {switch} (at {fs.throughput_mbps_per_tib} MB/s per TiB)"
    fits = [mbps for mbps, t in sorted(LUSTRE_TIERS.items()) if fs.capacity_gib <= t.max_gib]
    if not fits:
        largest = max(t.max_gib for t in LUSTRE_TIERS.values())
        return f"{head} and every Managed Lustre tier's maximum ({largest} GiB); ask for less"
    return f"{head}; {switch}{' and' if explicit else ''} throughput_mbps_per_tib to one of {', '.join(map(str, fits))}"


def _shortfall(fs: FileSystemRequest, tier: LustreTier | None) -> str:
    lustre = (
        f"raise capacity_gib to {tier.min_gib} for Managed Lustre at {fs.throughput_mbps_per_tib} MB/s per TiB, "
        if tier
        else ""
    )
    return (
        f"file_system: {fs.capacity_gib} GiB at {fs.throughput_mbps_per_tib} MB/s per TiB fits no Managed Lustre "
        f"tier, and Filestore ZONAL writes only {FILESTORE_WRITE_MIBPS_PER_TIB} MiB/s per TiB; "
        f"{lustre}or set file_system.deployment_type: ZONAL to accept Filestore's throughput"
    )


def explicit_deployment_type(fs: FileSystemRequest) -> str | None:
    """`ZONAL` when only an explicit choice gets `fs` a file system (Filestore below the
    throughput asked), for the stack writer to record; None when the rule needs none."""
    if fs.deployment_type:
        return None
    try:
        choose_file_system(fs)
    except ValueError:
        return FILESTORE_TIER
    return None


def offered_file_system(fs: FileSystemRequest) -> FileSystemChoice:
    """What the resolver can offer for `fs`: the component's choice, or Filestore ZONAL where
    the stack will have to choose it explicitly (`explicit_deployment_type`).

    Raises:
        ValueError: when neither service can hold `fs` (see `choose_file_system`).
    """
    explicit = explicit_deployment_type(fs)
    return choose_file_system(FileSystemAsk(fs.capacity_gib, fs.throughput_mbps_per_tib, explicit) if explicit else fs)
