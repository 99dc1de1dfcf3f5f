"""`VolcengineGpuCluster`: GPU ECS nodes in an RDMA HPC cluster (hpc* types) or a
deployment set, with a vePFS file system.

The component only wires children together; the logic sits in pure modules beside it
(`facts`, `vepfs`, `security`, `purchase`, `tags`, `validate`) and in the resource builders
`network`, `compute` and `storage`. Every resource comes from pulumi_volcengine; see
`facts` for why and for the volcenginecc equivalents.
"""

from __future__ import annotations

import pulumi

from clouds.contract import ClusterConfig
from clouds.volcengine.tags import volcengine_tags
from components.cluster_base import ClusterOutputs, GpuClusterBase, nothing, secret_private_key
from components.volcengine import compute, network, storage

TYPE_TOKEN = "trainstack:volcengine:GpuCluster"


class VolcengineGpuCluster(GpuClusterBase):
    """A multi-node GPU training cluster on Volcengine ECS.

    Public outputs (also registered, names from `OUTPUT_NAMES`):
        node_ids: ECS instance ids, in node order.
        node_private_ips: each node's primary private IPv4, in node order.
        placement_group: the HPC cluster id (hpc* types) or the deployment set id.
        file_system_dns: the vePFS file-system id, or None. Neither SDK exports a DNS name
            or address for vePFS; clients name the file system by its id through the mount
            service.
        file_system_mount_name: the attachment's `customer_path` (the mount directory;
            "the default value is file system id"), or None.
        usd_per_hour: the whole-cluster price at resolve time, USD/hour.

    Extra attribute: `ssh_private_key`, the generated admin key as a Pulumi secret, or None
    when `ssh_public_key` was given. Children are attributes too (`vpc`, `subnet`,
    `security_group`, `security_group_rules`, `placement`, `key_pair`, `admin_key`, `nodes`,
    `file_system`, `mount_service`, `mount_attachment`).
    """

    TYPE_TOKEN = TYPE_TOKEN
    PROVIDER = "volcengine"

    def cluster_tags(self, name: str, args: ClusterConfig) -> list[dict[str, str]]:
        """Volcengine's tag rules (`clouds.volcengine.tags`)."""
        return volcengine_tags(name, args.tags)

    def build(
        self, name: str, args: ClusterConfig, tags: list[dict[str, str]], child: pulumi.ResourceOptions
    ) -> ClusterOutputs:
        """Create the children; return the outputs (see the class docstring)."""
        net = network.create_network(name, args, tags, child)
        self.vpc, self.subnet = net.vpc, net.subnet
        self.security_group, self.security_group_rules = network.create_security_group(
            name, args, net.vpc_id, tags, child
        )
        self.file_system = self.mount_service = self.mount_attachment = None
        if args.file_system is not None:
            # Only file-system and subnet inputs go in: nothing about the nodes.
            vepfs = storage.create_file_system(name, args.file_system, net.subnet_id, tags, child)
            self.file_system, self.mount_service, self.mount_attachment = vepfs
        self.placement, join_argument = compute.create_placement(name, args, tags, child)
        self.key_pair, self.admin_key = compute.create_key_pair(name, args, tags, child)
        placement = {
            "subnet_id": net.subnet_id,
            "security_group_id": self.security_group.id,
            "key_pair_name": self.key_pair.key_pair_name,
            "image_id": compute.node_image_id(args, child),
            join_argument: self.placement.id,
        }
        self.nodes = compute.create_nodes(name, args, placement, tags, child)
        self.ssh_private_key = secret_private_key(self.admin_key)
        return ClusterOutputs(
            node_ids=pulumi.Output.all(*[node.id for node in self.nodes]),
            node_private_ips=pulumi.Output.all(*[node.primary_ip_address for node in self.nodes]),
            placement_group=self.placement.id,
            file_system_dns=self.file_system.id if self.file_system else nothing(),
            file_system_mount_name=self.mount_attachment.customer_path if self.mount_attachment else nothing(),
        )
