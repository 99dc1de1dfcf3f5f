"""Local NVMe per GPU instance type: the disks `nodeagent/scratch.py` assembles into `/scratch`.

Sizes as the sources state them (AWS in GB, 10^9 bytes; Azure in TiB), converted to GiB here.
Only disks the scratch script uses are listed: AWS NVMe instance store, Azure NVMe direct disks.
Azure temp (resource) disks and GCP Local SSD sizes are not listed: the temp disk is not an NVMe
direct disk, and the A3 Local SSD sizes in storage.md are unsourced. A type not listed has no
known local NVMe (None).

Sources (shared/reference-facts/storage.md, "Local NVMe per GPU instance"):
  K1  aws/karpenter-provider-aws instance-types.md, karpenter.k8s.aws/instance-local-nvme (GB)
  Z4, Z6  MicrosoftDocs azure-compute-docs ND H100 v5 / ND H200 v5 size pages (8 NVMe disks, 28 TiB)
"""

from __future__ import annotations

_GB = 10**9 / 2**30  # GiB per GB
LOCAL_NVME_GIB: dict[str, float] = {
    **{t: 1_800 * _GB for t in ("p3dn.24xlarge",)},
    **{t: 8_000 * _GB for t in ("p4d.24xlarge", "p4de.24xlarge")},
    **{t: 30_400 * _GB for t in ("p5.48xlarge", "p5e.48xlarge", "p5en.48xlarge", "p6-b200.48xlarge")},
    "g5.48xlarge": 7_600 * _GB,
    "g6.48xlarge": 7_520 * _GB,
    "g6e.48xlarge": 7_600 * _GB,
    "g5.12xlarge": 3_800 * _GB,
    "g5.24xlarge": 3_800 * _GB,
    **{t: 900 * _GB for t in ("g4dn.8xlarge", "g4dn.12xlarge", "g4dn.16xlarge")},
    **{t: 7_600 * _GB for t in ("trn1.32xlarge", "trn1n.32xlarge")},
    **{t: 28 * 1024 for t in ("Standard_ND96isr_H100_v5", "Standard_ND96isr_H200_v5")},
}


def local_nvme_gib(instance_type: str) -> float | None:
    """Local NVMe of one node of `instance_type`, GiB; None when unknown or absent."""
    return LOCAL_NVME_GIB.get(instance_type)
