"""S3 datasets on AWS: the URI form and the node role's bucket-scoped policy (see `clouds.data`).

The link is an FSx for Lustre data repository association, which loads a file from S3 on its
first read (lazy load: AWS FSx Lustre guide, "Linking your file system to an S3 bucket"), so no
copy precedes training.
"""

from __future__ import annotations

from clouds.bucket_uri import BucketUri

SCHEME = "s3"
SOURCE_KIND = "an S3 bucket (s3://BUCKET/PREFIX)"
LINK = "lazy"
NEEDS_FILE_SYSTEM = True
_S3_URI = BucketUri(SCHEME, r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]", "an S3 URI", "s3://my-bucket/datasets/imagenet")
owns = _S3_URI.owns  # True for any `s3://` URI (valid or not)
# `s3://bucket/some/prefix` -> `("bucket", "some/prefix/")` ("" for a whole bucket); ValueError
# `data.source: ...` naming the form.
split_uri = _S3_URI.split


def node_bucket_policy(partition: str, bucket: str, prefix: str, write_back: bool) -> dict:
    """The node role's S3 policy document: read `bucket/prefix`, write it only with write-back.

    Args:
        partition: the AWS partition (`aws`, `aws-cn`).
        bucket: the bucket name.
        prefix: the key prefix ending in `/`, or "" for the whole bucket.
        write_back: True to allow PutObject (and multipart clean-up) under the prefix.

    Returns:
        An IAM policy document (dict).
    """
    bucket_arn = f"arn:{partition}:s3:::{bucket}"
    statements: list[dict] = [
        {
            "Sid": "ListDatasetPrefix",
            "Effect": "Allow",
            "Action": "s3:ListBucket",
            "Resource": bucket_arn,
            **({"Condition": {"StringLike": {"s3:prefix": [f"{prefix}*"]}}} if prefix else {}),
        },
        {"Sid": "ReadDataset", "Effect": "Allow", "Action": "s3:GetObject", "Resource": f"{bucket_arn}/{prefix}*"},
    ]
    if write_back:
        statements.append(
            {
                "Sid": "WriteBack",
                "Effect": "Allow",
                "Action": ["s3:PutObject", "s3:AbortMultipartUpload"],
                "Resource": f"{bucket_arn}/{prefix}*",
            }
        )
    return {"Version": "2012-10-17", "Statement": statements}


# `job.tracking: {mlflow: managed}` on a VM stack (`clouds.mlflow_head`): the head's MLflow
# server keeps artifacts here; boto3 is MLflow's S3 client ("Artifact Stores": Amazon S3 needs
# boto3 installed), not one of its requirements.
MLFLOW_PACKAGES = ("boto3",)


def mlflow_artifacts(source: str, prefix: str) -> str:
    """The MLflow server's `--artifacts-destination`: `prefix` (ending in `/`) of the bucket of
    the dataset `source`."""
    bucket, _ = split_uri(source)
    return f"s3://{bucket}/{prefix.rstrip('/')}"


def mlflow_policy(partition: str, bucket: str, prefix: str) -> dict:
    """The node role's policy for the MLflow server's artifacts: list, read and write `prefix`
    of `bucket` (uploads through the server's proxy, downloads for the UI), nothing else.

    Args:
        partition: the AWS partition (`aws`, `aws-cn`).
        bucket: the team's bucket.
        prefix: the cluster's artifact prefix, ending in `/` (`clouds.mlflow_head.artifact_prefix`).
    """
    bucket_arn = f"arn:{partition}:s3:::{bucket}"
    return {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Sid": "ListTrackingArtifacts",
                "Effect": "Allow",
                "Action": "s3:ListBucket",
                "Resource": bucket_arn,
                "Condition": {"StringLike": {"s3:prefix": [f"{prefix}*"]}},
            },
            {
                "Sid": "ReadWriteTrackingArtifacts",
                "Effect": "Allow",
                "Action": ["s3:GetObject", "s3:PutObject", "s3:AbortMultipartUpload"],
                "Resource": f"{bucket_arn}/{prefix}*",
            },
        ],
    }
