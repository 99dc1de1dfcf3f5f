"""Alibaba Cloud ECS GPU facts the cluster component relies on, with their sources.

Source: shared/reference-facts/china-clouds.md,
  section 1.1  Alibaba help centre "GPU计算型实例规格族" page (official): families, GPUs,
               example types (vCPU / GiB / GPUs / Gbit/s); the naming page (official):
               `c8g1` = 8 vCPU per GPU, `<n>xlarge` = 4n vCPU.
  section 3    eRDMA (official): `network_interface_traffic_mode = "HighPerformance"` on the
               primary ENI or on secondary ENIs with `network_card_index`; ebmgn7ex: two ERIs
               on different NIC indexes give 160 Gbit/s, all on one index at most 100 Gbit/s.
  section 1.1  gn8is "Supports ERI (eRDMA)"; how many ERIs it takes is unsourced, so this
               component enables one (on the primary ENI).
Where the table names no GPU model (gn7e, gn7, gn8v) the model is left unnamed here too.
"""

from __future__ import annotations

from typing import NamedTuple

INSTANCE_TYPE_PREFIX = "ecs."


class GpuFamily(NamedTuple):
    """One ECS GPU instance family (section 1.1).

    Attributes:
        name: family name as it appears in the type (`gn7e`, `ebmgn7ex`).
        gpu: GPU model and memory per GPU as the source states it.
        eri_interfaces: Elastic RDMA Interfaces this component enables per node (0 = the
            family has no eRDMA in section 1.1/3; 2 = one per NIC index, 160 Gbit/s).
        note: what the source adds (purpose, limits).
    """

    name: str
    gpu: str
    eri_interfaces: int
    note: str


class GpuType(NamedTuple):
    """One example instance type of section 1.1 (None where the source gives no figure).

    Attributes:
        name: full type name (`ecs.gn7e-c16g1.32xlarge`).
        vcpus: vCPUs.
        memory_gib: memory, GiB.
        gpus: GPUs per instance.
        gpu_memory_gb: memory per GPU, GB.
        network_gbps: base network bandwidth, Gbit/s.
    """

    name: str
    vcpus: int | None
    memory_gib: int | None
    gpus: int
    gpu_memory_gb: int
    network_gbps: float | None


FAMILIES: dict[str, GpuFamily] = {
    family.name: family
    for family in (
        GpuFamily("gn7i", "NVIDIA A10, 24 GB", 0, "inference / light training"),
        GpuFamily("gn7e", "Ampere, 80 GB (model not named by the source)", 0, "no eRDMA listed"),
        GpuFamily("gn7", "40 GB (model not named by the source)", 0, ""),
        GpuFamily("gn6v", "NVIDIA V100 SXM2, 16 GB", 0, "NVLink"),
        GpuFamily("gn6e", "NVIDIA V100 SXM2, 32 GB", 0, ""),
        GpuFamily("gn6i", "NVIDIA T4, 16 GB", 0, ""),
        GpuFamily("gn7s", "NVIDIA A30, 24 GB", 0, "ticket required"),
        GpuFamily("gn8is", "NVIDIA L20, 48 GB", 1, "eRDMA; only some regions outside China"),
        GpuFamily("gn8v", "96 GB (model not named by the source)", 0, ""),
        GpuFamily("ebmgn7ex", "8 x A100 80 GB (Deep-NCCL README)", 2, "bare metal, eRDMA 160 Gbit/s"),
        GpuFamily("ebmgn7i", "4 x NVIDIA A10, 24 GB", 0, "bare metal"),
    )
}

TYPES: dict[str, GpuType] = {
    gpu_type.name: gpu_type
    for gpu_type in (
        GpuType("ecs.gn7i-c8g1.2xlarge", 8, 30, 1, 24, 16),
        GpuType("ecs.gn7i-c32g1.32xlarge", 128, 752, 4, 24, 64),
        GpuType("ecs.gn7i-8x.32xlarge", 128, 512, 8, 24, 64),
        GpuType("ecs.gn7e-c16g1.4xlarge", 16, 125, 1, 80, 8),
        GpuType("ecs.gn7e-c16g1.32xlarge", 128, 1000, 8, 80, 64),
        GpuType("ecs.gn7-c12g1.3xlarge", 12, 94, 1, 40, 4),
        GpuType("ecs.gn7-c13g1.26xlarge", 104, 756, 8, 40, 30),
        GpuType("ecs.gn6v-c8g1.2xlarge", 8, 32, 1, 16, 2.5),
        GpuType("ecs.gn6v-c8g1.16xlarge", 64, 256, 8, 16, 20),
        GpuType("ecs.gn6v-c10g1.20xlarge", 82, 336, 8, 16, 35),
        GpuType("ecs.gn6e-c12g1.3xlarge", 12, 92, 1, 32, 5),
        GpuType("ecs.gn6e-c12g1.24xlarge", 96, 736, 8, 32, 32),
        GpuType("ecs.gn6i-c4g1.xlarge", 4, 15, 1, 16, 4),
        GpuType("ecs.gn6i-c24g1.24xlarge", 96, 372, 4, 16, 30),
        GpuType("ecs.gn7s-c32g1.32xlarge", 128, 1000, 4, 24, 64),
        GpuType("ecs.gn8is-8x.32xlarge", 128, 1024, 8, 48, 100),
        GpuType("ecs.gn8v-8x.48xlarge", 192, 1024, 8, 96, 100),
        # vCPU/memory of ebmgn7ex come from a third-party note only; left out here.
        GpuType("ecs.ebmgn7ex.32xlarge", None, None, 8, 80, None),
        GpuType("ecs.ebmgn7i.32xlarge", 128, 768, 4, 24, 64),
    )
}


def family_of(instance_type: str) -> str:
    """The family part of an ECS type name.

    Examples: `ecs.gn7e-c16g1.32xlarge` -> `gn7e`; `ecs.ebmgn7ex.32xlarge` -> `ebmgn7ex`.

    Args:
        instance_type: full ECS type name, starting with `ecs.`.
    """
    body = instance_type.strip().removeprefix(INSTANCE_TYPE_PREFIX)
    return body.split(".", 1)[0].split("-", 1)[0]


def gpu_family(instance_type: str) -> GpuFamily | None:
    """The family facts of a type, or None for a family this module does not know."""
    if not instance_type.strip().startswith(INSTANCE_TYPE_PREFIX):
        return None
    return FAMILIES.get(family_of(instance_type))


def eri_interfaces(instance_type: str) -> int:
    """ERIs this component enables per node of the type (0 without eRDMA or unknown)."""
    family = gpu_family(instance_type)
    return family.eri_interfaces if family else 0


def erdma_families() -> list[str]:
    """Families with eRDMA, in table order."""
    return [name for name, family in FAMILIES.items() if family.eri_interfaces > 0]
