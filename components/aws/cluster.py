"""`AwsGpuCluster`: EFA-connected GPU nodes in one placement group with FSx for Lustre.

The component only wires children together; the logic sits in pure modules beside it
(`efa`, `fsx`, `cloud_init`, `security`, `tags`, `validate`) and in the small resource
builders `network`, `compute` and `storage`.
"""

from __future__ import annotations

import pulumi
import pulumi_aws as aws

from clouds.aws.capacity import own_template_types
from clouds.aws.efa import gpudirect_efa
from clouds.aws.fsx import EFA_CLIENTS_CONFIGURED
from clouds.aws.reservation import placement_group_name
from clouds.contract import ClusterConfig
from clouds.job_bootstrap import channel_text
from components.aws.capacity_block import create_block_end
from components.aws.compute import create_launch_template, create_node_role, dlami, encoded_user_data
from components.aws.data_link import create_data_link, create_mlflow_policy
from components.aws.egress import create_egress, create_zone_subnets
from components.aws.head import create_head_node
from components.aws.network import create_network, create_security_group
from components.aws.nodes import create_node_group, create_on_demand_group, fill_policy, split_at_block
from components.aws.secrets import create_job_secrets
from components.aws.storage import create_file_system
from components.cluster_base import ClusterOutputs, GpuClusterBase, nothing

TYPE_TOKEN = "trainstack:aws:GpuCluster"


class AwsGpuCluster(GpuClusterBase):
    """A multi-node GPU training cluster on AWS.

    Public outputs (also registered, names from `OUTPUT_NAMES`):
        node_ids: the node group's name (its nodes are replaced as they are lost).
        node_private_ips: empty: the group's nodes change; list them from the group.
        placement_group: the cluster placement group's name (the reservation's existing
            group when `reservation.placement_group` names one; the cluster then creates none).
        file_system_dns: the FSx for Lustre DNS name, or None without a file system.
        file_system_mount_name: the Lustre mount name, or None without a file system.
        usd_per_hour: the compute price of the nodes at resolve time, USD/hour.

    A created VPC gets a private node subnet with outbound access through a NAT gateway
    (see `egress`); with `subnet_id` the existing subnet's routes are used as they are.

    Child resources are kept as attributes too (`vpc`, `subnet`, `egress`, `security_group`,
    `security_group_rules`, `placement` (None in a reservation's existing group), `role`,
    `role_policy_attachment`, `instance_profile`, `launch_template`, `node_group`, `block_template`
    and `block_group` (a Capacity Block's own group beside the node group with `block_nodes`, or
    None), `block_end` (a Capacity Block's scheduled scale-in, or None), `head_node` and its ENI `head_interface`
    (whose private IP, the workers' rendezvous endpoint, stays when the head is replaced),
    `file_system`, and with
    `data` the S3 link `data_link` and the node role's `bucket_policy`).

    Nodes are an Auto Scaling group that keeps `nodes` nodes (see `nodes`); with a `job`,
    an on-demand head node keeps the rendezvous and every node runs the job under torchrun.
    """

    TYPE_TOKEN = TYPE_TOKEN
    PROVIDER = "aws"

    def build(
        self, name: str, args: ClusterConfig, tags: dict[str, str], child: pulumi.ResourceOptions
    ) -> ClusterOutputs:
        """Create the children; return the outputs (see the class docstring)."""
        network = create_network(name, args, tags, child)
        self.vpc, self.subnet = network.vpc, network.subnet
        self.egress = None
        self.zone_subnets: list[aws.ec2.Subnet] = []
        if network.vpc is not None and network.subnet is not None:
            self.egress = create_egress(name, network.vpc, network.subnet, args.zone, args.region, tags, child)
            self.zone_subnets = create_zone_subnets(name, network.vpc, args, self.egress, tags, child)
        self.security_group, self.security_group_rules = create_security_group(name, network.vpc_id, args, tags, child)
        # A reservation made in an existing placement group launches only into that group.
        existing_group = placement_group_name(args.reservation)
        self.placement: aws.ec2.PlacementGroup | None = None
        self.placement_group_name: pulumi.Output[str] | None = None
        # a group over several zones has no placement group (`clouds.capacity.zones_problem`)
        if existing_group is None and not args.fallback_zones:
            self.placement = aws.ec2.PlacementGroup(f"{name}-pg", strategy="cluster", tags=tags, opts=child)
            self.placement_group_name = self.placement.name
        elif existing_group is not None:
            self.placement_group_name = pulumi.Output.from_input(existing_group)
        self.file_system = None
        if args.file_system is not None:
            self.file_system = create_file_system(
                name,
                args.file_system,
                network.subnet_id,
                self.security_group.id,
                tags,
                child,
                # EFA to storage only once the clients configure it (clouds.aws.fsx.EFA_CLIENTS_CONFIGURED)
                efa_clients=EFA_CLIENTS_CONFIGURED and gpudirect_efa(args.instance_type, args.interconnect),
            )
        self.role, self.role_policy_attachment, self.instance_profile = create_node_role(name, tags, child)
        self.data_link = self.bucket_policy = None
        if args.data is not None and self.file_system is not None:
            self.data_link, self.bucket_policy = create_data_link(
                name, args.data.source, args.data.write_back, self.file_system, self.role, tags, child
            )
        self.secrets_policy = create_job_secrets(name, args, self.role, tags, child)
        self.mlflow_policy = create_mlflow_policy(name, args, self.role, child)  # job.tracking: managed
        self._create_nodes(name, args, network.subnet_id, tags, child)
        fs = self.file_system
        # The group's nodes come and go; their ids are the group's to list (aws autoscaling
        # describe-auto-scaling-groups), so the outputs name the group, as Azure's scale set.
        return ClusterOutputs(
            node_ids=pulumi.Output.all(*(g.name for g in (self.node_group, self.block_group) if g is not None)),
            node_private_ips=pulumi.Output.from_input([]),
            placement_group=self.placement_group_name if self.placement_group_name is not None else nothing(),
            file_system_dns=fs.dns_name if fs else nothing(),
            file_system_mount_name=fs.mount_name if fs else nothing(),
        )

    def mount_recipe(self, args: ClusterConfig) -> tuple[str, str, str]:
        """FSx for Lustre as the nodes' user data mounts it (`clouds.aws.cloud_init`)."""
        return "lustre", "{dns}@tcp:/{name}", "relatime,flock"

    def _create_nodes(
        self,
        name: str,
        args: ClusterConfig,
        subnet_id: pulumi.Input[str],
        tags: dict[str, str],
        child: pulumi.ResourceOptions,
    ) -> None:
        fs = self.file_system
        dns, mount = (fs.dns_name, fs.mount_name) if fs else (None, None)
        self.head_node = self.head_interface = None
        rdzv_host = None
        if args.job is not None:
            head_data = encoded_user_data(name, args, dns, mount, pulumi.Output.from_input("127.0.0.1"), "head")
            self.head_interface, self.head_node = create_head_node(
                name,
                subnet_id,
                self.security_group.id,
                self.instance_profile,
                dlami(child).id,
                head_data,
                tags,
                child,
                channel_text(name, args),
            )
            rdzv_host = self.head_interface.private_ip  # the ENI's: kept when the head is replaced
        # Beside a Capacity Block (`block_nodes`) the node group is the mixed one (no reservation,
        # the rest of the nodes) and the block has its own group; every node runs the one job.
        group, block = split_at_block(args)
        user_data = encoded_user_data(name, args, dns, mount, rdzv_host)
        self.launch_template = create_launch_template(
            name, group, subnet_id, self.security_group.id, self.instance_profile, user_data, tags, child
        )
        # A fallback type whose EFA layout or user data differs launches from its own template.
        self.fallback_templates: dict[str, aws.ec2.LaunchTemplate] = {}
        for other in own_template_types(group):
            typed = group.model_copy(update={"instance_type": other})
            self.fallback_templates[other] = create_launch_template(
                name,
                typed,
                subnet_id,
                self.security_group.id,
                self.instance_profile,
                encoded_user_data(name, typed, dns, mount, rdzv_host),
                tags,
                child,
                child_name=f"{name}-lt-{other.replace('.', '-')}",
            )
        own = {other: template.id for other, template in self.fallback_templates.items()}
        zones = [subnet.id for subnet in self.zone_subnets]
        self.node_group = create_node_group(
            name, group, self.launch_template, self.placement_group_name, subnet_id, tags, child, own, zones
        )
        self.block_template = self.block_group = None
        if block is not None:  # the block's own group beside the mixed one, from its own template
            self.block_template = create_launch_template(
                name,
                block,
                subnet_id,
                self.security_group.id,
                self.instance_profile,
                user_data,
                tags,
                child,
                f"{name}-lt-block",
            )
            self.block_group = create_node_group(
                name,
                block,
                self.block_template,
                self.placement_group_name,
                subnet_id,
                tags,
                child,
                child_name=f"{name}-nodes-block",
            )
        self.block_end = create_block_end(name, block or args, self.block_group or self.node_group, child)
        self.on_demand_group = self.fill_policy = None
        if args.on_demand_after_minutes is not None:  # spot falls back to on-demand: the head's watcher
            self.on_demand_group = create_on_demand_group(
                name, group, self.launch_template, self.placement_group_name, subnet_id, tags, child, own, zones
            )
            self.fill_policy = aws.iam.RolePolicy(
                f"{name}-node-fill", role=self.role.id, policy=fill_policy(name, tags), opts=child
            )
