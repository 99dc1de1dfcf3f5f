"""Let the GCP nodes' service account read the dataset's bucket, and with write-back write under
the dataset's prefix only."""

from __future__ import annotations

import pulumi
import pulumi_gcp as gcp

from clouds.contract import ClusterConfig
from clouds.gcp.data import (
    READ_ROLE,
    WRITE_ROLE,
    copy_command,
    import_command,
    read_condition,
    split_uri,
    write_condition,
)
from clouds.mlflow_head import artifact_prefix, on_head


def create_bucket_access(
    name: str,
    source: str,
    write_back: bool,
    service_account: gcp.serviceaccount.Account,
    opts: pulumi.ResourceOptions,
) -> list[gcp.storage.BucketIAMMember]:
    """Grant the node service account roles on the dataset's bucket only.

    `{name}-node-bucket`: `roles/storage.objectViewer` (get and list) under an IAM condition on
    the dataset's prefix (`clouds.gcp.data.read_condition`; unconditioned for a whole-bucket
    dataset). With write-back also `{name}-node-bucket-write`: `roles/storage.objectCreator`
    under a condition on the object-name prefix (`clouds.gcp.data.write_condition`), so the
    nodes can create objects under the dataset's prefix, delete none, and touch nothing else.

    Args:
        name: the cluster name.
        source: the dataset's `gs://` URI.
        write_back: also grant the prefix-scoped write role.
        service_account: the nodes' service account.
        opts: child options.

    Raises:
        ValueError: for a source that is not a `gs://` URI.
    """
    bucket, prefix = split_uri(source)
    member = service_account.email.apply(lambda email: f"serviceAccount:{email}")
    read = read_condition(bucket, prefix)
    grants = [_grant(f"{name}-node-bucket", bucket, READ_ROLE, member, read, opts)]
    if write_back:
        grants.append(
            _grant(f"{name}-node-bucket-write", bucket, WRITE_ROLE, member, write_condition(bucket, prefix), opts)
        )
    return grants


def create_mlflow_access(
    name: str, args: ClusterConfig, service_account: gcp.serviceaccount.Account, opts: pulumi.ResourceOptions
) -> list[gcp.storage.BucketIAMMember]:
    """For `job.tracking: {mlflow: managed}` (`clouds.mlflow_head`), grant the node service
    account the cluster's artifact prefix of the dataset's bucket, as `create_bucket_access` grants
    a dataset: `{name}-node-mlflow` reads and lists it, `{name}-node-mlflow-write` creates objects
    under it (the head's MLflow server proxies every upload; MLflow writes each artifact once, so
    the create-only role is enough); nothing outside it. [] without managed tracking.
    """
    if not on_head(args) or args.data is None:
        return []
    bucket, _ = split_uri(args.data.source)
    prefix = artifact_prefix(name)
    member = service_account.email.apply(lambda email: f"serviceAccount:{email}")
    return [
        _grant(f"{name}-node-mlflow", bucket, READ_ROLE, member, read_condition(bucket, prefix), opts),
        _grant(f"{name}-node-mlflow-write", bucket, WRITE_ROLE, member, write_condition(bucket, prefix), opts),
    ]


def _grant(
    resource_name: str,
    bucket: str,
    role: str,
    member: pulumi.Output[str],
    condition: dict[str, str] | None,
    opts: pulumi.ResourceOptions,
) -> gcp.storage.BucketIAMMember:
    """`role` on `bucket` for `member`, limited by the IAM `condition` (title, expression) when given."""
    return gcp.storage.BucketIAMMember(
        resource_name,
        bucket=bucket,
        role=role,
        member=member,
        condition=gcp.storage.BucketIAMMemberConditionArgs(**condition) if condition else None,
        opts=opts,
    )


def data_import_commands(
    file_system: pulumi.CustomResource, lustre: bool, zone: str, project: pulumi.Input[str], source: str, mount: str
) -> pulumi.Output[list[str]]:
    """What copies the dataset onto the cluster's file system, to run once after `pulumi up`
    (no Pulumi resource models either: `clouds.gcp.data`); exported as `data_commands`.

    Managed Lustre: its `gcloud lustre instances import-data` command. Filestore (no import
    from Cloud Storage): `gcloud storage rsync` onto the share, run on one node.

    Args:
        file_system: the cluster's `lustre.Instance` or `filestore.Instance`.
        lustre: True for Managed Lustre.
        zone: the file system's zone.
        project: the project id.
        source: the dataset's `gs://` URI.
        mount: where the nodes mount the file system (`Cloud.shared_mount`).
    """
    if not lustre:
        return pulumi.Output.from_input([copy_command(source, mount)])
    return pulumi.Output.all(file_system.instance_id, project).apply(  # type: ignore[attr-defined]
        lambda v: [import_command(v[0], zone, v[1], source)]
    )
