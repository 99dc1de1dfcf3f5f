"""Tencent Cloud CVM GPU and HCC facts the cluster component relies on, with their sources.

Source: shared/reference-facts/china-clouds.md,
  section 1.2  Tencent docs "NVIDIA 系列实例" (GPU CVM, product 560; an older page version,
               official): GT4, GN10Xp, GN10X, GN7, GN8 and their example types
               (GPUs / vCPU / GB / intranet Gbit/s). HCC families HCCPNV4h (A100 with NVLink
               and NVSwitch: official fabric-manager doc), HCCG5v and HCCPNV4s; their GPU
               counts and 2 x 100GE RDMA NICs come from **third-party** sources only.
  section 3    HCC (RDMA) instances must be created into an HPC cluster
               (`tencentcloud.cvm.HpcCluster`, instance argument `hpc_cluster_id`); that is
               what keeps RDMA nodes together (official). HCCPNV4h needs
               `nvidia-fabricmanager`; Tencent ships TCCL, an NCCL fork for its RDMA network.
A800 / H800 HCC families (`HCCPNV4sne`, `HCCPNV5v`, ...) appear only in third-party code
(section 1.2, unsourced), so they are not listed.
"""

from __future__ import annotations

from typing import NamedTuple


class GpuFamily(NamedTuple):
    """One Tencent GPU instance family (section 1.2).

    Attributes:
        name: family prefix of the type name (`GT4`, `HCCPNV4h`).
        gpu: GPU model and memory as the source states it.
        hcc: True for HCC (high-performance computing cluster) families: RDMA, and the
            instance must be created into an HPC cluster (section 3).
        source: `official` or `third-party` (for the GPU and RDMA figures).
    """

    name: str
    gpu: str
    hcc: bool
    source: str


class GpuType(NamedTuple):
    """One example type of section 1.2.

    Attributes:
        name: full type name (`GT4.41XLARGE948`).
        gpus: GPUs per instance.
        vcpus: vCPUs.
        memory_gb: memory, GB.
        intranet_gbps: intranet bandwidth, Gbit/s.
    """

    name: str
    gpus: int
    vcpus: int
    memory_gb: int
    intranet_gbps: float


FAMILIES: dict[str, GpuFamily] = {
    family.name: family
    for family in (
        GpuFamily("GT4", "NVIDIA A100 NVLink 40 GB", False, "official"),
        GpuFamily("GN10Xp", "NVIDIA V100 NVLink 32 GB", False, "official"),
        GpuFamily("GN10X", "NVIDIA V100 NVLink 32 GB", False, "official"),
        GpuFamily("GN7", "NVIDIA T4 16 GB", False, "official"),
        GpuFamily("GN8", "NVIDIA P40 24 GB", False, "official"),
        GpuFamily("HCCPNV4h", "8 x NVIDIA A100, NVSwitch, 2 x 100GE RDMA", True, "third-party"),
        GpuFamily("HCCG5v", "8 x NVIDIA V100, 2 x 100GE RDMA", True, "third-party"),
        GpuFamily("HCCPNV4s", "8 x NVIDIA A100, 2 x 100GE RDMA (CX6dx)", True, "third-party"),
    )
}

TYPES: dict[str, GpuType] = {
    gpu_type.name: gpu_type
    for gpu_type in (
        GpuType("GT4.4XLARGE96", 1, 16, 96, 5),
        GpuType("GT4.41XLARGE948", 8, 164, 948, 50),
        GpuType("GN10Xp.2XLARGE40", 1, 10, 40, 4),
        GpuType("GN10Xp.20XLARGE320", 8, 80, 320, 25),
        GpuType("GN10X.2XLARGE40", 1, 8, 40, 4),
        GpuType("GN10X.18XLARGE320", 8, 72, 320, 25),
        GpuType("GN7.2XLARGE32", 1, 8, 32, 3),
        GpuType("GN7.20XLARGE320", 4, 80, 320, 25),
        GpuType("GN8.14XLARGE448", 8, 56, 448, 10),
    )
}


def family_of(instance_type: str) -> str:
    """The family prefix of a CVM type: `GT4.41XLARGE948` -> `GT4` (case kept)."""
    return instance_type.strip().split(".", 1)[0]


def gpu_family(instance_type: str) -> GpuFamily | None:
    """The family facts of a type, or None for a family this module does not know."""
    return FAMILIES.get(family_of(instance_type))


def is_hcc(instance_type: str) -> bool:
    """True when the type is an HCC type, which needs an HPC cluster (section 3)."""
    family = gpu_family(instance_type)
    return bool(family and family.hcc)


def hcc_families() -> list[str]:
    """HCC (RDMA) families, in table order."""
    return [name for name, family in FAMILIES.items() if family.hcc]
