"""`HuaweicloudGpuCluster`: GPU ECS nodes in an anti-affinity server group, with an HPC
SFS Turbo file system.

The component only wires children together; the logic sits in pure modules beside it
(`facts`, `sfs`, `security`, `purchase`, `tags`, `validate`) and in the resource builders
`network`, `compute` and `storage`.
"""

from __future__ import annotations

from typing import Any

import pulumi
import pulumi_huaweicloud as huaweicloud

from clouds.contract import ClusterConfig
from clouds.huaweicloud.group import per_node_reason
from clouds.huaweicloud.tags import huawei_tags
from components.cluster_base import ClusterOutputs, GpuClusterBase, secret_private_key
from components.huaweicloud import compute, network, storage
from components.huaweicloud.scaling import GROUP_REPLACED_ON, configuration_args, group_args
from components.node_group import GroupKind, create_configured_group, group_or_instances

TYPE_TOKEN = "trainstack:huaweicloud:GpuCluster"
# The AS group names its configuration (`scaling` has their arguments).
GROUP_KIND = GroupKind(
    huaweicloud.as_.Configuration, huaweicloud.as_.Group, "scaling_configuration_id", GROUP_REPLACED_ON
)


class HuaweicloudGpuCluster(GpuClusterBase):
    """A multi-node GPU training cluster on Huawei Cloud ECS.

    On-demand GPU nodes are an AS group of fixed size (`scaling`) that replaces an
    unhealthy node; spot clusters and clusters with `kms_key_id` are per-node ECS instances
    (the AS configuration has no spot and cannot encrypt the system disk:
    `clouds.huaweicloud.group`).

    Public outputs (also registered, names from `OUTPUT_NAMES`):
        node_ids: `[group id]` for the group; ECS instance ids, in node order, otherwise.
        node_private_ips: `[]` for the group (its instances come and go); otherwise each
            node's private IPv4 (`access_ip_v4`), in node order.
        placement_group: the ECS server group id (anti-affinity: spreads nodes over hosts;
            Huawei ECS has no proximity placement, china-clouds.md section 3).
        file_system_dns: the host part of SFS Turbo's `export_location`, or None.
        file_system_mount_name: the path part of `export_location` (mount with
            `mount -t nfs <dns>:<path> /fsx`), or None.
        usd_per_hour: the compute price of the nodes at resolve time, USD/hour.

    Extra attribute: `ssh_private_key`, the generated admin key (OpenSSH PEM) as a Pulumi
    secret, or None when `ssh_public_key` was given. Children are attributes too (`vpc`,
    `subnet`, `security_group`, `security_group_rules`, `server_group`, `key_pair`,
    `admin_key`, `node_group`, `node_configuration`, `nodes` (per-node instances, else empty),
    `file_system_security_group`, `file_system`).
    """

    TYPE_TOKEN = TYPE_TOKEN
    PROVIDER = "huaweicloud"
    TAG_RULE = huawei_tags  # Huawei's tag rules (`clouds.huaweicloud.tags`)

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
        node_ids, node_ips = self._create_nodes(name, args, net.vpc_id, placement, tags, child)
        self.ssh_private_key = secret_private_key(self.admin_key)
        location = (
            self.file_system.export_location.apply(storage.split_export_location)
            if self.file_system
            else pulumi.Output.from_input((None, None))
        )
        return ClusterOutputs(
            node_ids=node_ids,
            node_private_ips=node_ips,
            placement_group=self.server_group.id,
            file_system_dns=location.apply(lambda parts: parts[0]),
            file_system_mount_name=location.apply(lambda parts: parts[1]),
        )

    def _create_nodes(
        self,
        name: str,
        args: ClusterConfig,
        vpc_id: Any,
        placement: dict[str, Any],
        tags: dict[str, str],
        child: pulumi.ResourceOptions,
    ) -> tuple[pulumi.Output[Any], pulumi.Output[Any]]:
        """The AS group, or per-node instances where it cannot carry the nodes
        (`clouds.huaweicloud.group.per_node_reason`: spot, `kms_key_id`); returns node ids and
        private IPs (the group's id and no IPs: its instances come and go)."""
        instance = compute.node_args(args, placement, tags)
        return group_or_instances(
            self,
            name,
            per_node_reason(args.instance_type, args.purchase, args.kms_key_id),
            lambda: create_configured_group(
                name,
                GROUP_KIND,
                configuration_args(name, instance),
                group_args(name, args.nodes, args.zone, vpc_id, placement["subnet_id"], tags),
                child,
            ),
            lambda: compute.create_nodes(name, args, placement, tags, child),
            "access_ip_v4",
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
