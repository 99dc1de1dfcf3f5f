"""Azure VM-size and image facts the cluster component relies on, with their sources.

Source ids refer to shared/reference-facts/interconnect.md (Azure section):
  Z1, Z2  ND A100 v4 (Standard_ND96asr_v4) size page and summary: 8x A100 40GB, HDR
          InfiniBand 200 Gb/s per GPU, Gen2 only.
  Z2, Z3  NDm A100 v4 (Standard_ND96amsr_A100_v4): 8x A100 80GB, HDR 200 Gb/s per GPU.
  Z4, Z5  ND H100 v5 (Standard_ND96isr_H100_v5): 8x H100, NDR 400 Gb/s per GPU; Gen2 only,
          docs recommend the Ubuntu-HPC / AlmaLinux-HPC marketplace images.
  Z6, Z7  ND H200 v5 (Standard_ND96isr_H200_v5): 8x H200, NDR 400 Gb/s per GPU.
  Z8, Z9  NC A100 v4 and NCads H100 v5: no InfiniBand in the feature list.
  Z2, Z5, Z7  InfiniBand links are set up only between VMs of the same scale set.
  Z10     singlePlacementGroup=true limits a scale set to one placement group of max 100 VMs.
  Z11     a scale set with singlePlacementGroup=false holds up to 1,000 VMs.
  Z12     (third party) HPC guidance sets singlePlacementGroup=true for InfiniBand; that IB
          needs it is unsourced by Microsoft (interconnect.md marks it "unsourced [yes]").

Image: Azure/azhpc-images README lists `microsoft-dsvm:ubuntu-hpc:2204` as the supported
Ubuntu 22.04 HPC/AI image; its build installs Mellanox/DOCA OFED, the NVIDIA driver, NCCL
with the RDMA SHARP plugin, nccl-tests, GPUDirect RDMA and the Lustre client (azhpc-images
ubuntu-22.04-hpc README, components/install_nccl.sh). trainstack pins one version
(`HPC_IMAGE_FACTS`), not `latest`, so every node, replacement and head boots the same build.
"""

from __future__ import annotations

from typing import NamedTuple


class InfinibandSize(NamedTuple):
    """One ND-series VM size with an InfiniBand fabric.

    Attributes:
        name: Azure VM size, as the compute API spells it.
        gpus: GPUs per VM.
        accelerator: GPU model and memory.
        ib_gbps_per_gpu: InfiniBand bandwidth per GPU, Gb/s.
        ib_generation: InfiniBand generation (HDR, NDR).
        sources: source ids in interconnect.md.
    """

    name: str
    gpus: int
    accelerator: str
    ib_gbps_per_gpu: int
    ib_generation: str
    sources: str


# Every size here is Gen2 only (Z1, Z3, Z4, Z6) and uses GPUDirect RDMA (Z1-Z7).
INFINIBAND_SIZES: dict[str, InfinibandSize] = {
    size.name.lower(): size
    for size in (
        InfinibandSize("Standard_ND96asr_v4", 8, "A100 40GB SXM", 200, "HDR", "Z1, Z2"),
        InfinibandSize("Standard_ND96amsr_A100_v4", 8, "A100 80GB SXM", 200, "HDR", "Z2, Z3"),
        InfinibandSize("Standard_ND96isr_H100_v5", 8, "H100", 400, "NDR", "Z4, Z5"),
        InfinibandSize("Standard_ND96isr_H200_v5", 8, "H200 141GB", 400, "NDR", "Z6, Z7"),
    )
}

# GPU sizes known to have no InfiniBand (Z8, Z9); listed so error messages can say so.
NO_INFINIBAND_SIZES: tuple[str, ...] = (
    "Standard_NC24ads_A100_v4",
    "Standard_NC48ads_A100_v4",
    "Standard_NC96ads_A100_v4",
    "Standard_NC40ads_H100_v5",
    "Standard_NC80adis_H100_v5",
)

# Max VMs in a scale set with singlePlacementGroup=true (Z10).
MAX_SINGLE_PLACEMENT_GROUP_VMS = 100

# The pinned Ubuntu 22.04 HPC build and what it ships, from Azure/azhpc-images at the build's
# tag `ubuntu-hpc-2026072901` (commit 67a1b094, observed 2026-12-07): versions.json (nccl
# common 2.30.4-1, nvidia driver ubuntu22.04 580.126.16, cuda ubuntu22.04 driver 13.0, doca
# 3.2.1, lustre 2.15.8-35-gdf4872c) and components/install_nccl.sh (nccl-tests built with
# HPC-X MPI into /opt/nccl-tests/build). The Marketplace version is the tag's date and build
# number (`22.04.YYYYMMDDNN`): an inference from four earlier tags whose versions appear in
# public use (ubuntu-hpc-20240430 / 22.04.2024043001, -20240624 / 22.04.2024062401,
# -20240917 / 22.04.2024091701, -20241023 / 22.04.2024102301), not read from Azure's image list
# (assumption; `az vm image list -p microsoft-dsvm -f ubuntu-hpc -s 2204 --all` confirms it).
# No PyTorch: the bootstrap installs the job runtime (`clouds.azure.runtime`).
HPC_IMAGE_FACTS: dict[str, str] = {
    "version": "22.04.2026072901",
    "nccl": "2.30.4-1",
    "nvidia_driver": "580.126.16",
    "cuda": "13.0",
    "doca_ofed": "3.2.1",
    "lustre_client": "2.15.8-35-gdf4872c",
    "nccl_tests": "/opt/nccl-tests/build",
    "source": "https://github.com/Azure/azhpc-images/tree/ubuntu-hpc-2026072901 (versions.json, components/install_nccl.sh)",
    "observed": "2026-12-07",
}
# Gen2 Ubuntu 22.04 HPC image with the InfiniBand, NVIDIA and NCCL stack, pinned.
HPC_IMAGE: dict[str, str] = {
    "publisher": "microsoft-dsvm",
    "offer": "ubuntu-hpc",
    "sku": "2204",
    "version": HPC_IMAGE_FACTS["version"],
}


def infiniband_size(vm_size: str) -> InfinibandSize | None:
    """The InfiniBand facts of a VM size, or None when it has no InfiniBand.

    Args:
        vm_size: Azure VM size, e.g. `Standard_ND96asr_v4` (case-insensitive, as in the API).

    Returns:
        The size's facts (Z1-Z7), or None for sizes without InfiniBand (e.g. Z8, Z9) and
        sizes this module does not know.
    """
    return INFINIBAND_SIZES.get(vm_size.lower())


def rdma_size_names() -> list[str]:
    """The InfiniBand VM sizes this component supports, in table order."""
    return [size.name for size in INFINIBAND_SIZES.values()]
