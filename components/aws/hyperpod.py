"""`HyperPodPool`: a persistent SageMaker HyperPod cluster (Slurm) for `platform: hyperpod`.

Children: the pool's bucket (`sagemaker-<cluster>-<account>`: encrypted, public access blocked,
protected) holding the lifecycle script; the network the VM stacks use (a VPC with a private
subnet behind a NAT gateway, or the stack's `subnet_id`) and the cluster security group (all
traffic within the group, which EFA needs; no SSH: nodes are reached through SSM); the stack's
FSx for Lustre file system when the workload asks for one (protected; linked to the dataset's
S3 prefix with `data`); the execution role the instance groups assume (`clouds.aws.hyperpod_role`);
and the cluster itself, a dynamic resource over boto3 (`hyperpod_provider`). The requests come
from `clouds.aws.hyperpod`.
"""

from __future__ import annotations

import json
from typing import Any

import pulumi
import pulumi_aws as aws

from clouds.aws import hyperpod as hp
from clouds.aws.hyperpod_role import ASSUME_SAGEMAKER, execution_policy
from clouds.contract import ClusterConfig
from components.aws.data_link import create_data_link
from components.aws.egress import create_egress
from components.aws.hyperpod_provider import HyperPodClusterProvider
from components.aws.network import create_network, create_security_group
from components.aws.pool_bucket import create_pool_bucket
from components.aws.storage import create_file_system
from components.cluster_base import ClusterOutputs, GpuClusterBase, nothing

TYPE_TOKEN = "trainstack:aws:HyperPodPool"


class HyperPodCluster(pulumi.dynamic.Resource, module="aws", name="HyperPodCluster"):
    """A SageMaker HyperPod cluster (`pulumi-python:dynamic/aws:HyperPodCluster`)."""

    cluster_arn: pulumi.Output[str]
    status: pulumi.Output[str]

    def __init__(self, name: str, region: str, request: Any, tags: Any, opts: pulumi.ResourceOptions | None = None):
        props = {"region": region, "request": request, "tags": tags, "cluster_arn": None, "status": None}
        super().__init__(HyperPodClusterProvider(), name, props, opts)


class HyperPodPool(GpuClusterBase):
    """A HyperPod cluster of the stack's instance type and `nodes`, with its bucket, network,
    role and (when asked) file system.

    Public outputs (`OUTPUT_NAMES`): `node_ids` `[cluster name]` (HyperPod lists the nodes:
    ListClusterNodes), `node_private_ips` `[]`, `placement_group` None (HyperPod places the
    nodes), the FSx pair (or None). Extra outputs: `cluster_name`, `cluster_arn`, `bucket_name`,
    `role_arn`.
    """

    TYPE_TOKEN = TYPE_TOKEN
    PROVIDER = "aws"

    def check(self, name: str, args: ClusterConfig) -> None:
        """The pool's checks (`clouds.aws.hyperpod.validate_pool`, as `plan` runs them)."""
        hp.validate_pool(args, name)

    def build(self, name: str, args: ClusterConfig, tags: Any, child: pulumi.ResourceOptions) -> ClusterOutputs:
        """Create the children; return the outputs (see the class docstring)."""
        invoke = pulumi.InvokeOutputOptions(parent=self)
        account = aws.get_caller_identity_output(opts=invoke).account_id
        partition = aws.get_partition_output(opts=invoke).partition
        self.bucket = create_pool_bucket(name, account.apply(lambda a: hp.bucket_name(name, a)), tags, child)
        self.lifecycle = aws.s3.BucketObjectv2(
            f"{name}-on-create",
            bucket=self.bucket.id,
            key=hp.LIFECYCLE_PREFIX + hp.ON_CREATE,
            content=hp.lifecycle_script(name, args.file_system is not None),
            content_type="text/x-shellscript",
            tags=tags,
            opts=child,
        )
        network = create_network(name, args, tags, child)
        self.egress = None
        if network.vpc is not None and network.subnet is not None:  # the nodes reach SageMaker and S3 out
            self.egress = create_egress(name, network.vpc, network.subnet, args.zone, args.region, tags, child)
        self.security_group, self.security_group_rules = create_security_group(name, network.vpc_id, args, tags, child)
        self.file_system = None
        if args.file_system is not None:
            self.file_system = create_file_system(
                name, args.file_system, network.subnet_id, self.security_group.id, tags, child
            )
        self.role = aws.iam.Role(
            f"{name}-hyperpod-role",
            name=hp.role_name(name),
            assume_role_policy=json.dumps(ASSUME_SAGEMAKER),
            tags=tags,
            opts=child,
        )
        reads = args.data.source if args.data is not None and self.file_system is None else None
        self.role_policy = aws.iam.RolePolicy(
            f"{name}-hyperpod-access",
            role=self.role.id,
            policy=pulumi.Output.all(self.bucket.bucket, account, partition).apply(
                lambda v: json.dumps(execution_policy(v[0], args.region, v[1], v[2], reads))
            ),
            opts=child,
        )
        self.data_link = self.bucket_policy = None
        if args.data is not None and self.file_system is not None:  # the dataset under /fsx/data
            self.data_link, self.bucket_policy = create_data_link(
                name, args.data.source, args.data.write_back, self.file_system, self.role, tags, child
            )
        self.cluster = self._cluster(name, args, network.subnet_id, tags, child)
        fs = self.file_system
        self.cluster_name = pulumi.Output.from_input(hp.cluster_name(name))
        self.cluster_arn = self.cluster.cluster_arn
        self.bucket_name = self.bucket.bucket
        self.role_arn = self.role.arn
        return ClusterOutputs(
            node_ids=self.cluster_name.apply(lambda c: [c]),
            node_private_ips=pulumi.Output.from_input([]),
            placement_group=nothing(),
            file_system_dns=fs.dns_name if fs else nothing(),
            file_system_mount_name=fs.mount_name if fs else nothing(),
        )

    def _cluster(
        self, name: str, args: ClusterConfig, subnet_id: Any, tags: Any, child: pulumi.ResourceOptions
    ) -> HyperPodCluster:
        """The HyperPod cluster, once its role may act, its script is in the bucket and its
        subnet reaches out."""
        fs = self.file_system
        fs_parts = [fs.dns_name, fs.mount_name] if fs else []
        request = pulumi.Output.all(
            self.role.arn, self.bucket.bucket, subnet_id, self.security_group.id, *fs_parts
        ).apply(
            lambda v: hp.cluster_request(
                name,
                args,
                v[0],
                v[1],
                {"SecurityGroupIds": [v[3]], "Subnets": [v[2]]},
                {"DnsName": v[4], "MountName": v[5]} if fs else None,
            )
        )
        after: list[pulumi.Resource] = [self.role_policy, self.lifecycle, *self.security_group_rules]
        if self.egress is not None:
            after.append(self.egress.private_route_table)
        opts = pulumi.ResourceOptions.merge(child, pulumi.ResourceOptions(depends_on=after))
        return HyperPodCluster(f"{name}-hyperpod", args.region, request, tags, opts)

    def extra_outputs(self) -> dict[str, pulumi.Output[Any]]:
        """The cluster's name and ARN, the pool's bucket and the execution role."""
        return {
            "cluster_name": self.cluster_name,
            "cluster_arn": self.cluster_arn,
            "bucket_name": self.bucket_name,
            "role_arn": self.role_arn,
        }
