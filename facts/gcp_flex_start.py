"""GCP flex-start (Dynamic Workload Scheduler) prices: Compute Engine bills a flex-start VM on
its own SKUs, named "DWS Defined Duration" in the Cloud Billing catalog ("Nvidia H100 80GB GPU
attached to DWS Defined Duration VMs running in Americas", "DWS Defined Duration A3 Core running
in Americas", ...), per GPU, per vCPU and per GiB of memory, like on-demand.

Sources (public text read through the project's search tool; the repositories are not named
by the index, so each is cited by what it says, where and when it was observed):
  F1  Google Cloud Japan article "ハイエンド GPU が最大約半額に！DWS の新料金プランで GPU コストを
      大幅削減" (zenn.dev google_cloud_jp, draft text; billing screenshots uploaded 2025-08-15/16):
      the Compute Engine SKUs a flex-start a3-highgpu-8g / -1g VM billed in us-central1, with SKU
      ids: 341A-49A5-0C07 (H100 GPU, $4.200761 per GPU-hour), 9A32-36B2-7FBC (A3 core,
      $0.010934 per vCPU-hour), ED19-A584-4A84 (A3 RAM, $0.000952 per GiB-hour), 2303-1D6A-9C08
      (local SSD, $0.0001096 per GiB-hour: $0.08 per GiB-month / 730 h); a3-highgpu-1g has 750
      GiB and -8g 6,000 GiB of local SSD (the article's spec tables). Observed 2025-08.
  F2  A team's GCP cost note ("GCP 算力选型：配额、计费模型与成本", 2026-08-02), the Cloud Billing
      Catalog API (service 6F81-5844-456A) read that day for a2-highgpu-1g in us-central1: on
      demand $3.67363/h, flex-start $2.02038/h (-45.0 %): A100 GPU $1.61365, 12 vCPU $0.20868,
      85 GB RAM $0.19805 per hour ("Nvidia Tesla A100 GPU attached to DWS Defined Duration VMs",
      "DWS Defined Duration A2 Core|Ram"). Observed 2026-08-02.
  Google's own pages give only "discounts (up to 53%)" on vCPUs, GPUs and TPUs (GKE "About
  flex-start provisioning mode", pricing section) and no per-SKU table.

Both sources price the SKUs "running in Americas": trainstack applies them to the Americas
regions only (`AMERICAS`: us-, northamerica-, southamerica-), an assumption that the SKU's
geography covers each of them; elsewhere, and for every other machine family (A2 Ultra,
A3 Mega, A3 Ultra, A4, G2), no flex-start price is sourced.
"""

from __future__ import annotations

from typing import NamedTuple


class FlexRates(NamedTuple):
    """One machine family's flex-start SKU rates, USD.

    Attributes:
        gpu: per GPU-hour.
        vcpu: per vCPU-hour.
        memory: per GiB-hour of memory.
        local_ssd: per GiB-hour of the family's bundled local SSD (0 when it has none).
        ssd_gib_per_gpu: bundled local SSD per GPU, GiB (A3 High: 750).
        source: the source id above.
        observed: when the source read the price.
    """

    gpu: float
    vcpu: float
    memory: float
    local_ssd: float
    ssd_gib_per_gpu: int
    source: str
    observed: str


_A2 = FlexRates(1.61365, 0.20868 / 12, 0.19805 / 85, 0.0, 0, "F2", "2026-08-02")
_A3_HIGH = FlexRates(4.200761, 0.010934, 0.000952, 0.0001096, 750, "F1", "2025-08")

# Machine-type prefix -> its family's flex-start rates (A100 40GB on A2 High and A2 Mega; H100 on A3 High).
FLEX_RATES: dict[str, FlexRates] = {"a2-highgpu-": _A2, "a2-megagpu-": _A2, "a3-highgpu-": _A3_HIGH}

# The regions an "Americas" SKU prices (the sources' geography; see the module docstring).
AMERICAS = ("us-", "northamerica-", "southamerica-")
