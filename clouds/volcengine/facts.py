"""Volcengine ECS instance-family facts and the choice of Pulumi package per resource.

Families (shared/reference-facts/china-clouds.md section 1.4, "facts are weak": the
Volcengine documentation site was not available). The family list comes from a
third-party copy of a Volcengine MCP-server description; per-type specs are unsourced
except `ecs.gni2.3xlarge` (1 x A10, third-party README). Accelerator counts are therefore
never checked, and where the GPU model itself is unsourced (`hpcg3ib`) the accelerator is
not checked either.

RDMA and HPC clusters (section 1.4, section 3 from the Terraform `ecs_hpc_cluster` doc,
official): `hpcpni2` is "配备RDMA网络" (equipped with an RDMA network) and `hpcg3ib` is an
RDMA HPC family; an HPC cluster (`ecs.HpcCluster`, instance `hpc_cluster_id`, ForceNew) is
"the proximity mechanism for hpcpni2-class GPU nodes". pulumi_volcenginecc's `ecs.Instance`
doc (official provider source) adds that `hpc_cluster_id` "is only effective and required
when creating high performance computing GPU instances", so every `hpc*` family gets one.

Which package each resource comes from (section 5.4: pulumi_volcengine's Terraform base is
"no longer maintained" in favour of volcenginecc). The rule: use pulumi_volcengine where it
has the resource, pulumi_volcenginecc only where it lacks one. pulumi_volcengine 0.0.47 has
every resource this component needs, so all of them come from it:

  * VPC, subnet: `vpc.Vpc`, `vpc.Subnet` (volcenginecc: `vpc.Vpc`, `vpc.Subnet`);
  * security group and rules: `vpc.SecurityGroup`, `vpc.SecurityGroupRule` (volcenginecc:
    `vpc.SecurityGroup` with inline ingress/egress permissions);
  * spread placement: `ecs.DeploymentSet` (volcenginecc: `ecs.DeploymentSet`);
  * RDMA placement: `ecs.HpcCluster` (volcenginecc: `ecs.HpcCluster`);
  * admin key: `ecs.KeyPair` (volcenginecc: `ecs.Keypair`);
  * nodes: `ecs.Instance` (volcenginecc: `ecs.Instance`);
  * image lookup: `ecs.get_images` (volcenginecc: `ecs.get_images`);
  * vePFS: `vepfs.FileSystem`, `vepfs.MountService`, `vepfs.MountServiceAttachment`
    (volcenginecc: `vepfs.Instance`, `vepfs.MountService` with inline attachments).

volcenginecc is still the reference for facts its docs state and pulumi_volcengine's do not
(vePFS capacity unit TiB, `Advance_100` = 100 MB/s/TiB, tag-key rules).
"""

from __future__ import annotations

from typing import NamedTuple


class InstanceFamily(NamedTuple):
    """One Volcengine ECS accelerator family.

    Attributes:
        family: the middle part of the type name (`hpcpni2` in `ecs.hpcpni2.28xlarge`).
        accelerators: normalized accelerator names it carries, or None when unsourced.
        rdma: True when the family has an RDMA network (section 1.4).
        hpc_cluster: True when instances must join an `ecs.HpcCluster`.
        note: the section 1.4 description.
    """

    family: str
    accelerators: tuple[str, ...] | None
    rdma: bool
    hpc_cluster: bool
    note: str


# A100/A800 memory variant is not stated in section 1.4, so both A100 names are accepted.
_A100_CLASS = ("A100", "A100-80GB", "A800")

INSTANCE_FAMILIES: dict[str, InstanceFamily] = {
    f.family: f
    for f in (
        InstanceFamily("pni2", _A100_CLASS, False, False, "A100 / A800; specs unsourced"),
        InstanceFamily("hpcpni2", _A100_CLASS, True, True, "A100/A800 class with RDMA network"),
        InstanceFamily("hpcg3ib", None, True, True, "RDMA HPC; GPU model unsourced"),
        InstanceFamily("g1v", ("V100", "V100-32GB"), False, False, "V100; memory unsourced"),
        InstanceFamily("g1ie", ("T4",), False, False, "T4; specs unsourced"),
        InstanceFamily("gni2", ("A10",), False, False, "A10 (third-party README)"),
    )
}


def instance_family(instance_type: str) -> InstanceFamily | None:
    """The family of an instance type `ecs.<family>.<size>`, or None when unknown.

    Args:
        instance_type: e.g. `ecs.hpcpni2.28xlarge` (case-insensitive).
    """
    parts = instance_type.strip().lower().split(".")
    if len(parts) != 3 or parts[0] != "ecs":
        return None
    return INSTANCE_FAMILIES.get(parts[1])


def family_names(rdma_only: bool = False) -> list[str]:
    """Known families (only the RDMA ones with `rdma_only`), in table order."""
    return [f.family for f in INSTANCE_FAMILIES.values() if f.rdma or not rdma_only]
