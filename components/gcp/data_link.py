"""Let the GCP nodes' service account read the dataset's bucket, and with write-back write under
the dataset's prefix only."""

from __future__ import annotations

import pulumi
import pulumi_gcp as gcp

from clouds.gcp.data import READ_ROLE, WRITE_ROLE, split_uri, write_condition


def create_bucket_access(
    name: str,
    source: str,
    write_back: bool,
    service_account: gcp.serviceaccount.Account,
    opts: pulumi.ResourceOptions,
) -> list[gcp.storage.BucketIAMMember]:
    """Grant the node service account roles on the dataset's bucket only.

    `{name}-node-bucket`: `roles/storage.objectViewer` (get and list) on the bucket. With
    write-back also `{name}-node-bucket-write`: `roles/storage.objectUser` under an IAM condition
    on the object-name prefix (`clouds.gcp.data.write_condition`), so the nodes can create and
    overwrite objects under the dataset's prefix and nothing else in the bucket.

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
    grants = [
        gcp.storage.BucketIAMMember(f"{name}-node-bucket", bucket=bucket, role=READ_ROLE, member=member, opts=opts)
    ]
    if write_back:
        grants.append(
            gcp.storage.BucketIAMMember(
                f"{name}-node-bucket-write",
                bucket=bucket,
                role=WRITE_ROLE,
                member=member,
                condition=gcp.storage.BucketIAMMemberConditionArgs(**write_condition(bucket, prefix)),
                opts=opts,
            )
        )
    return grants
