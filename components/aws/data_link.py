"""Link the team's S3 bucket to the cluster's FSx for Lustre file system, and let the nodes read it.

An FSx data repository association (DRA) maps an S3 prefix into the file system at
`DATA_PATH`: with `batch_import_meta_data_on_create` the file listing appears at creation, and a
file's contents load from S3 on its first read (lazy load), so training starts without a copy
step; with write-back, files written or changed under the path (checkpoints, results) are exported
to the bucket; deletions never are. DRAs need a PERSISTENT_2 file system (AWS FSx Lustre guide, "Linking your file system to
an S3 bucket"). FSx reaches the bucket through its own service-linked role.

The node role gets one inline policy: list and read the source prefix, and write the export
prefix only when write-back is asked for; nothing else in S3.
"""

from __future__ import annotations

import json

import pulumi
import pulumi_aws as aws

from clouds.aws.data import mlflow_policy, node_bucket_policy, split_uri
from clouds.contract import ClusterConfig
from clouds.mlflow_head import artifact_prefix, on_head

DATA_PATH = "/data"  # where the bucket's prefix appears inside the file system
AUTO_IMPORT_EVENTS = ["NEW", "CHANGED", "DELETED"]  # keep the listing in step with the bucket
# A file deleted in the file system is never deleted from the team's bucket: write-back exports
# new and changed files only (removing a cached copy under /data must not remove the dataset).
AUTO_EXPORT_EVENTS = ["NEW", "CHANGED"]


def create_data_link(
    name: str,
    source: str,
    write_back: bool,
    file_system: aws.fsx.LustreFileSystem,
    role: aws.iam.Role,
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> tuple[aws.fsx.DataRepositoryAssociation, aws.iam.RolePolicy]:
    """Create the DRA `{name}-data-link` and the node role's policy `{name}-node-bucket`.

    Args:
        name: the cluster name.
        source: the S3 URI of the dataset (`data.source`).
        write_back: export files written under `DATA_PATH` to the bucket.
        file_system: the cluster's FSx for Lustre file system (PERSISTENT_2).
        role: the node role.
        tags: tags for the association.
        opts: child options.

    Raises:
        ValueError: for a source that is not an S3 URI.
    """
    bucket, prefix = split_uri(source)
    s3: dict = {"auto_import_policy": {"events": AUTO_IMPORT_EVENTS}}
    if write_back:
        s3["auto_export_policy"] = {"events": AUTO_EXPORT_EVENTS}
    link = aws.fsx.DataRepositoryAssociation(
        f"{name}-data-link",
        file_system_id=file_system.id,
        file_system_path=DATA_PATH,
        data_repository_path=f"s3://{bucket}/{prefix}",
        batch_import_meta_data_on_create=True,
        delete_data_in_filesystem=False,  # removing the link never deletes the data in it
        s3=s3,
        tags=tags,
        # FSx allows one association per file-system path (/data): a new source cannot be
        # linked while the old link holds the path, so the old one is deleted first.
        opts=pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(delete_before_replace=True)),
    )
    partition = aws.get_partition_output(opts=pulumi.InvokeOutputOptions(parent=opts.parent))
    policy = aws.iam.RolePolicy(
        f"{name}-node-bucket",
        role=role.id,
        policy=partition.partition.apply(lambda p: json.dumps(node_bucket_policy(p, bucket, prefix, write_back))),
        opts=opts,
    )
    return link, policy


def create_mlflow_policy(
    name: str, args: ClusterConfig, role: aws.iam.Role, opts: pulumi.ResourceOptions
) -> aws.iam.RolePolicy | None:
    """Create `{name}-node-mlflow` for `job.tracking: {mlflow: managed}` (`clouds.mlflow_head`):
    the node role may list, read and write the cluster's artifact prefix of the dataset's bucket
    (the head's MLflow server proxies every upload), and nothing else in S3; None otherwise.
    """
    if not on_head(args) or args.data is None:
        return None
    bucket, _ = split_uri(args.data.source)
    prefix = artifact_prefix(name)
    partition = aws.get_partition_output(opts=pulumi.InvokeOutputOptions(parent=opts.parent))
    return aws.iam.RolePolicy(
        f"{name}-node-mlflow",
        role=role.id,
        policy=partition.partition.apply(lambda p: json.dumps(mlflow_policy(p, bucket, prefix))),
        opts=opts,
    )
