"""Accelerator performance facts: dense BF16 TFLOPS, memory bandwidth, NVLink.

Figures are vendor peaks, dense (no sparsity), from `shared/reference-facts/accelerators.md`
with its source ids: S1 (A100 datasheet via glennklockwood.com), S2 (A100 80GB PCIe),
S3 (stas00/ml-engineering tables), S4 (torchtitan get_peak_flops, linked to nvidia.com),
S5 (NVIDIA H100 PCIe product brief), S6/S7 (third-party H100 SXM / NVL pages), S8 (Azure
ND H200 v5 docs), S9 (HGX B200 figures), S13/S14 (AWS Neuron docs, Trainium/Trainium2), S15-S18 (Google
TPU v4/v5e/v5p/v6e docs), S21/S22/S23 (third-party V100, T4/L4, A10 pages), S24 (MLPerf).
V100 and T4 have no BF16: their FP16 tensor figure is used. Accelerators with no sourced
figure (A10G, A10, Gaudi HL-205, Inferentia, TPU v2/v3, ...) either carry the compiler's
"unsourced [x]" value, flagged in `unsourced`, or have no entry: the resolver cannot turn
work into hours on those and says so.
"""

from __future__ import annotations

from typing import NamedTuple


class Performance(NamedTuple):
    """Peak figures for one accelerator variant.

    Attributes:
        bf16_tflops: dense BF16 (or FP16 tensor) TFLOPS per accelerator.
        bandwidth_gbs: memory bandwidth, GB/s.
        nvlink_gbs: NVLink (or ICI) bandwidth per device, GB/s; None when none/unsourced.
        source: source ids.
        unsourced: which figure is an unsourced estimate ("" when all are sourced).
    """

    bf16_tflops: float
    bandwidth_gbs: float | None
    nvlink_gbs: float | None
    source: str
    unsourced: str = ""


# (accelerator, variant) -> Performance. Variant is the form factor (`SXM`, `PCIe`), `NVL`,
# or `*` when the accelerator has one variant. An unknown form factor uses the PCIe row,
# the lower figure, so a job is never estimated faster than the data supports.
PERFORMANCE: dict[tuple[str, str], Performance] = {
    ("V100", "SXM"): Performance(125, 900, None, "S21", "NVLink unsourced [300]"),
    ("V100", "PCIe"): Performance(112, 900, None, "S21"),
    ("V100-32GB", "SXM"): Performance(125, 900, None, "S21", "NVLink unsourced [300]"),
    ("V100-32GB", "PCIe"): Performance(112, 900, None, "S21"),
    ("T4", "*"): Performance(65, 320, None, "S22"),
    ("L4", "*"): Performance(121, 300, None, "S22"),
    ("L40S", "*"): Performance(362, 864, None, "S3, S24"),
    ("A10G", "*"): Performance(70, 600, None, "S23", "BF16 TFLOPS unsourced [~70]"),
    ("A10", "*"): Performance(125, 600, None, "S23", "BF16 TFLOPS unsourced [125]"),
    ("A100", "SXM"): Performance(312, 1555, 600, "S1"),
    ("A100", "PCIe"): Performance(312, 1555, None, "S1"),
    ("A100-80GB", "SXM"): Performance(312, 2039, 600, "S1, S2"),
    ("A100-80GB", "PCIe"): Performance(312, 1935, None, "S2, S3"),
    ("H100", "SXM"): Performance(989, 3350, 900, "S3, S4, S6"),
    ("H100", "PCIe"): Performance(756, 2000, None, "S3, S4, S5"),
    ("H100", "NVL"): Performance(835, 3900, None, "S4, S7"),
    ("H200", "SXM"): Performance(989, 4800, 900, "S3, S4, S8"),
    ("B200", "SXM"): Performance(2250, 8000, 1800, "S9"),
    ("Trainium", "*"): Performance(190, 880, None, "S13 (820 GiB/s)"),
    ("Trainium2", "*"): Performance(667, 2900, None, "S14"),
    # S4 (torchtitan get_peak_flops) gives B300 the B200's dense BF16; no bandwidth source.
    ("B300", "*"): Performance(2250, None, None, "S4"),
    ("A800", "SXM"): Performance(312, 2039, None, "none", "A800 figures unsourced [as A100 80GB SXM; NVLink cut]"),
    ("H800", "SXM"): Performance(989, 3350, None, "none", "H800 figures unsourced [as H100 SXM; NVLink cut]"),
    ("Ascend 910B", "*"): Performance(320, None, None, "S25", "Ascend 910B FP16 ~320 is third-party (S25)"),
    ("tpu-v4", "*"): Performance(275, 1200, None, "S15"),
    ("tpu-v5litepod", "*"): Performance(197, 819, None, "S16"),
    ("tpu-v5p", "*"): Performance(459, 2765, None, "S17"),
    ("tpu-v6e", "*"): Performance(918, 1638, None, "S18"),
}

# VM sizes whose H100 is the NVL part (94 GB, S28 / Z9), not the SXM or PCIe card.
NVL_SIZES = frozenset({"Standard_NC40ads_H100_v5", "Standard_NC80adis_H100_v5"})


def performance(accelerator: str, form_factor: str | None, instance_type: str = "") -> Performance | None:
    """Peak figures of `accelerator` as fitted in `instance_type`, or None when unknown.

    Args:
        accelerator: normalized name (`A100-80GB`, `tpu-v5p`).
        form_factor: `SXM`, `PCIe` or None (unknown: the PCIe figure is used).
        instance_type: the instance/VM size, to tell H100 NVL apart.
    """
    if instance_type in NVL_SIZES:
        return PERFORMANCE.get((accelerator, "NVL"))
    for variant in (form_factor or "PCIe", "PCIe", "*"):
        found = PERFORMANCE.get((accelerator, variant))
        if found:
            return found
    return None
