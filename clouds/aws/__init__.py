"""AWS: what trainstack knows about it, as one `Cloud` (see `clouds.base`); its pure
rules (validation, sizing, facts, mock answers, replace-on-change inputs) sit beside it."""

from __future__ import annotations

import re

from clouds.base import Cloud, FileSystemRule

CLOUD = Cloud(
    name="aws",
    display_name="AWS",
    component="components.aws.cluster:AwsGpuCluster",
    validator="clouds.aws.validate:validate_args",
    fetcher="profiles.catalog.fetchers.aws:fetch",
    mock="clouds.aws.mock:MOCK",
    replacements="clouds.aws.replacements:REPLACEMENTS",
    extra="aws",
    sdk="pulumi-aws",
    region_key="aws:region",
    mainland=re.compile(r"^cn-(north|northwest)-\d$"),
    request_price="facts.request_prices:S3_STANDARD",
    file_system=FileSystemRule("clouds.aws.fsx:fsx_sizing", "FSx for Lustre", by_numbers=True),
    stateful=frozenset(
        {
            "aws:fsx/lustreFileSystem:LustreFileSystem",
            "aws:efs/fileSystem:FileSystem",
            "aws:ebs/volume:Volume",
            "aws:s3/bucket:Bucket",
            "aws:s3/bucketV2:BucketV2",
        }
    ),
    untaggable=frozenset(
        {
            "aws:iam/rolePolicyAttachment:RolePolicyAttachment",
            "aws:iam/rolePolicy:RolePolicy",
            "aws:ec2/routeTableAssociation:RouteTableAssociation",
        }
    ),
)
