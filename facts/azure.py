"""Azure facts the price catalog lacks: InfiniBand sizes and corrections to the extract.

Source ids refer to `shared/reference-facts/interconnect.md` (Z1-Z9: MicrosoftDocs
azure-compute-docs VM-size pages) and accelerators.md (S28).
"""

from __future__ import annotations

# VM size -> InfiniBand bandwidth per VM, Gbps (HDR 200 Gb/s x 8 = 1.6 Tb/s, Z1/Z2/Z3;
# NDR 400 Gb/s x 8 = 3.2 Tb/s, Z4-Z7). Older sizes (ND40rs_v2, NC24rs_v3) also carry
# InfiniBand per Azure, but no source was collected, so they are treated as Ethernet.
INFINIBAND_GBPS: dict[str, int] = {
    "Standard_ND96asr_v4": 1600,
    "Standard_ND96amsr_A100_v4": 1600,
    "Standard_ND96isr_H100_v5": 3200,
    "Standard_ND96isr_H200_v5": 3200,
}

# The extract lists ND96isr_H100_v5 with 12 GPUs; Azure documents 8 (Z4, Z5).
ACCELERATOR_COUNT_FIX: dict[str, int] = {"Standard_ND96isr_H100_v5": 8}

# NCads H100 v5 carries H100 NVL with 94 GB per GPU (S28, Z9), not the 80 GB SXM part.
MEMORY_GIB_BY_SIZE: dict[str, float] = {
    "Standard_NC40ads_H100_v5": 94,
    "Standard_NC80adis_H100_v5": 94,
}


def infiniband_gbps(size: str) -> int | None:
    """InfiniBand bandwidth per VM in Gbps for an ND-series size, or None without IB."""
    return INFINIBAND_GBPS.get(size)
