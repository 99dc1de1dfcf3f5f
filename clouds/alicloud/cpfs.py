"""Alibaba parallel file system choice: CPFS (general-purpose) sized by throughput tier.

Facts from shared/reference-facts/china-clouds.md section 4 (official) and the
pulumi-alicloud 4.0.0 `nas.FileSystem` docs:
  * CPFS general: `nas.FileSystem(file_system_type="cpfs", protocol_type="cpfs")` with
    `storage_type` `advance_100` / `advance_200` = 100 / 200 MB/s per TiB baseline;
    `capacity` in GiB is required; VPC and vSwitch are required.
  * CPFS capacity minimum and step: **unsourced** (the SDK points to the purchase page;
    its examples use 3,600 GiB). The requested GiB are passed through unchanged and Alibaba
    rejects a size it does not sell.
  * CPFS maximum capacity: 1 PiB per file system (Alibaba Cloud "CPFS: Limits",
    alibabacloud.com/help/en/cpfs/limits-1, "Maximum capacity of a file system | 1 PiB";
    not yet in shared/reference-facts): a larger `capacity_gib` is refused.
  * NAS Extreme (`file_system_type="extreme"`, `storage_type` standard/advance): its
    throughput per TiB is **unsourced**, so no throughput tier can select it and this
    component never picks it.
  * CPFS for Lingjun (`bmcpfs`, 400 MB/s per TiB) is **not creatable by API** (section 0
    item 4; console only): never chosen.
  * CPFS encryption: `encrypt_type` accepts managed keys only for `standard` and
    `extreme` (SDK doc), so a CPFS file system is created without `encrypt_type`.
  * CPFS file systems are available only on the China site (aliyun.com), per Alibaba's NAS
    CreateMountTarget API doc (not yet in shared/reference-facts).
"""

from __future__ import annotations

from typing import NamedTuple

from clouds.filesystems import FileSystemRequest

FILE_SYSTEM_TYPE = "cpfs"
PROTOCOL_TYPE = "cpfs"
# throughput tier (MB/s per TiB) -> CPFS storage type (section 4).
CPFS_STORAGE_TYPES: dict[int, str] = {100: "advance_100", 200: "advance_200"}
_NOT_CREATABLE = {"bmcpfs", "lingjun", "cpfs-lingjun"}
CPFS_MAX_GIB = 1024 * 1024  # 1 PiB per file system (CPFS "Limits", module docstring)


class CpfsSizing(NamedTuple):
    """Arguments of one CPFS file system.

    Attributes:
        file_system_type: `cpfs`.
        protocol_type: `cpfs`.
        storage_type: `advance_100` or `advance_200`.
        capacity_gib: capacity, GiB, as requested (minimum and step unsourced).
        mbps_per_tib: baseline throughput, MB/s per TiB.
    """

    file_system_type: str
    protocol_type: str
    storage_type: str
    capacity_gib: int
    mbps_per_tib: int


def cpfs_sizing(config: FileSystemRequest) -> CpfsSizing:
    """Validate a file-system config and choose the CPFS storage type.

    Args:
        config: requested capacity (GiB), throughput (MB/s per TiB: 100 or 200) and
            deployment type (None or `cpfs`).

    Returns:
        The CPFS arguments.

    Raises:
        ValueError: one line naming the field and its valid values (a deployment type, a
            throughput that is no CPFS storage type, a capacity above 1 PiB).
    """
    kind = (config.deployment_type or FILE_SYSTEM_TYPE).lower()
    if kind in _NOT_CREATABLE:
        raise ValueError(
            f"file_system.deployment_type: {config.deployment_type} (CPFS for Lingjun) cannot "
            "be created through the API (console only); use deployment_type: cpfs or omit it"
        )
    if kind != FILE_SYSTEM_TYPE:
        raise ValueError(
            f"file_system.deployment_type: '{config.deployment_type}' is not offered on "
            "Alibaba Cloud (NAS Extreme has no sourced throughput per TiB); use cpfs or omit it"
        )
    storage_type = CPFS_STORAGE_TYPES.get(config.throughput_mbps_per_tib)
    if storage_type is None:
        valid = ", ".join(f"{tier} ({name})" for tier, name in CPFS_STORAGE_TYPES.items())
        raise ValueError(
            f"file_system.throughput_mbps_per_tib: {config.throughput_mbps_per_tib} has no CPFS "
            f"storage type; valid values (MB/s per TiB): {valid}"
        )
    if config.capacity_gib > CPFS_MAX_GIB:
        raise ValueError(
            f"file_system.capacity_gib: {config.capacity_gib} GiB exceeds CPFS's 1 PiB per file system "
            f"({CPFS_MAX_GIB} GiB); ask for {CPFS_MAX_GIB} or less, or split the data"
        )
    return CpfsSizing(
        FILE_SYSTEM_TYPE,
        PROTOCOL_TYPE,
        storage_type,
        config.capacity_gib,
        config.throughput_mbps_per_tib,
    )
