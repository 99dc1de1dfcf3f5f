"""`HuaweicloudGpuCluster`: GPU ECS nodes in an anti-affinity server group, with an HPC
SFS Turbo file system.

The component only wires children together; the logic sits in pure modules beside it
(`facts`, `sfs`, `security`, `purchase`, `tags`, `validate`) and in the resource builders
`network`, `compute` and `storage`.
"""

from __future__ import annotations

import pulumi

from clouds.contract import ClusterConfig
from clouds.huaweicloud.tags import huawei_tags
from components.cluster_base import ClusterOutputs, GpuClusterBase, secret_private_key
from components.huaweicloud import compute, network, storage

TYPE_TOKEN = "trainstack:huaweicloud:GpuCluster"


class HuaweicloudGpuCluster(GpuClusterBase):
    """A multi-node GPU training cluster on Huawei Cloud ECS.

    Public outputs (also registered, names from `OUTPUT_NAMES`):
        node_ids: ECS instance ids, in node order.
        node_private_ips: each node's private IPv4 (`access_ip_v4`), in node order.
        placement_group: the ECS server group id (anti-affinity: spreads nodes over hosts;
            Huawei ECS has no proximity placement, china-clouds.md section 3).
        file_system_dns: the host part of SFS Turbo's `export_location`, or None.
        file_system_mount_name: the path part of `export_location` (mount with
            `mount -t nfs <dns>:<path> /sfs`), or None.
        usd_per_hour: the whole-cluster price at resolve time, USD/hour.

    Extra attribute: `ssh_private_key`, the generated admin key (OpenSSH PEM) as a Pulumi
    secret, or None when `ssh_public_key` was given. Children are attributes too (`vpc`,
    `subnet`, `security_group`, `security_group_rules`, `server_group`, `key_pair`,
    `admin_key`, `nodes`, `file_system_security_group`, `file_system`).
    """

    TYPE_TOKEN = TYPE_TOKEN
    PROVIDER = "huaweicloud"

    def cluster_tags(self, name: str, args: ClusterConfig) -> dict[str, str]:
        """Huawei's tag rules (`clouds.huaweicloud.tags`)."""
        return huawei_tags(name, args.tags)

    def build(
        self, name: str, args: ClusterConfig, tags: dict[str, str], child: pulumi.ResourceOptions
    ) -> ClusterOutputs:
        """Create the children; return the outputs (see the class docstring)."""
        net = network.create_network(name, args, tags, child)
        self.vpc, self.subnet = net.vpc, net.subnet
        self.security_group, self.security_group_rules = network.create_node_security_group(name, args, tags, child)
        self._create_file_system(name, args, net, tags, child)
        self.server_group = compute.create_server_group(name, child)
        self.key_pair, self.admin_key = compute.create_key_pair(name, args, child)
        placement = {
            "subnet_id": net.subnet_id,
            "security_group_id": self.security_group.id,
            "server_group_id": self.server_group.id,
            "key_pair": self.key_pair.name,
            "image_id": compute.node_image_id(args, child),
        }
        self.nodes = compute.create_nodes(name, args, placement, tags, child)
        self.ssh_private_key = secret_private_key(self.admin_key)
        location = (
            self.file_system.export_location.apply(storage.split_export_location)
            if self.file_system
            else pulumi.Output.from_input((None, None))
        )
        return ClusterOutputs(
            node_ids=pulumi.Output.all(*[node.id for node in self.nodes]),
            node_private_ips=pulumi.Output.all(*[node.access_ip_v4 for node in self.nodes]),
            placement_group=self.server_group.id,
            file_system_dns=location.apply(lambda parts: parts[0]),
            file_system_mount_name=location.apply(lambda parts: parts[1]),
        )

    def _create_file_system(
        self,
        name: str,
        args: ClusterConfig,
        net: network.Network,
        tags: dict[str, str],
        child: pulumi.ResourceOptions,
    ) -> None:
        """The SFS Turbo and its own security group (both None without `file_system`).

        Only file-system, zone, network and KMS key inputs go in: nothing about the nodes.
        """
        self.file_system_security_group = self.file_system = None
        if args.file_system is None:
            return
        self.file_system_security_group, _ = network.create_file_system_security_group(
            name, self.security_group.id, tags, child
        )
        self.file_system = storage.create_file_system(
            name,
            args.file_system,
            args.zone,
            net.vpc_id,
            net.subnet_id,
            self.file_system_security_group.id,
            tags,
            child,
            kms_key_id=args.kms_key_id,
        )
