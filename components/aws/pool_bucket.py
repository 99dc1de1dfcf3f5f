"""The bucket of an AWS managed-platform pool (SageMaker, HyperPod): KMS-encrypted by default,
every kind of public access blocked, protected (it holds the team's code, checkpoints and
lifecycle scripts), named by the platform's rule (its account id makes it global)."""

from __future__ import annotations

from typing import Any

import pulumi
import pulumi_aws as aws

from components.cluster_base import protected


def create_pool_bucket(name: str, bucket: pulumi.Input[str], tags: Any, child: pulumi.ResourceOptions) -> aws.s3.Bucket:
    """Create `{name}-bucket` called `bucket`, its default encryption (`{name}-bucket-encryption`:
    SSE-KMS with the AWS-managed key, bucket keys on) and its public access block
    (`{name}-bucket-public-access`); return the bucket."""
    created = aws.s3.Bucket(f"{name}-bucket", bucket=bucket, tags=tags, opts=protected(child))
    aws.s3.BucketServerSideEncryptionConfiguration(
        f"{name}-bucket-encryption",
        bucket=created.id,
        rules=[{"apply_server_side_encryption_by_default": {"sse_algorithm": "aws:kms"}, "bucket_key_enabled": True}],
        opts=child,
    )
    aws.s3.BucketPublicAccessBlock(
        f"{name}-bucket-public-access",
        bucket=created.id,
        block_public_acls=True,
        block_public_policy=True,
        ignore_public_acls=True,
        restrict_public_buckets=True,
        opts=child,
    )
    return created
