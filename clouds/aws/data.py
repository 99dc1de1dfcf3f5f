"""S3 datasets on AWS: the URI form and the node role's bucket-scoped policy (see `clouds.data`).

The link is an FSx for Lustre data repository association, which loads a file from S3 on its
first read (lazy load: AWS FSx Lustre guide, "Linking your file system to an S3 bucket"), so no
copy precedes training.
"""

from __future__ import annotations

from clouds.data import BucketUri

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
