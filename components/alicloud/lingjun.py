"""`LingjunPool`: a persistent PAI Lingjun cluster for a `platform: pai-lingjun` stack.

The PAI workspace of `PaiPool` (protected: it holds the team's jobs and experiments), plus the
Lingjun cluster (`pulumi_alicloud.eflo`, eflo-controller API 2022-12-15):

- a management VPC, vSwitch and security group (`components.alicloud.network`: VPC-internal
  traffic only, no SSH rule);
- the Lingjun network: a VPD and one subnet in the zone (`clouds.alicloud.lingjun` CIDRs);
- the cluster (`eflo.Cluster`, type `Lite`) on that VPC and VPD;
- one node group of the machine type and `node_image`, no key pair and no password;
- `nodes` Lingjun nodes (`eflo.Node`), bought `PayAsYouGo` into that group (the schema's
  default is a subscription), one resource each, so a node-count change adds or releases
  nodes and leaves the cluster, the group and the other nodes as they are.

Rules and names live in `clouds.alicloud.lingjun`; this module only creates resources.
"""

from __future__ import annotations

from typing import Any

import pulumi
import pulumi_alicloud as alicloud

from clouds.alicloud import lingjun
from clouds.contract import ClusterConfig
from components.alicloud.network import create_network
from components.alicloud.pai import PaiPool
from components.cluster_base import ClusterOutputs, pool_outputs

TYPE_TOKEN = "trainstack:alicloud:LingjunPool"


class LingjunPool(PaiPool):
    """A PAI workspace and a Lingjun cluster of `nodes` pay-as-you-go nodes.

    Public outputs (`OUTPUT_NAMES`): `node_ids` the Lingjun node ids, `node_private_ips` `[]`
    (the nodes' addresses are the platform's), `placement_group` and the file-system pair None.
    Extra outputs: `workspace_id`, `workspace_name`, `cluster_id`, `node_group_id`.
    """

    TYPE_TOKEN = TYPE_TOKEN

    def check(self, name: str, args: ClusterConfig) -> None:
        """The pool's checks (`clouds.alicloud.lingjun.validate_pool`, as `plan` runs them)."""
        lingjun.validate_pool(args, name)

    def build(self, name: str, args: ClusterConfig, tags: Any, child: pulumi.ResourceOptions) -> ClusterOutputs:
        """Create the workspace, the networks, the cluster, its node group and the nodes."""
        super().build(name, args, tags, child)
        network = create_network(name, args, tags, child)
        vpd = alicloud.eflo.Vpd(
            f"{name}-vpd", vpd_name=lingjun.lingjun_name(name, "vpd"), cidr=lingjun.VPD_CIDR, tags=tags, opts=child
        )
        subnet = alicloud.eflo.Subnet(
            f"{name}-lingjun-subnet",
            subnet_name=lingjun.lingjun_name(name, "subnet"),
            vpd_id=vpd.id,
            zone_id=args.zone,
            cidr=lingjun.SUBNET_CIDR,
            opts=child,
        )
        self.cluster = alicloud.eflo.Cluster(
            f"{name}-lingjun",
            cluster_name=lingjun.lingjun_name(name, "lingjun"),
            cluster_description=f"trainstack {name}",
            cluster_type=lingjun.CLUSTER_TYPE,
            ignore_failed_node_tasks=False,
            networks=alicloud.eflo.ClusterNetworksArgs(
                vpc_id=network.vpc.id,
                vswitch_id=network.vswitch.id,
                vswitch_zone_id=args.zone,
                security_group_id=network.security_group.id,
                vpd_info=alicloud.eflo.ClusterNetworksVpdInfoArgs(vpd_id=vpd.id, vpd_subnets=[subnet.subnet_id]),
            ),
            tags=tags,
            opts=child,
        )
        group = alicloud.eflo.NodeGroup(
            f"{name}-lingjun-group",
            cluster_id=self.cluster.id,
            node_group_name=lingjun.lingjun_name(name, "group"),
            node_group_description=f"trainstack {name}: {args.instance_type}",
            machine_type=args.instance_type,
            image_id=str(args.node_image),
            az=args.zone,
            zone_id=args.zone,
            vswitch_zone_id=args.zone,
            vpd_subnets=[subnet.subnet_id],
            ignore_failed_node_tasks=False,
            opts=child,
        )
        nodes = [self._node(name, args, index, group, network, tags, child) for index in range(args.nodes)]
        self.cluster_id = self.cluster.id
        self.node_group_id = group.node_group_id
        return pool_outputs(pulumi.Output.all(*[node.id for node in nodes]))

    def _node(self, name: str, args: ClusterConfig, index: int, group: Any, network: Any, tags: Any, child: Any) -> Any:
        return alicloud.eflo.Node(
            f"{name}-lingjun-node-{index}",
            machine_type=args.instance_type,
            payment_type=lingjun.PAYMENT_TYPE,
            product_form=lingjun.PRODUCT_FORM,
            renewal_status="ManualRenewal",
            zone=args.zone,
            cluster_id=self.cluster.id,
            node_group_id=group.node_group_id,
            hostname=lingjun.hostname(name, index),
            vpc_id=network.vpc.id,
            vswitch_id=network.vswitch.id,
            tags=tags,
            opts=child,
        )

    def extra_outputs(self) -> dict[str, pulumi.Output[Any]]:
        """The workspace, and the Lingjun cluster and node group the nodes belong to."""
        return {**super().extra_outputs(), "cluster_id": self.cluster_id, "node_group_id": self.node_group_id}
