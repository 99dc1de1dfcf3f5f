"""GPU network-interface layout of a GCP node, as a pure function of the machine type.

Source ids refer to shared/reference-facts/interconnect.md (GCP section):
  G1  Compute Engine "Networking and GPU machines": GPUDirect flavour per machine type.
  G2  cluster-toolkit gke-a3-highgpu: A3 High uses GPUDirect-TCPX over 4 secondary VPCs.
  G3  cluster-toolkit gke-a3-megagpu: A3 Mega uses GPUDirect-TCPXO over 8 secondary VPCs.
  G4  A3 Ultra: 8 CX-7 NICs (RDMA) + 2 gVNIC = 10, in 3 VPC networks.
  G5  A4: same layout as A3 Ultra, GPUDirect RDMA.

Every gVNIC interface has `nic_type` GVNIC. The 8 RDMA interfaces of A3 Ultra / A4 sit in
one VPC created with the zone's RoCE network profile (`{zone}-vpc-roce`) and use
`nic_type` MRDMA, a value the installed pulumi_gcp lists for
`InstanceNetworkInterfaceArgs.nic_type`; the profile name and the one-VPC-8-subnets shape
follow cluster-toolkit examples/machine-learning/a3-ultragpu-8g/a3ultra-vm.yaml (not in
shared/reference-facts). MTUs are not in shared/reference-facts either: 8244 for
TCPX/TCPXO GPU VPCs follows Google's GPUDirect-TCPX(O) setup commands (google/xpk,
cluster-toolkit a3mega blueprint), 8896 for the RDMA layout follows a3ultra-vm.yaml.
"""

from __future__ import annotations

from typing import NamedTuple

PRIMARY = "primary"
GVNIC = "GVNIC"
MRDMA = "MRDMA"
TCPX_MTU = 8244
RDMA_MTU = 8896
RDMA_NICS = 8

# machine type -> (GPUDirect flavour, GPU NICs in secondary VPCs) (G1-G5).
GPUDIRECT: dict[str, tuple[str, int]] = {
    "a3-highgpu-8g": ("tcpx", 4),
    "a3-megagpu-8g": ("tcpxo", 8),
    "a3-ultragpu-8g": ("rdma", RDMA_NICS),
    "a4-highgpu-8g": ("rdma", RDMA_NICS),
}


class GpuNetwork(NamedTuple):
    """One extra VPC for GPU traffic.

    Attributes:
        suffix: child-name suffix (`gpu-1`, `rdma`); the VPC is `{cluster}-{suffix}`.
        subnets: number of subnets (one per NIC in that VPC).
        mtu: VPC MTU, bytes.
        rdma_profile: create the VPC with the zone's RoCE network profile (G4, G5).
    """

    suffix: str
    subnets: int
    mtu: int
    rdma_profile: bool


class Nic(NamedTuple):
    """One network interface of a node.

    Attributes:
        network: `primary` or the `suffix` of a `GpuNetwork`.
        subnet: subnet index within that network.
        nic_type: `GVNIC` or `MRDMA`.
    """

    network: str
    subnet: int
    nic_type: str


class NicLayout(NamedTuple):
    """Interfaces of one node and the extra VPCs they need.

    Attributes:
        gpudirect: `tcpx`, `tcpxo`, `rdma`, or None for a single NIC.
        networks: extra VPCs, in NIC order.
        nics: interfaces in order; interface 0 is always the primary gVNIC.
    """

    gpudirect: str | None
    networks: tuple[GpuNetwork, ...]
    nics: tuple[Nic, ...]


SINGLE_NIC = NicLayout(None, (), (Nic(PRIMARY, 0, GVNIC),))


def gpudirect_flavour(machine_type: str) -> str | None:
    """The GPUDirect flavour of a machine type (G1), or None when it has none.

    Example: `a3-highgpu-8g` -> `tcpx`, `a3-megagpu-8g` -> `tcpxo`, `a2-highgpu-8g` -> None.
    """
    entry = GPUDIRECT.get(machine_type)
    return entry[0] if entry else None


def nic_layout(machine_type: str, interconnect: str = "rdma") -> NicLayout:
    """Network interfaces for one node of `machine_type`.

    Extra VPCs are created only when `interconnect` is `rdma`: with `none` the contract
    asks for plain Ethernet, and an A3 node then gets its single primary gVNIC (valid, at
    the primary NIC's bandwidth only).

    Args:
        machine_type: Compute Engine machine type, e.g. `a3-megagpu-8g`.
        interconnect: `rdma` for the GPUDirect layout, `none` for one NIC.

    Returns:
        a3-highgpu-8g: 5 gVNICs (primary + 4 TCPX VPCs; G1, G2); a3-megagpu-8g: 9 gVNICs
        (primary + 8 TCPXO VPCs; G1, G3); a3-ultragpu-8g / a4-highgpu-8g: 2 gVNICs in 2
        VPCs + 8 MRDMA NICs in one RoCE VPC = 10 (G4, G5); any other type: 1 gVNIC.
    """
    entry = GPUDIRECT.get(machine_type)
    if interconnect != "rdma" or entry is None:
        return SINGLE_NIC
    flavour, gpu_nics = entry
    if flavour == "rdma":
        networks: tuple[GpuNetwork, ...] = (
            GpuNetwork("gvnic-1", 1, RDMA_MTU, False),
            GpuNetwork("rdma", gpu_nics, RDMA_MTU, True),
        )
        extra = [Nic("gvnic-1", 0, GVNIC)] + [Nic("rdma", i, MRDMA) for i in range(gpu_nics)]
    else:
        networks = tuple(GpuNetwork(f"gpu-{k}", 1, TCPX_MTU, False) for k in range(1, gpu_nics + 1))
        extra = [Nic(net.suffix, 0, GVNIC) for net in networks]
    return NicLayout(flavour, networks, (Nic(PRIMARY, 0, GVNIC), *extra))
