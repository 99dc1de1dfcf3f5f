"""FSx for Lustre sizing: round capacity up to a valid size and check per-unit throughput.

Figures come from shared/reference-facts/storage.md:
  F1  AWS FSx API CreateFileSystem, StorageCapacity: valid SSD sizes per deployment type.
  F2  FSx for Lustre guide, managing throughput capacity: per-unit throughput tiers.
Create-time settings (`create_time_settings`):
  F3  AWS FSx API CreateFileSystemLustreMetadataConfiguration: a metadata configuration
      (Mode AUTOMATIC | USER_PROVISIONED) exists only for PERSISTENT_2; AUTOMATIC scales
      Metadata IOPS with capacity (SSD only). FileSystemTypeVersion is fixed at creation
      (terraform-provider-aws `file_system_type_version` ForceNew), so an old 2.12 file
      system stays 2.12 until it is replaced.
  F4  pulumi-aws `fsx.LustreFileSystem.efa_enabled`: EFA and GPUDirect Storage support
      "must be set at creation ... cannot be changed", only with PERSISTENT_2, a metadata
      configuration and an EFA-enabled security group (all traffic to and from itself).
"""

from __future__ import annotations

import math
from typing import NamedTuple

DEFAULT_DEPLOYMENT_TYPE = "PERSISTENT_2"
# Whether the node bootstrap configures the Lustre client's EFA network (LNet over EFA, as the
# FSx for Lustre user guide's EFA client setup does). It does not: the clients mount over TCP
# (`clouds.aws.cloud_init`, `@tcp`). An EFA-enabled file system would then be reached over TCP
# all the same, so new file systems are created without EFA (F4: fixed at creation), and
# `plan` says which transport the clients use (`client_transport`).
EFA_CLIENTS_CONFIGURED = False


def client_transport(has_file_system: bool) -> str:
    """How the nodes reach FSx, in words for `plan` and the review ("" without a file system)."""
    if not has_file_system:
        return ""
    return "FSx for Lustre over TCP (LNet socklnd on each node's primary interface; EFA to storage is not configured)"


# The newest Lustre version FSx offers; metadata configurations and EFA need it (F3, F4).
LUSTRE_VERSION = "2.15"

# deployment type -> GiB step after the 1,200 and 2,400 GiB sizes (F1, SSD storage).
CAPACITY_STEP_GIB: dict[str, int] = {
    "SCRATCH_1": 3600,
    "SCRATCH_2": 2400,
    "PERSISTENT_1": 2400,
    "PERSISTENT_2": 2400,
}

# deployment type -> valid per-unit storage throughput, MB/s per TiB (F1, F2; SSD storage).
# Scratch types take no per-unit throughput (the API rejects the field), hence empty.
THROUGHPUT_MBPS_PER_TIB: dict[str, tuple[int, ...]] = {
    "SCRATCH_1": (),
    "SCRATCH_2": (),
    "PERSISTENT_1": (50, 100, 200),
    "PERSISTENT_2": (125, 250, 500, 1000),
}


class FsxSizing(NamedTuple):
    """Arguments for one FSx for Lustre SSD file system.

    Attributes:
        deployment_type: FSx deployment type, e.g. `PERSISTENT_2`.
        storage_capacity_gib: capacity, GiB, a size the API accepts (F1).
        per_unit_storage_throughput: MB/s per TiB (F1, F2), or None for scratch types.
    """

    deployment_type: str
    storage_capacity_gib: int
    per_unit_storage_throughput: int | None


def round_capacity_gib(capacity_gib: int, deployment_type: str = DEFAULT_DEPLOYMENT_TYPE) -> int:
    """Round a requested capacity up to the next size FSx for Lustre accepts.

    SSD sizes are 1,200 GiB, 2,400 GiB, then multiples of 2,400 GiB (3,600 GiB for
    SCRATCH_1) (F1). Examples for PERSISTENT_2: 1 -> 1200, 1201 -> 2400, 2401 -> 4800.

    Args:
        capacity_gib: requested capacity, GiB (> 0).
        deployment_type: FSx deployment type.

    Returns:
        The smallest valid capacity in GiB that is >= `capacity_gib`.

    Raises:
        ValueError: for a non-positive capacity or an unknown deployment type.
    """
    step = CAPACITY_STEP_GIB.get(deployment_type)
    if step is None:
        raise ValueError(_unknown_type(deployment_type))
    if capacity_gib <= 0:
        raise ValueError(f"file_system.capacity_gib: {capacity_gib} must be > 0 GiB")
    for size in (1200, 2400):
        if capacity_gib <= size:
            return size
    return math.ceil(capacity_gib / step) * step


def fsx_sizing(capacity_gib: int, throughput_mbps_per_tib: int, deployment_type: str | None = None) -> FsxSizing:
    """Validate and size an FSx for Lustre SSD file system.

    Args:
        capacity_gib: requested capacity, GiB; rounded up with `round_capacity_gib`.
        throughput_mbps_per_tib: per-unit storage throughput, MB/s per TiB; must be a tier
            of the deployment type (PERSISTENT_2: 125, 250, 500 or 1000; F1, F2). Ignored
            for scratch types, which take none.
        deployment_type: FSx deployment type; None means PERSISTENT_2.

    Returns:
        The deployment type, rounded capacity and per-unit throughput to create.

    Raises:
        ValueError: one line naming the field and its valid values.
    """
    kind = deployment_type or DEFAULT_DEPLOYMENT_TYPE
    capacity = round_capacity_gib(capacity_gib, kind)
    tiers = THROUGHPUT_MBPS_PER_TIB[kind]
    if not tiers:
        return FsxSizing(kind, capacity, None)
    if throughput_mbps_per_tib not in tiers:
        valid = ", ".join(str(t) for t in tiers)
        raise ValueError(
            f"file_system.throughput_mbps_per_tib: {throughput_mbps_per_tib} is not valid "
            f"for {kind}; valid values (MB/s per TiB): {valid}"
        )
    return FsxSizing(kind, capacity, throughput_mbps_per_tib)


def create_time_settings(deployment_type: str, efa_clients: bool) -> dict[str, object]:
    """The `LustreFileSystem` arguments that can only be chosen when it is created.

    PERSISTENT_2 gets Lustre 2.15 and an AUTOMATIC metadata configuration (F3), and EFA
    with GPUDirect Storage when the nodes reach it over EFA with GPUDirect RDMA (F4); the
    cluster security group already allows all traffic to and from itself. Which regions
    offer EFA-enabled file systems is not in the reference facts (unsourced): a region
    without them rejects the create, and a stack can then choose another region.
    Other deployment types get Lustre 2.15 only (they take no metadata configuration).

    Args:
        deployment_type: the FSx deployment type (`PERSISTENT_2`, `SCRATCH_2`, ...).
        efa_clients: True when every node has EFA with GPUDirect RDMA (p4d, p5, ...).

    Returns:
        pulumi-aws keyword arguments: `file_system_type_version`, and for PERSISTENT_2
        `metadata_configuration` and `efa_enabled`.
    """
    settings: dict[str, object] = {"file_system_type_version": LUSTRE_VERSION}
    if deployment_type == "PERSISTENT_2":
        settings["metadata_configuration"] = {"mode": "AUTOMATIC"}
        settings["efa_enabled"] = efa_clients
    return settings


def _unknown_type(deployment_type: str) -> str:
    valid = ", ".join(CAPACITY_STEP_GIB)
    return f"file_system.deployment_type: '{deployment_type}' is not known; valid: {valid}"
