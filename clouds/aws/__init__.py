"""AWS: what trainstack knows about it, as one `Cloud` (see `clouds.base`); its pure
rules (validation, sizing, facts, mock answers, replace-on-change inputs) sit beside it."""

from __future__ import annotations

import re

from clouds.access import GROUP, NodeAccess
from clouds.base import GROUP_RESTART_HOURS, Cloud, FileSystemRule, Healing

# The nodes have no public address and no key pair; their role carries the SSM managed policy
# (components/aws/compute.py SSM_POLICY), so Session Manager is the way in. The Auto Scaling
# group tags its instances `aws:autoscaling:groupName` (EC2 Auto Scaling user guide, "Tag
# Auto Scaling groups and instances").
ACCESS = NodeAccess(
    service="SSM Session Manager",
    needs="the AWS CLI and its Session Manager plugin on your machine",
    find=(
        "aws ec2 describe-instances --region {region} "
        f'--filters "Name=tag:aws:autoscaling:groupName,Values={GROUP}" Name=instance-state-name,Values=running '
        "--query 'Reservations[].Instances[].InstanceId' --output text"
    ),
    shell="aws ssm start-session --region {region} --target {node}",
    bucket_copy="aws s3 cp {src} {dst}",
)

CLOUD = Cloud(
    name="aws",
    display_name="AWS",
    extra="aws",
    sdk="pulumi-aws",
    live_check="profiles.aws_preflight:check_aws",
    region_key="aws:region",
    mainland=re.compile(r"^cn-(north|northwest)-\d$"),
    request_price="facts.request_prices:S3_STANDARD",
    file_system=FileSystemRule("clouds.aws.fsx:fsx_sizing", "FSx for Lustre", by_numbers=True),
    healing=Healing(
        True,
        True,
        GROUP_RESTART_HOURS,
        "nodes are an Auto Scaling group: a lost node is replaced and rejoins the job "
        f"(unsourced {GROUP_RESTART_HOURS:g} h per interruption)",
    ),
    notice_watcher="aws",
    access=ACCESS,
    nccl="clouds.aws.nccl:kit_environment",
    shared_mount="/fsx",  # components/aws/cloud_init.py MOUNT_POINT
    # Off on-demand, from shared/reference-facts/pricing-models.md: A4 (third-party Compute
    # Savings Plans ranges, GPU families at the low end).
    reserved_discount={"1y": 0.30, "3y": 0.50},
    spot_bands="facts.spot_advisor:aws_band",
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
