"""Huawei Cloud ECS flavor facts the cluster component relies on, with their sources.

Source: shared/reference-facts/china-clouds.md. Section 1.3 quotes the Huawei Cloud ECS
user guide "GPU-accelerated ECSs" (topic en-us_topic_0097289624, official; page date not
shown) for the GPU families and the example flavors below; section 3 and section 5.3 the
Terraform/Pulumi provider docs (official).

What the facts do NOT give, and what this module therefore does not claim:
  * RDMA/RoCE on any ECS GPU flavor: unsourced (section 1.3, section 3). No flavor here is
    marked RDMA-capable, so `interconnect: rdma` is always rejected on Huawei Cloud.
  * GPU counts of flavors outside the example table: unsourced; not checked.
  * The P2v table was not read (section 1.3): GPU memory and counts unsourced.
  * ai1s (Ascend 310, inference): flavor names come from third-party code only and the
    specs are unsourced (section 1.3); the family is accepted, counts are not checked.
  * Ascend 910 / 910B (ModelArts "snt9", "Snt9b", billing code "kat1"): offered only as
    ModelArts resource pools / Lite Server / Lite Cluster (section 1.3). pulumi_huaweicloud
    0.0.12 has no ModelArts resource-pool resource (its `modelarts` module holds only
    datasets and notebooks; section 5.3: Terraform `huaweicloud_modelarts_resource_pool`
    exists, the Pulumi package does not have it), so this component cannot build them.
"""

from __future__ import annotations

from typing import NamedTuple


class FlavorFamily(NamedTuple):
    """One ECS accelerator flavor family.

    Attributes:
        family: flavor prefix before the first dot (`p3` in `p3.16xlarge.8`).
        accelerators: normalized accelerator names the family carries (trainstack
            vocabulary, `facts/accelerators.py`).
        kind: `gpu` or `npu`.
        note: what the family is, as section 1.3 describes it.
        source: where the facts come from.
    """

    family: str
    accelerators: tuple[str, ...]
    kind: str
    note: str
    source: str


_ECS_GPU_DOC = "section 1.3, ECS 'GPU-accelerated ECSs' (official)"

FLAVOR_FAMILIES: dict[str, FlavorFamily] = {
    f.family: f
    for f in (
        FlavorFamily("pi2", ("T4",), "gpu", "T4 16 GiB; inference, light training", _ECS_GPU_DOC),
        FlavorFamily("p2s", ("V100-32GB",), "gpu", "V100 32 GiB PCIe Gen3", _ECS_GPU_DOC),
        FlavorFamily("p2v", ("V100", "V100-32GB"), "gpu", "V100 with NVLink; memory unsourced", _ECS_GPU_DOC),
        FlavorFamily("p3", ("A100-80GB",), "gpu", "A100 80 GB", _ECS_GPU_DOC),
        FlavorFamily("p5s", ("H100",), "gpu", "H100 PCIe 80 GB", _ECS_GPU_DOC),
        FlavorFamily("pi5e", ("L4",), "gpu", "L4 24 GiB", _ECS_GPU_DOC),
        FlavorFamily(
            "ai1s",
            ("Ascend 310",),
            "npu",
            "Ascend 310 (inference); specs unsourced",
            "section 1.3, flavor names from third-party code",
        ),
    )
}

# Accelerators per flavor, from the example flavors of section 1.3 (official ECS doc).
FLAVOR_ACCELERATOR_COUNTS: dict[str, int] = {
    "pi2.2xlarge.4": 1,
    "pi2.16xlarge.4": 8,
    "p2s.2xlarge.8": 1,
    "p2s.16xlarge.8": 8,
    "p3.2xlarge.8": 1,
    "p3.16xlarge.8": 8,
    "p5s.20xlarge.12": 4,
    "p5s.40xlarge.12": 8,
    "pi5e.24xlarge.4": 6,
}

# Families with a sourced RDMA fabric on plain ECS: none (section 1.3, section 3).
RDMA_FAMILIES: frozenset[str] = frozenset()

# Ascend training hardware that exists only as ModelArts pools (section 1.3, section 5.3).
MODELARTS_ONLY_ACCELERATORS: frozenset[str] = frozenset({"Ascend 910", "Ascend 910B"})
MODELARTS_FLAVOR_PREFIXES: tuple[str, ...] = ("modelarts.", "kat1")


def flavor_family(instance_type: str) -> FlavorFamily | None:
    """The family of an ECS flavor name, or None when this module does not know it.

    Args:
        instance_type: ECS flavor name, e.g. `p3.16xlarge.8` (case-insensitive).
    """
    return FLAVOR_FAMILIES.get(instance_type.strip().lower().split(".", 1)[0])


def is_modelarts_flavor(instance_type: str) -> bool:
    """True for ModelArts flavors/billing codes (`modelarts.bm.snt9.xlarge.8`, `kat1...`)."""
    return instance_type.strip().lower().startswith(MODELARTS_FLAVOR_PREFIXES)


def family_names() -> list[str]:
    """The known flavor families, in table order (for error messages)."""
    return list(FLAVOR_FAMILIES)
