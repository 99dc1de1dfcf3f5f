"""Compact placement policy of a GPU cluster, as a pure function of machine type and size.

Source ids refer to shared/reference-facts/interconnect.md (GCP section):
  G6  AI Hypercomputer placement-policy page: series that accept compact placement
      (A4X Max, A4X, A4, A3 Ultra, A3 Mega, A3 High, A3 Edge, A2, G4, G2).
  G7  cluster-toolkit schedmd-slurm-gcp-v6-nodeset: valid maxDistance 1-3; "A3 machines
      do not support a placement_max_distance of 1"; VMs per policy 2 -> 256 for a3-*,
      3 -> 1,500 (code constants, not checked against the GCP limits page).

`max_distance` is set only for a3-* (2, or 3 above 256 nodes; never 1, G7): for the other
series the allowed values are unsourced, so it is left unset. `vm_count` is never set:
pulumi_gcp documents that exactly `vm_count` VMs must then be created at the same time
and that Google does not recommend it, and it would tie the policy (and, through
`resource_policies`, every node) to the node count, so a resize would replace them all.
"""

from __future__ import annotations

from typing import NamedTuple

COLLOCATED = "COLLOCATED"
# Machine-type prefixes of the series that accept compact placement (G6).
COMPACT_PREFIXES = ("a4x-", "a4-", "a3-", "a2-", "g4-", "g2-")
# a3-* maxDistance -> most VMs per policy (G7).
A3_MAX_VMS: dict[int, int] = {2: 256, 3: 1500}


class PlacementSpec(NamedTuple):
    """Arguments of `gcp.compute.ResourcePolicy(group_placement_policy=...)`.

    Attributes:
        collocation: always `COLLOCATED`.
        max_distance: 2 or 3 for a3-* (G7), None elsewhere (unsourced).
        vm_count: always None (see module docstring).
    """

    collocation: str
    max_distance: int | None
    vm_count: int | None


def supports_compact_placement(machine_type: str) -> bool:
    """Whether the machine type's series accepts a compact placement policy (G6)."""
    return machine_type.startswith(COMPACT_PREFIXES)


def placement_spec(machine_type: str, nodes: int) -> PlacementSpec | None:
    """The compact placement policy for `nodes` VMs of `machine_type`.

    Args:
        machine_type: Compute Engine machine type, e.g. `a3-highgpu-8g`.
        nodes: number of VMs in the policy.

    Returns:
        None for series without compact placement (N1, TPU hosts, ...); for a3-*
        max_distance 2 up to 256 nodes, else 3 up to 1,500 (G7); otherwise no max_distance.

    Raises:
        ValueError: for more a3-* nodes than one policy holds (1,500, G7).
    """
    if not supports_compact_placement(machine_type):
        return None
    if not machine_type.startswith("a3-"):
        return PlacementSpec(COLLOCATED, None, None)
    for distance, most in sorted(A3_MAX_VMS.items()):
        if nodes <= most:
            return PlacementSpec(COLLOCATED, distance, None)
    raise ValueError(
        f"nodes: {nodes} {machine_type} VMs exceed one compact placement policy "
        f"({A3_MAX_VMS[3]} at max distance 3, G7); split the job into clusters of at most "
        f"{A3_MAX_VMS[3]} nodes"
    )
