"""Link the team's OSS bucket to the cluster's CPFS file system, and let the nodes read it.

A CPFS data flow (`nas.DataFlow`) joins the Fileset `{name}-fileset` (at `DATA_PATH` in the
file system) to the whole bucket: CPFS syncs the listing and loads a file on its first read
(`clouds.alicloud.data`). The bucket is looked up first (`oss.get_buckets`, a data source):
a bucket that is missing, in another region or without the `cpfs-dataflow: true` tag stops the
deployment with a message saying what to change, before the data flow is created.

The nodes get one RAM role `{name}-node-role` (assumable by ECS only) with one custom policy
`{name}-node-bucket`: list and read the dataset's prefix, write it only with write-back;
nothing else in OSS. Export (write-back) is a data-flow task: `data_commands` holds the
`aliyun` call to run after training.
"""

from __future__ import annotations

import json
import re
from typing import NamedTuple

import pulumi
import pulumi_alicloud as alicloud

from clouds.alicloud.data import (
    DATA_PATH,
    bucket_problem,
    export_command,
    flow_throughput,
    node_ram_policy,
    node_trust_policy,
    split_uri,
)
from clouds.contract import ClusterConfig
from components.cluster_base import protected


class DataLink(NamedTuple):
    """The children of the bucket link.

    Attributes:
        fileset: `{name}-fileset`, protected (it holds what the job wrote until exported).
        data_flow: `{name}-data-flow`, the Fileset <-> bucket link.
        role: `{name}-node-role`, the nodes' RAM role.
        policy: `{name}-node-bucket`, its bucket-scoped policy.
        commands: the commands to run after `pulumi up` (the export with write-back), or [].
    """

    fileset: alicloud.nas.Fileset
    data_flow: alicloud.nas.DataFlow
    role: alicloud.ram.Role
    policy: alicloud.ram.Policy
    commands: pulumi.Output[list[str]]


def create_data_link(
    name: str,
    args: ClusterConfig,
    file_system: alicloud.nas.FileSystem,
    mount_target: alicloud.nas.MountTarget,
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> DataLink:
    """Create the Fileset, the data flow and the nodes' bucket-scoped RAM role.

    Args:
        name: the cluster name.
        args: the cluster config (`data`, `file_system`, `region`); `data` must be set.
        file_system: the cluster's CPFS file system.
        mount_target: its mount target (the data flow takes an IP of the mount target's vSwitch).
        tags: tags for the role and policy.
        opts: child options.

    Raises:
        ValueError: for a source that is not an OSS URI, or a file system too slow for a data
            flow (`flow_throughput`); at deploy time, for a bucket that cannot be linked.
    """
    assert args.data is not None and args.file_system is not None
    bucket, prefix = split_uri(args.data.source)
    throughput = flow_throughput(args.file_system.capacity_gib, args.file_system.throughput_mbps_per_tib)
    found = alicloud.oss.get_buckets_output(
        name_regex=f"^{re.escape(bucket)}$", opts=pulumi.InvokeOutputOptions(parent=opts.parent)
    )
    source = found.buckets.apply(lambda buckets: _checked_source(bucket, args.region, buckets))
    fileset = alicloud.nas.Fileset(
        f"{name}-fileset",
        file_system_id=mount_target.file_system_id,
        file_system_path=DATA_PATH,
        description=f"{name} dataset from oss://{bucket}",
        deletion_protection=True,
        opts=protected(opts),
    )
    data_flow = alicloud.nas.DataFlow(
        f"{name}-data-flow",
        file_system_id=file_system.id,
        fset_id=fileset.fileset_id,
        source_storage=source,
        source_security_type="SSL",  # the file system reaches OSS over TLS
        throughput=throughput,
        description=f"{name} dataset oss://{bucket}",
        opts=opts,
    )
    role, policy = _node_role(name, bucket, prefix, args.data.write_back, tags, opts)
    commands: pulumi.Output[list[str]] = pulumi.Output.from_input([])
    if args.data.write_back:
        commands = pulumi.Output.all(file_system.id, data_flow.data_flow_id).apply(
            lambda ids: [export_command(str(ids[0]), str(ids[1]), prefix)]
        )
    return DataLink(fileset, data_flow, role, policy, commands)


def _checked_source(bucket: str, region: str, buckets: list | None) -> str:
    found = [{"name": b.name, "location": b.location, "tags": b.tags} for b in buckets or []]
    problem = bucket_problem(bucket, region, found)
    if problem:
        raise ValueError(problem)
    return f"oss://{bucket}"


def _node_role(
    name: str, bucket: str, prefix: str, write_back: bool, tags: dict[str, str], opts: pulumi.ResourceOptions
) -> tuple[alicloud.ram.Role, alicloud.ram.Policy]:
    role = alicloud.ram.Role(
        f"{name}-node-role",
        role_name=f"{name}-node-role",
        assume_role_policy_document=json.dumps(node_trust_policy()),
        description=f"{name} training nodes: read oss://{bucket}/{prefix}",
        tags=tags,
        opts=opts,
    )
    policy = alicloud.ram.Policy(
        f"{name}-node-bucket",
        policy_name=f"{name}-node-bucket",
        policy_document=json.dumps(node_ram_policy(bucket, prefix, write_back)),
        description=f"{name}: the dataset prefix only",
        tags=tags,
        opts=opts,
    )
    alicloud.ram.RolePolicyAttachment(
        f"{name}-node-bucket-attachment",
        policy_name=policy.policy_name,
        policy_type="Custom",
        role_name=role.role_name,
        opts=opts,
    )
    return role, policy
