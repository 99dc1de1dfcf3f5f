"""Azure Managed Lustre (AMLFS) sizing: pick the SKU from the throughput tier and round
the capacity up to a size that SKU accepts.

Figures come from shared/reference-facts/storage.md, Azure Managed Lustre section:
  M1  Microsoft Learn, AMLFS "create file system using Resource Manager templates" SKU
      table: per-SKU throughput per TiB, minimum size and increment (min == increment).
  M2  third-party copy of the Microsoft throughput table; it agrees with M1 on minimum and
      increment but lists larger maxima (e.g. 256 TiB vs 128 TiB for -250).
Because M1 and M2 disagree on maxima (and larger sizes are possible via a support ticket,
M1), no maximum is enforced here; Azure rejects a size it does not accept.
"""

from __future__ import annotations

import math
from typing import NamedTuple

GIB_PER_TIB = 1024


class AmlfsSku(NamedTuple):
    """One AMLFS SKU (M1).

    Attributes:
        name: SKU name for `AmlFilesystem(sku={"name": ...})`.
        mbps_per_tib: provisioned throughput, MB/s per TiB of capacity.
        min_tib: smallest capacity, TiB.
        step_tib: capacity increment, TiB.
    """

    name: str
    mbps_per_tib: int
    min_tib: int
    step_tib: int


# throughput tier (MB/s per TiB) -> SKU (M1, M2).
AMLFS_SKUS: dict[int, AmlfsSku] = {
    40: AmlfsSku("AMLFS-Durable-Premium-40", 40, 48, 48),
    125: AmlfsSku("AMLFS-Durable-Premium-125", 125, 16, 16),
    250: AmlfsSku("AMLFS-Durable-Premium-250", 250, 8, 8),
    500: AmlfsSku("AMLFS-Durable-Premium-500", 500, 4, 4),
}

# A choice, not a sourced figure: the weekly 30-minute maintenance window (the API
# requires one; M1 shows day-of-week plus "HH:MM" UTC).
MAINTENANCE_DAY = "Sunday"
MAINTENANCE_TIME_UTC = "02:00"

# The Lustre file-system name AMLFS clients mount (`<mgs>@tcp:/lustrefs`), as in the Azure
# Lustre CSI driver docs and AMLFS mount examples; not in shared/reference-facts.
LUSTRE_FS_NAME = "lustrefs"


class AmlfsSizing(NamedTuple):
    """Arguments for one AMLFS file system.

    Attributes:
        sku: SKU name, e.g. `AMLFS-Durable-Premium-250`.
        capacity_tib: capacity, TiB, a size the SKU accepts (M1).
        mbps_per_tib: throughput tier, MB/s per TiB.
    """

    sku: str
    capacity_tib: int
    mbps_per_tib: int


def amlfs_sku(throughput_mbps_per_tib: int) -> AmlfsSku:
    """The AMLFS SKU for a throughput tier.

    Args:
        throughput_mbps_per_tib: MB/s per TiB; one of 40, 125, 250, 500 (M1).

    Raises:
        ValueError: for any other value, listing the valid tiers and their SKUs.
    """
    sku = AMLFS_SKUS.get(throughput_mbps_per_tib)
    if sku is None:
        valid = ", ".join(f"{tier} ({s.name})" for tier, s in AMLFS_SKUS.items())
        raise ValueError(
            f"file_system.throughput_mbps_per_tib: {throughput_mbps_per_tib} has no Azure "
            f"Managed Lustre SKU; valid values (MB/s per TiB): {valid}"
        )
    return sku


def deployment_type_problem(deployment_type: str | None, throughput_mbps_per_tib: int) -> str | None:
    """Why a stack's `file_system.deployment_type` means nothing here, or None: Azure Managed
    Lustre has one kind, its SKU chosen by the throughput tier (M1), so only that SKU's own
    name is accepted (another cloud's type, `PERSISTENT_2` or `SCRATCH_2`, was ignored without
    a word)."""
    if deployment_type is None:
        return None
    sku = AMLFS_SKUS.get(throughput_mbps_per_tib)
    if sku is not None and deployment_type.lower() == sku.name.lower():
        return None
    chosen = f" (here {sku.name})" if sku is not None else ""
    return (
        f"file_system.deployment_type: '{deployment_type}' is not an Azure Managed Lustre choice: its SKU follows "
        f"throughput_mbps_per_tib{chosen}; remove deployment_type"
    )


def round_capacity_tib(capacity_gib: int, sku: AmlfsSku) -> int:
    """Round a requested capacity up to the next size the SKU accepts.

    Sizes are whole multiples of the SKU's increment, starting at its minimum (M1).
    Examples for AMLFS-Durable-Premium-250 (8 TiB steps): 1 GiB -> 8, 4800 GiB -> 8,
    8192 GiB -> 8, 8193 GiB -> 16.

    Args:
        capacity_gib: requested capacity, GiB (> 0).
        sku: the SKU.

    Returns:
        The smallest valid capacity in TiB that holds `capacity_gib`.

    Raises:
        ValueError: for a non-positive capacity.
    """
    if capacity_gib <= 0:
        raise ValueError(f"file_system.capacity_gib: {capacity_gib} must be > 0 GiB")
    tib = math.ceil(capacity_gib / GIB_PER_TIB)
    return max(sku.min_tib, math.ceil(tib / sku.step_tib) * sku.step_tib)


def amlfs_sizing(capacity_gib: int, throughput_mbps_per_tib: int) -> AmlfsSizing:
    """Validate and size an AMLFS file system.

    Args:
        capacity_gib: requested capacity, GiB; rounded up with `round_capacity_tib`.
        throughput_mbps_per_tib: throughput tier, MB/s per TiB (40, 125, 250 or 500; M1).

    Returns:
        SKU name, rounded capacity in TiB and the tier.

    Raises:
        ValueError: one line naming the field and its valid values.
    """
    sku = amlfs_sku(throughput_mbps_per_tib)
    return AmlfsSizing(sku.name, round_capacity_tib(capacity_gib, sku), sku.mbps_per_tib)
