"""`VolcengineGpuCluster`: GPU ECS nodes in an RDMA HPC cluster (hpc* types) or a
deployment set, with a vePFS file system.

The component only wires children together; the logic sits in pure modules beside it
(`facts`, `vepfs`, `security`, `purchase`, `tags`, `validate`) and in the resource builders
`network`, `compute` and `storage`. Every resource comes from pulumi_volcengine; see
`facts` for why and for the volcenginecc equivalents.
"""

from __future__ import annotations

import pulumi

from clouds.contract import OUTPUT_NAMES, ClusterConfig
from clouds.volcengine.tags import volcengine_tags
from clouds.volcengine.validate import validate_args
from components.volcengine import compute, network, storage

TYPE_TOKEN = "trainstack:volcengine:GpuCluster"


class VolcengineGpuCluster(pulumi.ComponentResource):
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

    def __init__(self, name: str, args: ClusterConfig, opts: pulumi.ResourceOptions | None = None) -> None:
        """Create the cluster.

        Args:
            name: the cluster name; every child name derives from it.
            args: the provider-neutral cluster config (provider must be `volcengine`).
            opts: resource options; pass `providers=` to target another region or account.

        Raises:
            ValueError: when `args` cannot be built on Volcengine (see
                `validate.validate_args`), before any resource is registered.
        """
        validate_args(name, args)
        super().__init__(TYPE_TOKEN, name, None, opts)
        child = pulumi.ResourceOptions(parent=self)
        tags = volcengine_tags(name, args.tags)

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
        self._set_outputs(args)

    def _set_outputs(self, args: ClusterConfig) -> None:
        self.node_ids = pulumi.Output.all(*[node.id for node in self.nodes])
        self.node_private_ips = pulumi.Output.all(*[node.primary_ip_address for node in self.nodes])
        self.placement_group = self.placement.id
        none = pulumi.Output.from_input(None)
        self.file_system_dns = self.file_system.id if self.file_system else none
        self.file_system_mount_name = self.mount_attachment.customer_path if self.mount_attachment else none
        self.usd_per_hour = pulumi.Output.from_input(args.usd_per_hour)
        self.register_outputs({key: getattr(self, key) for key in OUTPUT_NAMES})
        key = self.admin_key
        self.ssh_private_key: pulumi.Output[str | None] = (
            pulumi.Output.secret(key.private_key_openssh) if key else pulumi.Output.from_input(None)
        )
