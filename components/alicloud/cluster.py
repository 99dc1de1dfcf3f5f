"""`AlicloudGpuCluster`: GPU ECS nodes (eRDMA where the type has it) as an ESS scaling group
that keeps their number, with a protected CPFS file system.

The component only wires children together; the logic sits in pure modules beside it
(`facts`, `placement`, `purchase`, `profile`, `scaling`, `cpfs`, `security`, `validate`) and in
the small resource builders `network`, `compute`, `nodes` and `storage`.
"""

from __future__ import annotations

from typing import Any

import pulumi

from clouds.alicloud.placement import placement_warning
from clouds.alicloud.validate import PROVIDER
from clouds.contract import ClusterConfig
from components.alicloud.compute import create_key_pair, image_id
from components.alicloud.data_link import create_data_link
from components.alicloud.network import create_network
from components.alicloud.nodes import create_node_group
from components.alicloud.storage import create_file_system
from components.cluster_base import ClusterOutputs, GpuClusterBase, nothing

TYPE_TOKEN = "trainstack:alicloud:GpuCluster"


class AlicloudGpuCluster(GpuClusterBase):
    """A multi-node GPU training cluster on Alibaba Cloud (ECS).

    Nodes: one ESS scaling group of `nodes` instances (min = max = desired) on the cluster's
    vSwitch, created from one scaling configuration (`scaling`): an instance that stops
    running is replaced (ECS health check), a reclaimed spot instance too (spot instance
    remedy), and a configuration change reaches only instances created afterwards.
    Placement: **no deployment set** (`placement.placement_for`): the ESS resources take none,
    and Alibaba refuses spot instances in one (china-clouds.md section 0 item 2); the
    component logs a warning saying so. Spot works only for China-site (aliyun.com) accounts
    (section 0 item 3).

    Public outputs (also registered, names from `OUTPUT_NAMES`):
        node_ids: `[scaling group id]` (its instances come and go; list them with ESS
            DescribeScalingInstances).
        node_private_ips: `[]` (the group's instances change).
        placement_group: None (no deployment set).
        file_system_dns: the CPFS mount-target domain, or None without a file system.
        file_system_mount_name: the CPFS file-system id (`cpfs-...`), which the CPFS client
            mounts through the mount-target domain, or None without a file system.
        usd_per_hour: the compute price of the nodes at resolve time, USD/hour.

    With `data` (an `oss://` dataset), the CPFS file system is linked to the bucket by a data
    flow (`data_link`: `fileset`, `data_flow`) and the nodes get a bucket-scoped RAM role
    (`node_role`, `node_bucket_policy`); `data_commands` holds the export command with
    write-back (else an empty list; None without `data`).

    Child resources are kept as attributes too (`vpc`, `vswitch`, `security_group`,
    `security_group_rules`, `key_pair`, `node_group`, `node_configuration`, `file_system`,
    `mount_target`).
    """

    TYPE_TOKEN = TYPE_TOKEN
    PROVIDER = PROVIDER

    def build(
        self, name: str, args: ClusterConfig, tags: dict[str, str], child: pulumi.ResourceOptions
    ) -> ClusterOutputs:
        """Create the children; return the outputs (see the class docstring)."""
        network = create_network(name, args, tags, child)
        self.vpc, self.vswitch = network.vpc, network.vswitch
        self.security_group, self.security_group_rules = network.security_group, network.rules
        self.file_system = self.mount_target = None
        if args.file_system is not None:
            # Only file-system, zone and network inputs go in: nothing about the nodes.
            self.file_system, self.mount_target = create_file_system(
                name, args.file_system, args.zone, network.vpc.id, network.vswitch.id, tags, child
            )
        self.key_pair = create_key_pair(name, args, tags, child)
        if warning := placement_warning(args.purchase, args.nodes):
            pulumi.log.warn(f"{name}: {warning}", resource=self)
        node_network = {"vswitch_id": network.vswitch.id, "security_group_id": network.security_group.id}
        self._link_bucket(name, args, tags, child)
        extras = {"key_name": self.key_pair.key_pair_name} if self.key_pair is not None else {}
        if self.node_role is not None:
            extras["role_name"] = self.node_role.role_name  # every node the group creates gets it
        nodes = create_node_group(name, args, node_network, image_id(args.instance_type, child), extras, tags, child)
        self.node_group, self.node_configuration = nodes.group, nodes.configuration
        return ClusterOutputs(
            node_ids=pulumi.Output.all(self.node_group.id),
            node_private_ips=pulumi.Output.from_input([]),
            placement_group=nothing(),
            file_system_dns=self.mount_target.mount_target_domain if self.mount_target else nothing(),
            file_system_mount_name=self.file_system.id if self.file_system else nothing(),
        )

    def _link_bucket(self, name: str, args: ClusterConfig, tags: dict[str, str], child: pulumi.ResourceOptions) -> None:
        self.fileset = self.data_flow = self.node_role = self.node_bucket_policy = None
        self.data_commands: pulumi.Output[list[str]] | None = None
        if args.data is None or self.file_system is None or self.mount_target is None:
            return
        link = create_data_link(name, args, self.file_system, self.mount_target, tags, child)
        self.fileset, self.data_flow = link.fileset, link.data_flow
        self.node_role, self.node_bucket_policy = link.role, link.policy
        self.data_commands = link.commands

    def extra_outputs(self) -> dict[str, pulumi.Output[Any]]:
        """`data_commands` with `data` (what to run after `pulumi up`: the export command)."""
        return {} if self.data_commands is None else {"data_commands": self.data_commands}
