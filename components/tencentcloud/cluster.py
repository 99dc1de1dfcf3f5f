"""`TencentcloudGpuCluster`: GPU CVM nodes in a placement group (HCC types in an HPC cluster
for RDMA), with a protected CFS Turbo file system.

The component only wires children together; the logic sits in pure modules beside it
(`facts`, `purchase`, `profile`, `turbo`, `security`, `validate`) and in the small resource
builders `network`, `compute` and `storage`.
"""

from __future__ import annotations

from typing import Any

import pulumi
import tencentcloud_iac_pulumi as tencentcloud

from clouds.contract import ClusterConfig
from clouds.tencentcloud.group import per_node_reason
from clouds.tencentcloud.validate import PROVIDER, validate_args
from components.cluster_base import ClusterOutputs, GpuClusterBase, nothing
from components.node_group import GroupKind, NodeGroup, create_configured_group, group_or_instances
from components.tencentcloud.compute import create_key_pair, create_nodes, create_placement, image_id
from components.tencentcloud.network import create_network, create_zone_subnets
from components.tencentcloud.profile import node_args
from components.tencentcloud.scaling import GROUP_REPLACED_ON, configuration_args, group_args
from components.tencentcloud.storage import create_file_system

TYPE_TOKEN = "trainstack:tencentcloud:GpuCluster"
# The Auto Scaling group names its launch configuration (`scaling` has their arguments).
GROUP_KIND = GroupKind(
    tencentcloud.as_.ScalingConfig, tencentcloud.as_.ScalingGroup, "configuration_id", GROUP_REPLACED_ON
)


class TencentcloudGpuCluster(GpuClusterBase):
    """A multi-node GPU training cluster on Tencent Cloud (CVM, HCC).

    Spot (`SPOTPAID`) needs a bid in the account's currency (`spot_max_price`), which the
    provider-neutral config does not carry, and is not available to TencentCloud
    International accounts (china-clouds.md section 0 item 3; see `purchase`).

    The GPU nodes are an Auto Scaling group of fixed size (`scaling`) that replaces
    an unhealthy or released node; HCC (RDMA) types, which need an HPC cluster the launch
    configuration cannot carry, are per-node CVM instances (`clouds.tencentcloud.group`).

    Public outputs (also registered, names from `OUTPUT_NAMES`):
        node_ids: `[group id]` for the group; CVM instance ids, in node order, otherwise.
        node_private_ips: `[]` for the group (its instances come and go); otherwise private
            IPv4 addresses, in node order.
        placement_group: the placement group id.
        file_system_dns: the CFS Turbo mount IP, or None without a file system.
        file_system_mount_name: the CFS Turbo mount root (`fs_id`), or None.
        usd_per_hour: the compute price of the nodes at resolve time, USD/hour.

    Child resources are kept as attributes too (`vpc`, `subnet`, `security_group`,
    `security_group_rules`, `placement`, `hpc_cluster`, `key_pair`, `node_group`,
    `node_configuration`, `nodes` (per-node instances, else empty), `ccn`,
    `ccn_attachment`, `access_group`, `access_rule`, `file_system`).
    """

    TYPE_TOKEN = TYPE_TOKEN
    PROVIDER = PROVIDER

    def __init__(
        self,
        name: str,
        args: ClusterConfig,
        opts: pulumi.ResourceOptions | None = None,
        *,
        spot_max_price: str | None = None,
    ) -> None:
        """Create the cluster (see `GpuClusterBase`).

        Args:
            name: the cluster name; every child name derives from it.
            args: the provider-neutral cluster config (provider must be `tencentcloud`).
            opts: resource options; pass `providers=` to target another region or account.
            spot_max_price: spot bid per node-hour in the account's currency, as a decimal
                string ("12.50"); required with `purchase: spot`, refused otherwise.

        Raises:
            ValueError: when `args` cannot be built on Tencent Cloud (see
                `validate.validate_args`), before any resource is registered.
        """
        self.spot_max_price = spot_max_price
        super().__init__(name, args, opts)

    def check(self, name: str, args: ClusterConfig) -> None:
        """`validate.validate_args`: raises ValueError before any resource is registered."""
        validate_args(args, name, self.spot_max_price)

    def build(
        self, name: str, args: ClusterConfig, tags: dict[str, str], child: pulumi.ResourceOptions
    ) -> ClusterOutputs:
        """Create the children; return the outputs (see the class docstring)."""
        network = create_network(name, args, tags, child)
        self.vpc, self.subnet = network.vpc, network.subnet
        self.security_group, self.security_group_rules = network.security_group, network.rules
        self._create_file_system(name, args, tags, child)
        self.placement, self.hpc_cluster = create_placement(name, args, tags, child)
        self.key_pair = create_key_pair(name, args, tags, child)
        placement: dict[str, Any] = {"placement_group_id": self.placement.id}
        if self.hpc_cluster is not None:
            placement["hpc_cluster_id"] = self.hpc_cluster.id
        if self.key_pair is not None:
            placement["key_ids"] = [self.key_pair.id]
        self.zone_subnets = create_zone_subnets(name, args, network.vpc, tags, child)
        node_network = {
            "vpc_id": network.vpc.id,
            "subnet_id": network.subnet.id,
            "zone_subnet_ids": [subnet.id for subnet in self.zone_subnets],
            "security_group_id": network.security_group.id,
        }
        node_ids, node_ips = self._create_nodes(name, args, node_network, placement, tags, child)
        fs = self.file_system
        return ClusterOutputs(
            node_ids=node_ids,
            node_private_ips=node_ips,
            placement_group=self.placement.id,
            file_system_dns=fs.mount_ip if fs else nothing(),
            file_system_mount_name=fs.fs_id if fs else nothing(),
        )

    def _create_nodes(
        self,
        name: str,
        args: ClusterConfig,
        network: dict[str, Any],
        placement: dict[str, Any],
        tags: dict[str, str],
        child: pulumi.ResourceOptions,
    ) -> tuple[pulumi.Output[Any], pulumi.Output[Any]]:
        """The Auto Scaling group, or per-node instances where it cannot carry the nodes
        (`clouds.tencentcloud.group.per_node_reason`); returns node ids and private IPs (the
        group's id and no IPs: its instances come and go)."""

        def group() -> NodeGroup:
            image = image_id(args.instance_type, child)
            instance = node_args(name, 0, args, network, image, placement, self.spot_max_price, tags)
            subnets = [network["subnet_id"], *network["zone_subnet_ids"]]
            sizes = group_args(name, args.nodes, network["vpc_id"], subnets, tags)
            return create_configured_group(
                name, GROUP_KIND, configuration_args(name, instance, args.fallback_types), sizes, child
            )

        return group_or_instances(
            self,
            name,
            per_node_reason(args.instance_type, args.purchase),
            group,
            lambda: create_nodes(name, args, network, placement, self.spot_max_price, tags, child),
            "private_ip",
        )

    def _create_file_system(
        self, name: str, args: ClusterConfig, tags: dict[str, str], child: pulumi.ResourceOptions
    ) -> None:
        self.ccn = self.ccn_attachment = self.access_group = self.access_rule = None
        self.file_system = None
        if args.file_system is None:
            return
        # Only file-system, place and network inputs go in: nothing about the nodes.
        shared = create_file_system(name, args.file_system, args.region, args.zone, self.vpc.id, tags, child)
        self.ccn, self.ccn_attachment = shared.ccn, shared.ccn_attachment
        self.access_group, self.access_rule = shared.access_group, shared.access_rule
        self.file_system = shared.file_system
