"""The AWS job head node: one on-demand instance that keeps the c10d rendezvous store, on an ENI
whose private IP the workers' rendezvous endpoint names, and that carries the job channel in
its tags (`nodeagent.publisher`)."""

from __future__ import annotations

import pulumi
import pulumi_aws as aws

from clouds.aws.bootstrap import channel_tags
from components.aws.compute import ROOT_VOLUME_GIB
from components.aws.nodes import HEAD_INSTANCE_TYPE

# IMDSv2, hop limit 1 (no container on the head), its tags in the metadata (the job channel).
HEAD_METADATA = {
    "http_endpoint": "enabled",
    "http_tokens": "required",
    "http_put_response_hop_limit": 1,
    "instance_metadata_tags": "enabled",
}


def create_head_node(
    name: str,
    subnet_id: pulumi.Input[str],
    security_group_id: pulumi.Input[str],
    profile: aws.iam.InstanceProfile,
    image_id: pulumi.Input[str],
    user_data_b64: pulumi.Input[str],
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
    channel: str = "",
) -> tuple[aws.ec2.NetworkInterface, aws.ec2.Instance]:
    """Create `{name}-head-eni` and `{name}-head`: an on-demand instance keeping the job's
    rendezvous store, whose primary network interface is that ENI.

    The ENI (in the nodes' subnet and security group, whose self rules let workers reach the
    store) holds the private IP the workers' rendezvous endpoint names, for as long as the ENI
    lives: a replaced head instance attaches the same ENI, so the address, and the workers'
    launch template, stay ("Elastic network interfaces": a primary ENI given at launch, its
    primary private IPv4 address kept for the ENI's lifetime). A replacement terminates the old
    instance first (`delete_before_replace`) to free the ENI. IMDSv2, encrypted root volume.

    The job channel (`channel_text`) rides on its tags, read through instance metadata: a job
    edit changes only tags, updated on the running instance (`nodeagent.publisher`).

    Returns:
        (the ENI, the instance).
    """
    eni = aws.ec2.NetworkInterface(
        f"{name}-head-eni",
        subnet_id=subnet_id,
        security_groups=[security_group_id],
        description=f"trainstack {name}: the job's rendezvous (head node)",
        tags={**tags, "Name": f"{name}-head"},
        opts=opts,
    )
    instance = aws.ec2.Instance(
        f"{name}-head",
        ami=image_id,
        instance_type=HEAD_INSTANCE_TYPE,
        primary_network_interface={"network_interface_id": eni.id},
        iam_instance_profile=profile.name,
        # the head runs no container: hop limit 1, set explicitly; its tags carry the job channel
        metadata_options=HEAD_METADATA,
        root_block_device={"volume_type": "gp3", "volume_size": ROOT_VOLUME_GIB, "encrypted": True},
        user_data_base64=user_data_b64,
        tags={**tags, "Name": f"{name}-head", **channel_tags(channel)},
        opts=pulumi.ResourceOptions.merge(
            opts, pulumi.ResourceOptions(ignore_changes=["ami"], delete_before_replace=True)
        ),
    )
    return eni, instance
