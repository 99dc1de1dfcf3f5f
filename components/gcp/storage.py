"""The shared file system of the GCP cluster (a stateful, protected child): Filestore
ZONAL or Managed Lustre, as `filesystems.choose_file_system` decides."""

from __future__ import annotations

from typing import NamedTuple

import pulumi
import pulumi_gcp as gcp

from clouds.gcp.filesystems import LUSTRE, LUSTRE_FILESYSTEM, SHARE_NAME, FileSystemChoice
from clouds.gcp.labels import gcp_id
from components.cluster_base import protected
from components.gcp.addressing import PSA_ADDRESS, PSA_PREFIX


class FileSystem(NamedTuple):
    """The created file system.

    Attributes:
        resource: the `filestore.Instance` or `lustre.Instance` (protected).
        address: Filestore IP address, or the Lustre mount point `IP@tcp:/trainfs`.
        mount_name: the Filestore share name or the Lustre file system name.
        peering: the private-services-access range and connection.
    """

    resource: pulumi.CustomResource
    address: pulumi.Output
    mount_name: pulumi.Output
    peering: tuple[pulumi.CustomResource, ...]


def create_file_system(
    name: str,
    choice: FileSystemChoice,
    zone: str,
    network: gcp.compute.Network,
    labels: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> FileSystem:
    """Create the file system behind private services access, protected against deletion.

    Both services are reached through private services access on a range this module
    fixes (`addressing.PSA_CIDR`), as the Managed Lustre "VPC network" page sets it up and
    cluster-toolkit does for Filestore; so the service's addresses never overlap the GPU
    subnets, which nodes route through their other NICs. Its name and inputs depend only on
    the cluster name, zone, primary network, labels and the file-system config, never on
    node count, instance type or purchase option, so changing those never replaces it.
    Both services encrypt data at rest with Google-managed keys when no KMS key is given.

    Args:
        name: the cluster name; children are `{name}-fs-range`, `{name}-fs-peering` and
            `{name}-fs` (Filestore) or `{name}-lustre` (Lustre).
        choice: service, capacity (GiB) and tier from `choose_file_system`.
        zone: the nodes' zone.
        network: the primary VPC.
        labels: labels for the file system and its address range.
        opts: child options; `protect=True` is added to the file system.
    """
    peering_range = gcp.compute.GlobalAddress(
        f"{name}-fs-range",
        network=network.id,
        purpose="VPC_PEERING",
        address_type="INTERNAL",
        address=PSA_ADDRESS,
        prefix_length=PSA_PREFIX,
        labels=labels,
        opts=opts,
    )
    connection = gcp.servicenetworking.Connection(
        f"{name}-fs-peering",
        network=network.id,
        service="servicenetworking.googleapis.com",
        reserved_peering_ranges=[peering_range.name],
        # Deleting the connection fails while the producer (Filestore, Lustre) still holds it,
        # even after the file system is gone ("Producer services ... are still using this
        # connection": pulumi/pulumi-gcp#3354, hashicorp/terraform-provider-google#16275), which
        # stops `pulumi destroy`. ABANDON drops it from the state instead; the peering goes
        # with the VPC, which `pulumi destroy` deletes next.
        deletion_policy="ABANDON",
        opts=opts,
    )
    protect = protected(opts, depends_on=[connection])
    peering = (peering_range, connection)
    if choice.kind == LUSTRE:
        lustre = gcp.lustre.Instance(
            f"{name}-lustre",
            instance_id=gcp_id(f"{name}-lustre", 63),
            location=zone,
            network=network.id,
            capacity_gib=str(choice.capacity_gib),
            per_unit_storage_throughput=choice.tier,
            filesystem=LUSTRE_FILESYSTEM,
            labels=labels,
            opts=protect,
        )
        return FileSystem(lustre, lustre.mount_point, lustre.filesystem, peering)
    share = gcp.filestore.Instance(
        f"{name}-fs",
        tier=choice.tier,
        location=zone,
        file_shares={"name": SHARE_NAME, "capacity_gb": choice.capacity_gib},
        networks=[
            {
                "network": network.name,
                "modes": ["MODE_IPV4"],
                "connect_mode": "PRIVATE_SERVICE_ACCESS",
            }
        ],
        labels=labels,
        opts=protect,
    )
    address = share.networks.apply(lambda nets: nets[0].ip_addresses[0] if nets and nets[0].ip_addresses else None)
    return FileSystem(share, address, pulumi.Output.from_input(SHARE_NAME), peering)
