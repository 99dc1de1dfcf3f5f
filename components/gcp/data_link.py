"""Let the GCP nodes' service account read the dataset's bucket (and write it with write-back)."""

from __future__ import annotations

import pulumi
import pulumi_gcp as gcp

from clouds.gcp.data import READ_ROLE, WRITE_ROLE, split_uri


def create_bucket_access(
    name: str,
    source: str,
    write_back: bool,
    service_account: gcp.serviceaccount.Account,
    opts: pulumi.ResourceOptions,
) -> gcp.storage.BucketIAMMember:
    """Grant the node service account one role on the dataset's bucket only: `{name}-node-bucket`.

    Args:
        name: the cluster name.
        source: the dataset's `gs://` URI.
        write_back: grant object create/overwrite too (`roles/storage.objectUser`).
        service_account: the nodes' service account.
        opts: child options.

    Raises:
        ValueError: for a source that is not a `gs://` URI.
    """
    bucket, _ = split_uri(source)
    return gcp.storage.BucketIAMMember(
        f"{name}-node-bucket",
        bucket=bucket,
        role=WRITE_ROLE if write_back else READ_ROLE,
        member=service_account.email.apply(lambda email: f"serviceAccount:{email}"),
        opts=opts,
    )
