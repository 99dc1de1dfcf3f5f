"""Accelerator facts the price catalog lacks: memory per accelerator and form factor.

Source ids refer to the source list of `shared/reference-facts/accelerators.md`:
  S1  glennklockwood.com A100 page, citing the NVIDIA A100 datasheet (r4).
  S2  thundercompute.com A100 specs guide (A100 80GB PCIe).
  S3  stas00/ml-engineering accelerator tables (commit 744d01e), linked to vendor pages.
  S4  pytorch/torchtitan get_peak_flops (commit b5bcd76), linked to nvidia.com datasheets.
  S8  MicrosoftDocs azure-compute-docs, ND H200 v5 summary (H200 141 GB).
  S9  glennklockwood.com B200 page (HGX B200 180 GB).
  S13 AWS Neuron docs, Trainium (32 GiB).
  S14 AWS Neuron docs, Trainium2 (96 GiB).
  S15-S18 Google TPU v4 / v5e / v5p / v6e docs (per-chip HBM).
  S19 Hugging Face Gaudi2 benchmark post (first-gen Gaudi 32 GB).
  S21 third-party V100 pages (16 or 32 GB).
  S22 third-party L4 vs T4 pages (T4 16 GB, L4 24 GB).
  S23 baseten.co A10 vs A10G (24 GB each).
  S24 MLCommons training v4.0 system name (L40S 48 GB).

Memory is the marketed size. HBM parts marketed in GB are GiB-sized (AWS reports 81,920 MiB
for the A100-80GB of p4de), so the figure is used as GiB. Clouds report slightly less
usable memory for GDDR parts (AWS: 22,888 MiB for L4 and A10G, S26). Accelerators with no
row here (B300, RTX PRO Server 6000, P100, P4, ...) take their memory from the catalog
source's own GpuInfo (EC2 DescribeInstanceTypes / SkyPilot), or None when it has none.
"""

from __future__ import annotations

from typing import NamedTuple


class AcceleratorFacts(NamedTuple):
    """Facts for one normalized accelerator name.

    Attributes:
        memory_gib: memory per accelerator, GiB (marketed size).
        form_factor: `SXM`, `PCIe`, `TPU` or None where clouds mix form factors.
        source: source ids from accelerators.md.
    """

    memory_gib: float
    form_factor: str | None
    source: str


ACCELERATORS: dict[str, AcceleratorFacts] = {
    "T4": AcceleratorFacts(16, "PCIe", "S22"),
    "L4": AcceleratorFacts(24, "PCIe", "S22"),
    "A10G": AcceleratorFacts(24, "PCIe", "S23"),
    "A10": AcceleratorFacts(24, "PCIe", "S23"),
    "L40S": AcceleratorFacts(48, "PCIe", "S3, S24"),
    "V100": AcceleratorFacts(16, None, "S21"),
    "V100-32GB": AcceleratorFacts(32, None, "S21"),
    "A100": AcceleratorFacts(40, "SXM", "S1"),
    "A100-80GB": AcceleratorFacts(80, None, "S1, S2"),
    "H100": AcceleratorFacts(80, None, "S3, S4"),
    "H100-MEGA": AcceleratorFacts(80, "SXM", "S3, S4 (H100 SXM; GCP a3-megagpu, G1)"),
    "H200": AcceleratorFacts(141, "SXM", "S3, S8"),
    "B200": AcceleratorFacts(180, "SXM", "S9"),
    "Gaudi HL-205": AcceleratorFacts(32, None, "S19, S27"),
    # Export variants of A100/H100 sold in China: no spec in accelerators.md; the memory of
    # the A100 80GB / H100 SXM parts they derive from is used, marked unsourced.
    "A800": AcceleratorFacts(80, "SXM", "unsourced [80, as A100 80GB]"),
    "H800": AcceleratorFacts(80, "SXM", "unsourced [80, as H100 SXM]"),
    "Ascend 910B": AcceleratorFacts(64, None, "S25 (third-party; one source says 32)"),
    "Trainium": AcceleratorFacts(32, None, "S13"),
    "Trainium2": AcceleratorFacts(96, None, "S14"),
}

# Form factor by instance family where the accelerator name alone is ambiguous.
# AWS p3/p4d/p4de/p5 carry SXM modules (S1: A100 SXM4 on p4d; S3/S4: H100 SXM5 figures are
# the ones AWS quotes for p5); Azure NC A100 v4 and NCads H100 v5 are PCIe (Z8, Z9 in
# interconnect.md). p3 SXM2 is unsourced [SXM2].
FORM_FACTOR_BY_INSTANCE_PREFIX: dict[str, str] = {
    "p3.": "SXM",  # unsourced [SXM2]
    "p3dn.": "SXM",  # unsourced [SXM2]
    "p4d.": "SXM",
    "p4de.": "SXM",
    "p5.": "SXM",
    "p5e.": "SXM",
    "p5en.": "SXM",
    "Standard_NC24ads_A100_v4": "PCIe",
    "Standard_NC48ads_A100_v4": "PCIe",
    "Standard_NC96ads_A100_v4": "PCIe",
    "Standard_NC40ads_H100_v5": "PCIe",
    "Standard_NC80adis_H100_v5": "PCIe",
    "Standard_ND": "SXM",
    "a2-": "SXM",
    "a3-": "SXM",
}


def accelerator_facts(name: str) -> AcceleratorFacts | None:
    """Facts for a normalized accelerator name (`A100-80GB`), or None when unknown."""
    return ACCELERATORS.get(name)


def form_factor(accelerator: str, instance_type: str) -> str | None:
    """Form factor (`SXM`/`PCIe`/None) of `accelerator` as fitted in `instance_type`."""
    for prefix, value in FORM_FACTOR_BY_INSTANCE_PREFIX.items():
        if instance_type.startswith(prefix):
            return value
    facts = ACCELERATORS.get(accelerator)
    return facts.form_factor if facts else None
