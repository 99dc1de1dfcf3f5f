"""vePFS sizing: the store type from the throughput (or an explicit deployment type) and
the capacity in whole TiB.

Facts:
  * `store_type` is `Advance_100`, `Performance` or `Intelligent_Computing`
    (china-clouds.md section 4, Terraform `vepfs_file_system` doc, official).
  * "Advance_100: 100MB/s/TiB" and "capacity: File system capacity, unit: TiB"
    (pulumi_volcenginecc `vepfs.Instance` doc, official provider source; the Terraform doc
    behind pulumi_volcengine does not state the unit, section 4).
  * Per-TiB throughput of `Performance` and `Intelligent_Computing`: unsourced (section 4
    has only third-party totals). Minimum capacity and capacity step: unsourced.

So: throughput 100 MB/s per TiB maps to `Advance_100`. For the other two store types, name
them in `file_system.deployment_type`; their throughput cannot be checked and is ignored.
Capacity is rounded up to whole TiB; no minimum is enforced (the API rejects a size it does
not accept).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from clouds.filesystems import FileSystemRequest

GIB_PER_TIB = 1024
# store type -> throughput, MB/s per TiB (None: unsourced).
STORE_TYPES: dict[str, int | None] = {
    "Advance_100": 100,
    "Performance": None,
    "Intelligent_Computing": None,
}
THROUGHPUT_TO_STORE_TYPE: dict[int, str] = {mbps: store for store, mbps in STORE_TYPES.items() if mbps is not None}


class VepfsSizing(NamedTuple):
    """Arguments for one vePFS file system.

    Attributes:
        store_type: `vepfs.FileSystem(store_type=...)`.
        capacity_tib: `vepfs.FileSystem(capacity=...)`, TiB.
        mbps_per_tib: throughput of the store type, MB/s per TiB, or None when unsourced.
    """

    store_type: str
    capacity_tib: int
    mbps_per_tib: int | None


def store_type(config: FileSystemRequest) -> str:
    """The vePFS store type for a file-system config.

    Args:
        config: `deployment_type` (a store type name) wins; else the throughput picks one.

    Raises:
        ValueError: for an unknown store type, or a throughput without a store type.
    """
    if config.deployment_type is not None:
        if config.deployment_type not in STORE_TYPES:
            raise ValueError(
                f"file_system.deployment_type: '{config.deployment_type}' is not a vePFS store "
                f"type; use one of {', '.join(STORE_TYPES)}"
            )
        sourced = STORE_TYPES[config.deployment_type]
        if sourced is not None and sourced != config.throughput_mbps_per_tib:
            raise ValueError(
                f"file_system.throughput_mbps_per_tib: {config.throughput_mbps_per_tib} does not "
                f"match {config.deployment_type} ({sourced} MB/s per TiB); set {sourced}"
            )
        return config.deployment_type
    found = THROUGHPUT_TO_STORE_TYPE.get(config.throughput_mbps_per_tib)
    if found is None:
        raise ValueError(
            f"file_system.throughput_mbps_per_tib: {config.throughput_mbps_per_tib} has no vePFS "
            "store type with a sourced throughput; set 100 (Advance_100) or name deployment_type: "
            "Performance or Intelligent_Computing (per-TiB throughput unsourced)"
        )
    return found


def vepfs_sizing(config: FileSystemRequest) -> VepfsSizing:
    """Validate and size a vePFS file system.

    Examples: 4800 GiB -> 5 TiB; 1 GiB -> 1 TiB; 10240 GiB -> 10 TiB.

    Raises:
        ValueError: one line naming the field and the fix.
    """
    store = store_type(config)
    tib = max(1, math.ceil(config.capacity_gib / GIB_PER_TIB))
    return VepfsSizing(store, tib, STORE_TYPES[store])
