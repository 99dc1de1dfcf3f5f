"""Network children of the GCP cluster: the primary VPC, subnet, Cloud NAT, the GPU VPCs
of the NIC layout and the firewall rules from `firewall.firewall_rules`."""

from __future__ import annotations

from typing import Any, NamedTuple

import pulumi
import pulumi_gcp as gcp

from clouds.gcp.nics import PRIMARY, NicLayout
from components.gcp.addressing import PRIMARY_CIDR, gpu_subnet_cidrs
from components.gcp.firewall import FirewallSpec, firewall_rules

# Primary VPC MTU: the Managed Lustre "VPC network" page creates its VPC with 8896; the
# value never depends on machine type, so the file system never follows a VPC replacement.
PRIMARY_MTU = 8896


class ClusterNetwork(NamedTuple):
    """The cluster's networks.

    Attributes:
        network: the primary VPC (nodes' NIC 0, the file system, TPU VMs).
        subnet: the primary subnet.
        gpu_networks: GPU VPC per layout suffix.
        gpu_subnets: GPU subnets per layout suffix, in subnet order.
        firewalls: one firewall per `FirewallSpec`.
        router: Cloud Router of the primary VPC (for NAT).
        nat: Cloud NAT, so nodes without external IPs reach package mirrors.
    """

    network: gcp.compute.Network
    subnet: gcp.compute.Subnetwork
    gpu_networks: dict[str, gcp.compute.Network]
    gpu_subnets: dict[str, list[gcp.compute.Subnetwork]]
    firewalls: list[gcp.compute.Firewall]
    router: gcp.compute.Router
    nat: gcp.compute.RouterNat


def create_network(
    name: str,
    region: str,
    zone: str,
    layout: NicLayout,
    ssh_cidrs: tuple[str, ...],
    lustre: bool,
    project: pulumi.Input[str],
    opts: pulumi.ResourceOptions,
    health_check: bool = False,
) -> ClusterNetwork:
    """Create the primary VPC and subnet, Cloud NAT, GPU VPCs and firewall rules.

    Args:
        name: the cluster name; children are `{name}-net`, `{name}-subnet`, `{name}-{suffix}`...
        region: region of every subnet and the router.
        zone: zone, for the RoCE network profile `{zone}-vpc-roce` (G4, G5).
        layout: the node NIC layout (its GPU VPCs are created here).
        ssh_cidrs: CIDRs allowed to SSH; empty adds no SSH rule.
        lustre: add the Managed Lustre firewall rule.
        project: project id, for the network profile URL.
        opts: child options.
        health_check: admit the node group's auto-healing probes.
    """
    network = gcp.compute.Network(f"{name}-net", auto_create_subnetworks=False, mtu=PRIMARY_MTU, opts=opts)
    subnet = gcp.compute.Subnetwork(
        f"{name}-subnet",
        network=network.id,
        region=region,
        ip_cidr_range=PRIMARY_CIDR,
        private_ip_google_access=True,
        opts=opts,
    )
    router = gcp.compute.Router(f"{name}-router", network=network.id, region=region, opts=opts)
    nat = gcp.compute.RouterNat(
        f"{name}-nat",
        router=router.name,
        region=region,
        nat_ip_allocate_option="AUTO_ONLY",
        source_subnetwork_ip_ranges_to_nat="ALL_SUBNETWORKS_ALL_IP_RANGES",
        opts=opts,
    )
    gpu_networks, gpu_subnets = _gpu_networks(name, region, zone, layout, project, opts)
    networks = {PRIMARY: network, **gpu_networks}
    firewalls = [
        _firewall(name, spec, networks[spec.network], opts)
        for spec in firewall_rules(layout, ssh_cidrs, lustre, health_check)
    ]
    return ClusterNetwork(network, subnet, gpu_networks, gpu_subnets, firewalls, router, nat)


def rdma_profile(project: str | None, zone: str) -> str:
    """The RoCE network profile of a zone (G4, G5; name as in cluster-toolkit a3ultra-vm.yaml).

    Args:
        project: project id; None (no project known, e.g. under mocks without a getProject
            answer) gives the project-relative form `global/networkProfiles/...`.
        zone: zone name, e.g. `us-central1-b`.

    Returns:
        `projects/{project}/global/networkProfiles/{zone}-vpc-roce`.
    """
    relative = f"global/networkProfiles/{zone}-vpc-roce"
    return f"projects/{project}/{relative}" if project else relative


def _gpu_networks(
    name: str,
    region: str,
    zone: str,
    layout: NicLayout,
    project: pulumi.Input[str],
    opts: pulumi.ResourceOptions,
) -> tuple[dict[str, gcp.compute.Network], dict[str, list[gcp.compute.Subnetwork]]]:
    cidrs = gpu_subnet_cidrs(layout)
    networks: dict[str, gcp.compute.Network] = {}
    subnets: dict[str, list[gcp.compute.Subnetwork]] = {}
    for spec in layout.networks:
        profile = None
        if spec.rdma_profile:
            profile = pulumi.Output.from_input(project).apply(lambda p: rdma_profile(p, zone))
        net = gcp.compute.Network(
            f"{name}-{spec.suffix}",
            auto_create_subnetworks=False,
            mtu=spec.mtu,
            network_profile=profile,
            opts=opts,
        )
        networks[spec.suffix] = net
        subnets[spec.suffix] = [
            gcp.compute.Subnetwork(
                f"{name}-{spec.suffix}-sub-{i}",
                network=net.id,
                region=region,
                ip_cidr_range=cidr,
                opts=opts,
            )
            for i, cidr in enumerate(cidrs[spec.suffix])
        ]
    return networks, subnets


def _firewall(
    name: str, spec: FirewallSpec, network: gcp.compute.Network, opts: pulumi.ResourceOptions
) -> gcp.compute.Firewall:
    allows: list[dict[str, Any]] = [
        {"protocol": protocol, "ports": list(ports) or None} for protocol, ports in spec.allows
    ]
    return gcp.compute.Firewall(
        f"{name}-fw-{spec.suffix}",
        network=network.id,
        direction="INGRESS",
        allows=allows,
        source_ranges=list(spec.source_ranges),
        description=f"trainstack cluster {name}: {spec.description}",
        opts=opts,
    )


def nic_args(layout: NicLayout, net: ClusterNetwork) -> list[dict[str, Any]]:
    """`network_interfaces` for `gcp.compute.Instance`, in layout order, no external IP.

    Args:
        layout: the node NIC layout.
        net: the created networks.
    """
    nics = []
    for nic in layout.nics:
        if nic.network == PRIMARY:
            network, subnet = net.network, net.subnet
        else:
            network = net.gpu_networks[nic.network]
            subnet = net.gpu_subnets[nic.network][nic.subnet]
        nics.append({"network": network.id, "subnetwork": subnet.id, "nic_type": nic.nic_type})
    return nics
