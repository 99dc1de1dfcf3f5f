"""Compute children of the AWS cluster: node IAM role, user data and the launch template."""

from __future__ import annotations

import base64
import json

import pulumi
import pulumi_aws as aws

from clouds.aws.bootstrap import USER_DATA_LIMIT_BYTES, node_user_data, over_limit
from clouds.aws.efa import network_interfaces
from clouds.aws.reservation import launch_options
from clouds.aws.runtime import AMI_NAME
from clouds.contract import ClusterConfig

# The PyTorch DLAMI, pinned by its full name (clouds/aws/runtime.py: release notes, torch 2.9 at
# /opt/pytorch/bin/python, EFA and aws-ofi-nccl).
DLAMI_NAME = AMI_NAME
SSM_POLICY = "AmazonSSMManagedInstanceCore"
# A choice, not a sourced figure: room for containers and staged checkpoints.
ROOT_VOLUME_GIB = 200

_ASSUME_EC2 = json.dumps(
    {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Effect": "Allow",
                "Principal": {"Service": "ec2.amazonaws.com"},
                "Action": "sts:AssumeRole",
            }
        ],
    }
)


def create_node_role(
    name: str, tags: dict[str, str], opts: pulumi.ResourceOptions
) -> tuple[aws.iam.Role, aws.iam.RolePolicyAttachment, aws.iam.InstanceProfile]:
    """Create the node role (trusted by EC2, only the SSM managed policy) and its profile.

    Args:
        name: the cluster name; children are `{name}-node-role`, `-node-ssm`, `-node-profile`.
        tags: tags for every taggable resource.
        opts: child options.

    Returns:
        The role, its one policy attachment and the instance profile.
    """
    partition = aws.get_partition_output(opts=pulumi.InvokeOutputOptions(parent=opts.parent))
    role = aws.iam.Role(f"{name}-node-role", assume_role_policy=_ASSUME_EC2, tags=tags, opts=opts)
    attachment = aws.iam.RolePolicyAttachment(
        f"{name}-node-ssm",
        role=role.name,
        policy_arn=partition.partition.apply(lambda p: f"arn:{p}:iam::aws:policy/{SSM_POLICY}"),
        opts=opts,
    )
    profile = aws.iam.InstanceProfile(f"{name}-node-profile", role=role.name, tags=tags, opts=opts)
    return role, attachment, profile


def encoded_user_data(
    name: str,
    args: ClusterConfig,
    dns_name: pulumi.Input[str] | None,
    mount_name: pulumi.Input[str] | None,
    rdzv_host: pulumi.Input[str] | None = None,
    role: str = "worker",
) -> pulumi.Output[str]:
    """Base64 user data for a worker (the launch template) or the head node.

    Args:
        name: the cluster name (the job's rendezvous id).
        args: the cluster config (instance type and interconnect pick the NCCL settings).
        dns_name: the file system's DNS name, or None.
        mount_name: the file system's mount name, or None.
        rdzv_host: the head node's private IP when the cluster has a job, else None.
        role: `worker` (NCCL environment, mount, `/scratch` on local NVMe, job unit) or `head`
            (mount, rendezvous unit).

    Raises:
        ValueError: (at deploy) when the user data exceeds EC2's 16 KB limit (`clouds.aws.bootstrap`;
            the stack check refuses it first with the longest values).
    """

    def render(values: list) -> str:
        text = node_user_data(name, args, values[0], values[1], values[2], role)
        if len(text.encode()) > USER_DATA_LIMIT_BYTES:
            raise ValueError(over_limit(args, len(text.encode())))
        return base64.b64encode(text.encode()).decode()

    return pulumi.Output.all(dns_name, mount_name, rdzv_host).apply(render)


def dlami(opts: pulumi.ResourceOptions) -> pulumi.Output:
    """The x86_64 DLAMI named `DLAMI_NAME` owned by Amazon (an invoke), found also once AWS
    has deprecated it (a later release deprecates it; a deprecated AMI still launches)."""
    return aws.ec2.get_ami_output(
        owners=["amazon"],
        most_recent=True,
        include_deprecated=True,
        filters=[
            {"name": "name", "values": [DLAMI_NAME]},
            {"name": "architecture", "values": ["x86_64"]},
        ],
        opts=pulumi.InvokeOutputOptions(parent=opts.parent),
    )


def create_launch_template(
    name: str,
    args: ClusterConfig,
    subnet_id: pulumi.Input[str],
    security_group_id: pulumi.Input[str],
    profile: aws.iam.InstanceProfile,
    user_data_b64: pulumi.Input[str],
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
    child_name: str | None = None,
) -> aws.ec2.LaunchTemplate:
    """Create the node launch template: DLAMI, IMDSv2, encrypted gp3 root, EFA interfaces,
    and with a reservation its target (and a Capacity Block's `capacity-block` market type).

    Args:
        name: the cluster name; the template is `{name}-lt`.
        args: the cluster config.
        subnet_id: subnet of every network interface.
        security_group_id: group attached to every network interface.
        profile: the node instance profile.
        user_data_b64: base64 user data.
        tags: tags for the template and, via tag specifications, volumes and interfaces.
        opts: child options.
        child_name: the template's name (`{name}-lt` when None; a fallback type's own template
            is `{name}-lt-<type>`, `components.aws.cluster`).
    """
    ami = dlami(opts)
    root = {
        "device_name": ami.root_device_name,
        "ebs": {
            "volume_type": "gp3",
            "volume_size": ROOT_VOLUME_GIB,
            "encrypted": "true",
            "delete_on_termination": "true",
        },
    }
    return aws.ec2.LaunchTemplate(
        child_name or f"{name}-lt",
        image_id=ami.id,
        instance_type=args.instance_type,
        iam_instance_profile={"arn": profile.arn},
        # IMDSv2 only; hop limit 2 set explicitly (EC2's default is 1), so a container on the
        # node (an NGC image, the job in docker) reaches the metadata service through its bridge
        # (EC2 user guide, "Configure the instance metadata options": "in a container
        # environment, we recommend setting the hop limit to 2").
        metadata_options={"http_endpoint": "enabled", "http_tokens": "required", "http_put_response_hop_limit": 2},
        block_device_mappings=[root],
        # a group over several zones picks each node's subnet itself: the interfaces name none
        network_interfaces=network_interfaces(
            args.instance_type, None if args.fallback_zones else subnet_id, security_group_id, args.interconnect
        ),
        user_data=user_data_b64,
        # with fallback types the group targets the reservation first (`nodes.group_capacity`), not the template
        **launch_options(None if args.fallback_types else args.reservation),
        tag_specifications=[
            {"resource_type": "volume", "tags": tags},
            {"resource_type": "network-interface", "tags": tags},
        ],
        update_default_version=True,
        tags=tags,
        # The AMI lookup finds the newest DLAMI at every `pulumi up`; a new one would make a
        # new template version and replace every node mid-training. Keep the image the
        # nodes were created with; move to a newer one deliberately (`pulumi up --replace`).
        opts=pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(ignore_changes=["imageId"])),
    )
