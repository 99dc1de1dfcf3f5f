"""`BaiducloudGpuCluster`: BCC GPU nodes in one deploy set (and one EHC cluster for RDMA)
on Baidu AI Cloud.

No Pulumi package exists for Baidu (china-clouds.md §0.5, §5.5), so every child is a Pulumi
dynamic resource over bce-python-sdk (`bcc_provider`, `network_provider`,
`placement_provider`); the one exception is the generated admin key (`pulumi_tls`). The
component only wires children together (`resources`); checks live in `validate`.
"""

from __future__ import annotations

import pulumi

from clouds.baiducloud.layout import baidu_tags
from clouds.common import cluster_tags
from clouds.contract import ClusterConfig
from components.baiducloud.resources import (
    NodeWiring,
    create_keypair,
    create_network,
    create_nodes,
    create_placement,
    create_security_group,
)
from components.cluster_base import ClusterOutputs, GpuClusterBase, nothing, secret_private_key

TYPE_TOKEN = "trainstack:baiducloud:GpuCluster"
PROVIDER = "baiducloud"


class BaiducloudGpuCluster(GpuClusterBase):
    """A multi-node GPU training cluster on Baidu AI Cloud.

    Public outputs (also registered, names from `OUTPUT_NAMES`):
        node_ids: the BCC instance ids (`i-...`), one per node, in node order.
        node_private_ips: the nodes' private IPv4 addresses, in node order.
        placement_group: the deploy set id every node joins.
        file_system_dns: always None; this component creates no file system (`validate`).
        file_system_mount_name: always None.
        usd_per_hour: the compute price of the nodes at resolve time, USD/hour.

    Extra outputs (attributes only, not registered):
        ssh_private_key: the generated admin private key (OpenSSH) as a Pulumi secret, or
            None when `ssh_public_key` was given.
        security_group_id, subnet_id, ehc_cluster_id (None without RDMA).

    Child resources are kept as attributes too (`vpc`, `subnet`, `security_group`,
    `deploy_set`, `ehc_cluster`, `admin_key`, `keypair`, `nodes`).
    """

    TYPE_TOKEN = TYPE_TOKEN
    PROVIDER = PROVIDER

    def __init__(self, name: str, args: ClusterConfig, opts: pulumi.ResourceOptions | None = None) -> None:
        """Create the cluster (see `GpuClusterBase`). Dynamic resources take no `providers=`
        in `opts`: the region comes from `args.region` and the credentials from the environment.

        Raises:
            ValueError: when `args` cannot be built on Baidu (see `validate.validate_args`),
                before any resource is registered.
        """
        super().__init__(name, args, opts)

    def cluster_tags(self, name: str, args: ClusterConfig) -> dict[str, str]:
        """trainstack's tags in the form Baidu's APIs take (`clouds.baiducloud.layout`)."""
        return baidu_tags(cluster_tags(PROVIDER, name, args.tags))

    def build(
        self, name: str, args: ClusterConfig, tags: dict[str, str], child: pulumi.ResourceOptions
    ) -> ClusterOutputs:
        """Create the children; return the outputs (see the class docstring)."""
        network = create_network(name, args, tags, child)
        self.vpc, self.subnet = network.vpc, network.subnet
        self.security_group = create_security_group(name, args, network, tags, child)
        self.deploy_set, self.ehc_cluster = create_placement(name, args, child)
        self.keypair, self.admin_key = create_keypair(name, args, child)
        wiring = NodeWiring(
            subnet_id=network.subnet_id,
            security_group_id=self.security_group.id,
            deploy_set_id=self.deploy_set.id,
            keypair_id=self.keypair.id,
            ehc_cluster_id=self.ehc_cluster.id if self.ehc_cluster else None,
        )
        self.nodes = create_nodes(name, args, wiring, tags, child)
        self.ssh_private_key = secret_private_key(self.admin_key)
        self.security_group_id = wiring.security_group_id
        self.subnet_id = pulumi.Output.from_input(wiring.subnet_id)
        self.ehc_cluster_id = pulumi.Output.from_input(wiring.ehc_cluster_id)
        return ClusterOutputs(
            node_ids=pulumi.Output.all(*[node.id for node in self.nodes]),
            node_private_ips=pulumi.Output.all(*[node.internal_ip for node in self.nodes]),
            placement_group=self.deploy_set.id,
            file_system_dns=nothing(),
            file_system_mount_name=nothing(),
        )
