"""`AzureGpuCluster`: InfiniBand-connected ND-series nodes in one scale set, with Azure
Managed Lustre and NAT-gateway egress.

The component only wires children together; the logic sits in pure modules beside it
(`facts`, `amlfs`, `layout`, `security`, `purchase`, `profile`, `validate`) and in the small
resource builders `network`, `egress`, `compute` and `storage`.
"""

from __future__ import annotations

import pulumi
import pulumi_azure_native as azure_native

from clouds.azure.amlfs import LUSTRE_FS_NAME
from clouds.azure.bootstrap import custom_data
from clouds.contract import ClusterConfig
from clouds.job_bootstrap import channel_text
from clouds.job_secrets import secret_refs
from clouds.mlflow_head import on_head
from components.admin_key import admin_public_key
from components.azure.compute import create_placement_group, create_scale_set
from components.azure.data_link import create_auto_export, create_blob_link, create_mlflow_access, create_node_access
from components.azure.head import create_head_node, private_ip
from components.azure.identity import create_node_identity
from components.azure.layout import placement_zones
from components.azure.network import create_network, create_security_group
from components.azure.place import Place
from components.azure.profile import ADMIN_USERNAME, vm_profile
from components.azure.secrets import create_job_secrets
from components.azure.storage import create_file_system
from components.cluster_base import ClusterOutputs, GpuClusterBase, nothing, secret_private_key

TYPE_TOKEN = "trainstack:azure:GpuCluster"


class AzureGpuCluster(GpuClusterBase):
    """A multi-node GPU training cluster on Azure.

    Public outputs (also registered, names from `OUTPUT_NAMES`):
        node_ids: `[scale set id]`. All nodes are instances of one Uniform scale set; their
            instance ids exist only after the scale set is created and change when nodes
            are replaced, so the scale set id stands for the node group.
        node_private_ips: `[]`. A Uniform scale set allocates NIC addresses from the node
            subnet (`layout.NODE_SUBNET_CIDR`) when instances start; they are not resource
            outputs at deploy time. List them with `az vmss nic list`.
        placement_group: the proximity placement group's resource id.
        file_system_dns: the AMLFS MGS IPv4 address (`clientInfo.mgsAddress`), or None
            without a file system.
        file_system_mount_name: the Lustre file-system name to mount (`lustrefs`, as in
            `<mgs>@tcp:/lustrefs`), or None without a file system.
        usd_per_hour: the compute price of the nodes at resolve time, USD/hour.

    Extra outputs (attributes only, not registered):
        ssh_private_key: the generated admin private key (OpenSSH) as a Pulumi secret, or
            None when `ssh_public_key` was given.
        admin_username: the admin user on every node.
        file_system_mount_command: the command that mounts AMLFS at `/fsx` (`mount_recipe`), or None.

    Child resources are kept as attributes too (`resource_group`, `virtual_network`,
    `node_subnet`, `file_system_subnet`, `nat_gateway`, `egress_public_ip`,
    `security_group`, `placement`, `admin_key`, `scale_set`, `file_system`, and with a job
    `head_nic`, `head_node`); the network ones are None when `subnet_id` was given. With
    `data` (an Azure Blob container) the file system is linked to it (`data_link`: the
    logging container; its `hsm` settings name the container), the nodes get `node_identity`
    with one role on that container only (`node_container_access`), and with write-back
    `auto_export` sends results back.

    Every node's custom data (`bootstrap`) writes the NCCL / InfiniBand environment, mounts
    the file system at `/fsx` and assembles `/scratch`; with a `job`, an on-demand (Regular)
    head node keeps the rendezvous and every node runs the job under torchrun, watching
    Scheduled Events for `Preempt`.

    Placement: the scale set, the file system and the NAT gateway share one zone
    (`layout.placement_zones`); a regional cluster with a file system in a region with
    zones is pinned to zone "1", because Azure Managed Lustre needs a zone there. The
    proximity placement group names no zone (Azure needs an intent for one); the scale set,
    its first member, pins it.

    Encryption: the managed OS disk is encrypted at rest with platform-managed keys and the
    file system with Microsoft-managed keys; the temporary disk and the host-side disk cache
    are not, unless encryption at host is on (`profile.ENCRYPTION_AT_HOST`, off by default
    because it needs a subscription feature), and the local NVMe disks are not documented
    either way (see the README and `profile`).
    """

    TYPE_TOKEN = TYPE_TOKEN
    node_identity: azure_native.managedidentity.UserAssignedIdentity | None
    PROVIDER = "azure"

    def build(
        self, name: str, args: ClusterConfig, tags: dict[str, str], child: pulumi.ResourceOptions
    ) -> ClusterOutputs:
        """Create the children; return the outputs (see the class docstring)."""
        self.resource_group = azure_native.resources.ResourceGroup(
            f"{name}-rg", location=args.region, tags=tags, opts=child
        )
        zones = placement_zones(args.region, args.zone, args.file_system is not None)
        place = Place(name, args.region, zones, self.resource_group.name, tags, child)
        network = create_network(place, args)
        self.virtual_network = network.vnet
        self.node_subnet, self.file_system_subnet = network.node_subnet, network.fs_subnet
        self.nat_gateway = network.egress.nat_gateway if network.egress else None
        self.egress_public_ip = network.egress.public_ip if network.egress else None
        self.security_group = create_security_group(place, args)
        self.placement = create_placement_group(place)
        self.file_system = None
        link = create_blob_link(name, args.data, child) if args.data and args.file_system else None
        if args.file_system is not None and network.fs_subnet_id is not None:
            # Only file-system, place, network and data-link inputs go in: nothing about the nodes.
            self.file_system = create_file_system(
                place,
                args.file_system,
                network.fs_subnet_id,
                hsm=link.hsm if link else None,
                depends_on=link.provider_roles if link else (),
            )
        self._link_data(place, args, link)
        self.secret_grants: list = []
        if secret_refs(args.job):  # the workers read them with the nodes' identity
            identity = self.node_identity or create_node_identity(place)
            self.node_identity = identity
            self.secret_grants = create_job_secrets(place, args, identity.principal_id)
        self.mlflow_access = None
        if on_head(args):  # job.tracking: managed: the head's MLflow server writes with the nodes' identity
            identity = self.node_identity = self.node_identity or create_node_identity(place)
            self.mlflow_access = create_mlflow_access(name, args, identity.principal_id, child)
        public_key, self.admin_key = admin_public_key(name, args, child)
        mgs = self._client_info("mgs_address")

        def bootstrap(role: str, rdzv: pulumi.Input[str | None] | None) -> pulumi.Output[str]:
            return pulumi.Output.all(mgs, rdzv).apply(lambda v: custom_data(name, args, role, v[0], v[1]))

        self.head_nic = self.head_node = None
        rdzv_host = None
        if args.job is not None:
            self.head_nic, self.head_node = create_head_node(
                place,
                network.node_subnet_id,
                self.security_group.id,
                public_key,
                bootstrap("head", "127.0.0.1"),
                channel_text(name, args),
                identity_id=self.node_identity.id if self.node_identity and self.mlflow_access else None,
            )
            rdzv_host = private_ip(self.head_nic)
        profile = vm_profile(
            name, args, network.node_subnet_id, self.security_group.id, public_key, bootstrap("worker", rdzv_host)
        )
        identity_id = self.node_identity.id if self.node_identity else None
        self.scale_set = create_scale_set(place, args, self.placement.id, profile, identity_id=identity_id)
        self.admin_username = pulumi.Output.from_input(ADMIN_USERNAME)
        self.ssh_private_key = secret_private_key(self.admin_key)
        return ClusterOutputs(
            node_ids=self.scale_set.id.apply(lambda scale_set_id: [scale_set_id]),
            node_private_ips=pulumi.Output.from_input([]),
            placement_group=self.placement.id,
            file_system_dns=mgs,
            file_system_mount_name=pulumi.Output.from_input(LUSTRE_FS_NAME if self.file_system else None),
        )

    def mount_recipe(self, args: ClusterConfig) -> tuple[str, str, str]:
        """AMLFS as the nodes' custom data mounts it (`clouds.azure.bootstrap`), at the one
        mount point rather than AMLFS's own suggestion (`clientInfo.mountCommand`, `/lustre`)."""
        return "lustre", "{dns}@tcp:/{name}", "noatime,flock"

    def _link_data(self, place: Place, args: ClusterConfig, link) -> None:
        """The nodes' identity with one role on the dataset container, and the export job."""
        self.node_identity = None
        self.node_container_access = self.auto_export = self.data_link = None
        if link is None or args.data is None:
            return
        self.data_link = link.logging_container
        self.node_identity = create_node_identity(place)
        self.node_container_access = create_node_access(
            place.name, args.data, link.subscription, self.node_identity.principal_id, place.opts
        )
        if self.file_system is not None:
            self.auto_export = create_auto_export(place, args.data, self.file_system)

    def _client_info(self, field: str) -> pulumi.Output[str | None]:
        """One field of the file system's `clientInfo` (None without a file system, or
        until Azure reports it)."""
        if self.file_system is None:
            return nothing()
        return self.file_system.client_info.apply(lambda info: getattr(info, field, None) if info is not None else None)
