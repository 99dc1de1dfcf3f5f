"""GCP facts the price catalog lacks: which host machine type carries which GPUs, the
GPU network of each, and TPU slice naming.

Source ids: `shared/reference-catalog/README.md` and `v8/README.md` ("GCP pricing": host/GPU
pairs incl. a4 for B200 and N1 for T4/V100/P100/P4, TPU name counts) and `shared/reference-facts/interconnect.md` (G1-G5: GPU network per machine type),
accelerators.md (S15-S18: TPU memory per chip).
"""

from __future__ import annotations

# (accelerator, GPUs) -> host machine types whose price is added to the GPUs' price.
HOSTS: dict[tuple[str, int], tuple[str, ...]] = {
    **{("A100", n): (f"a2-highgpu-{n}g",) for n in (1, 2, 4, 8)},
    ("A100", 16): ("a2-megagpu-16g",),
    **{("A100-80GB", n): (f"a2-ultragpu-{n}g",) for n in (1, 2, 4, 8)},
    **{("H100", n): (f"a3-highgpu-{n}g",) for n in (1, 2, 4)},
    ("H100", 8): ("a3-highgpu-8g", "a3-edgegpu-8g"),
    ("H100-MEGA", 8): ("a3-megagpu-8g",),
    ("H200", 8): ("a3-ultragpu-8g",),
    ("L4", 1): tuple(f"g2-standard-{v}" for v in (4, 8, 12, 16, 32)),
    ("L4", 2): ("g2-standard-24",),
    ("L4", 4): ("g2-standard-48",),
    ("L4", 8): ("g2-standard-96",),
    ("B200", 8): ("a4-highgpu-8g",),
    # N1 GPUs (v8 README): one n1-standard host with 8 vCPUs per GPU. The README's examples
    # pair n1-standard-8 with one T4 or V100; GCP's per-GPU vCPU limits are not in
    # reference-facts, so 8 vCPUs per GPU is unsourced [within GCP's limits as documented].
    **{
        (gpu, n): (f"n1-standard-{8 * n}",)
        for gpu, counts in (("T4", (1, 2, 4)), ("V100", (1, 2, 4, 8)), ("P100", (1, 2, 4)), ("P4", (1, 2, 4)))
        for n in counts
    },
}

# Machine type -> (GPU network kind, max total bandwidth Gbps) from G1/G4/G5.
# A2 and G2 have no GPU-to-GPU network (G1: "N/A"); their bandwidth per size is not recorded.
# A3 Edge: G1 lists GPUDirect-TCPX at 600 Gbps, but its NIC layout is unsourced, so
# trainstack cannot lay out its GPU network and treats it as Ethernet.
GPU_NETWORK: dict[str, tuple[str, int]] = {
    "a3-highgpu-8g": ("gpudirect-tcpx", 1000),
    "a3-edgegpu-8g": ("ethernet", 600),
    "a3-megagpu-8g": ("gpudirect-tcpxo", 1800),
    "a3-ultragpu-8g": ("gpudirect-rdma", 3600),
    "a4-highgpu-8g": ("gpudirect-rdma", 3600),
}

# SkyPilot names H100 on a3-megagpu "H100-MEGA"; the GPU is the H100 80GB (G1, G3).
ACCELERATOR_ALIASES = {"H100-MEGA": "H100"}

# TPU generation -> (TensorCores per chip counted in the name, memory GiB per chip, source).
# v2/v3/v4/v5p names count TensorCores (2 per chip); v5litepod (v5e) and v6e count chips.
TPU_GENERATIONS: dict[str, tuple[int, float | None, str]] = {
    "tpu-v2": (2, None, "memory unsourced"),
    "tpu-v3": (2, None, "memory unsourced"),
    "tpu-v4": (2, 32, "S15"),
    "tpu-v5p": (2, 95, "S17"),
    "tpu-v5litepod": (1, 16, "S16"),
    "tpu-v6e": (1, 32, "S18"),
}


def tpu_generation_and_chips(name: str) -> tuple[str, int]:
    """`tpu-v5p-8` -> (`tpu-v5p`, 4 chips); `tpu-v5litepod-8` -> (`tpu-v5litepod`, 8).

    Raises:
        ValueError: not a known TPU slice name.
    """
    generation, _, size = name.rpartition("-")
    if generation not in TPU_GENERATIONS or not size.isdigit():
        raise ValueError(f"'{name}' is not a TPU slice name like tpu-v5p-8")
    per_chip = TPU_GENERATIONS[generation][0]
    return generation, max(int(size) // per_chip, 1)
