"""`VolcengineGpuCluster`: GPU ECS nodes as an Auto Scaling group that keeps their number, in
an RDMA HPC cluster for hpc* types, with a vePFS file system.

The component only wires children together; the logic sits in pure modules beside it
(`facts`, `vepfs`, `security`, `purchase`, `tags`, `validate`) and in the resource builders
`network`, `compute`, `nodes` and `storage` (the group's arguments: `scaling`). Every resource comes from pulumi_volcengine; see
`facts` for why and for the volcenginecc equivalents.
"""

from __future__ import annotations

import pulumi

from clouds.contract import ClusterConfig
from clouds.volcengine.tags import volcengine_tags
from components.cluster_base import ClusterOutputs, GpuClusterBase, nothing, secret_private_key
from components.volcengine import compute, network, storage
from components.volcengine.nodes import create_node_group

TYPE_TOKEN = "trainstack:volcengine:GpuCluster"


class VolcengineGpuCluster(GpuClusterBase):
    """A multi-node GPU training cluster on Volcengine ECS.

    Nodes: one Auto Scaling group of `nodes` instances (min = max = desired) on the cluster's
    subnet, made from one scaling configuration (`scaling`): a released instance (a
    reclaimed spot node) leaves the group below its minimum and is replaced; a configuration
    change reaches only instances created afterwards.

    Public outputs (also registered, names from `OUTPUT_NAMES`):
        node_ids: `[scaling group id]` (its instances come and go).
        node_private_ips: `[]` (the group's instances change).
        placement_group: the HPC cluster id (hpc* types), else None.
        file_system_dns: the vePFS file-system id, or None. Neither SDK exports a DNS name
            or address for vePFS; clients name the file system by its id through the mount
            service.
        file_system_mount_name: the attachment's `customer_path` (the mount directory;
            "the default value is file system id"), or None.
        usd_per_hour: the compute price of the nodes at resolve time, USD/hour.

    Extra attribute: `ssh_private_key`, the generated admin key as a Pulumi secret, or None
    when `ssh_public_key` was given. Children are attributes too (`vpc`, `subnet`,
    `security_group`, `security_group_rules`, `placement`, `key_pair`, `admin_key`, `node_group`,
    `file_system`, `mount_service`, `mount_attachment`).
    """

    TYPE_TOKEN = TYPE_TOKEN
    PROVIDER = "volcengine"
    TAG_RULE = volcengine_tags  # Volcengine's tag rules: a list of key/value

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
        self.placement = compute.create_placement(name, args, tags, child)
        self.key_pair, self.admin_key = compute.create_key_pair(name, args, tags, child)
        placement = {
            "subnet_id": net.subnet_id,
            "security_group_id": self.security_group.id,
            "key_pair_name": self.key_pair.key_pair_name,
            "image_id": compute.node_image_id(args, child),
        }
        if self.placement is not None:
            placement["hpc_cluster_id"] = self.placement.id
        self.node_group = create_node_group(name, args, placement, tags, child)
        self.ssh_private_key = secret_private_key(self.admin_key)
        return ClusterOutputs(
            node_ids=pulumi.Output.all(self.node_group.group.id),
            node_private_ips=pulumi.Output.from_input([]),
            placement_group=self.placement.id if self.placement is not None else nothing(),
            file_system_dns=self.file_system.id if self.file_system else nothing(),
            file_system_mount_name=self.mount_attachment.customer_path if self.mount_attachment else nothing(),
        )
