"""NIC layout per machine type (G1-G5) and the subnet plan."""

from __future__ import annotations

import ipaddress

import pytest

from clouds.gcp.nics import GVNIC, MRDMA, PRIMARY, gpudirect_flavour, nic_layout
from components.gcp.addressing import PRIMARY_CIDR, PSA_CIDR, gpu_subnet_cidrs


@pytest.mark.parametrize(
    ("machine_type", "nics", "gpudirect", "networks"),
    [
        pytest.param("a3-highgpu-8g", 5, "tcpx", 4, id="a3-high-5-tcpx"),
        pytest.param("a3-megagpu-8g", 9, "tcpxo", 8, id="a3-mega-9-tcpxo"),
        pytest.param("a2-highgpu-8g", 1, None, 0, id="a2-single"),
        pytest.param("g2-standard-96", 1, None, 0, id="g2-single"),
        pytest.param("n1-standard-16", 1, None, 0, id="n1-single"),
    ],
)
def test_gvnic_layouts(machine_type: str, nics: int, gpudirect: str | None, networks: int) -> None:
    layout = nic_layout(machine_type, "rdma")
    assert len(layout.nics) == nics
    assert layout.gpudirect == gpudirect == gpudirect_flavour(machine_type)
    assert len(layout.networks) == networks
    assert {nic.nic_type for nic in layout.nics} == {GVNIC}
    assert layout.nics[0].network == PRIMARY
    # one NIC per GPU VPC, each in its own network
    assert [nic.network for nic in layout.nics[1:]] == [net.suffix for net in layout.networks]


def test_tcpx_vpcs_use_jumbo_mtu() -> None:
    assert {net.mtu for net in nic_layout("a3-megagpu-8g").networks} == {8244}


@pytest.mark.parametrize("machine_type", ["a3-ultragpu-8g", "a4-highgpu-8g"])
def test_rdma_layout_has_2_gvnic_and_8_mrdma_in_3_vpcs(machine_type: str) -> None:
    layout = nic_layout(machine_type)
    types = [nic.nic_type for nic in layout.nics]
    assert types == [GVNIC, GVNIC] + [MRDMA] * 8
    assert len(layout.networks) + 1 == 3  # primary + gvnic-1 + rdma (G4)
    rdma = [net for net in layout.networks if net.rdma_profile]
    assert [(net.suffix, net.subnets) for net in rdma] == [("rdma", 8)]
    assert [nic.subnet for nic in layout.nics if nic.nic_type == MRDMA] == list(range(8))


def test_interconnect_none_gives_one_nic_even_on_a3() -> None:
    layout = nic_layout("a3-megagpu-8g", "none")
    assert len(layout.nics) == 1
    assert layout.networks == ()
    assert layout.gpudirect is None


@pytest.mark.parametrize("machine_type", ["a3-highgpu-8g", "a3-megagpu-8g", "a3-ultragpu-8g"])
def test_subnets_never_overlap(machine_type: str) -> None:
    cidrs = [PRIMARY_CIDR, PSA_CIDR]
    cidrs += [c for group in gpu_subnet_cidrs(nic_layout(machine_type)).values() for c in group]
    nets = [ipaddress.IPv4Network(c) for c in cidrs]
    assert len(nets) == len(set(nets))
    for i, a in enumerate(nets):
        for b in nets[i + 1 :]:
            assert not a.overlaps(b), (a, b)
