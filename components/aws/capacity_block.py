"""The scheduled scale-in of a node group on a Capacity Block: to zero before EC2 reclaims it."""

from __future__ import annotations

import pulumi
import pulumi_aws as aws

from clouds.aws.reservation import scale_in_time
from clouds.contract import ClusterConfig


def create_block_end(
    name: str, args: ClusterConfig, group: aws.autoscaling.Group, opts: pulumi.ResourceOptions
) -> aws.autoscaling.Schedule | None:
    """Create `{name}-block-end`, which scales the group to zero nodes before a Capacity Block's
    `reservation.ends` (`clouds.aws.reservation.scale_in_time`), or None without an end time.

    After it has run, the group stays at zero; a later `pulumi up` sets it back to `nodes`
    (for a new block, update `reservation` first).
    """
    at = scale_in_time(args.reservation)
    if at is None:
        return None
    return aws.autoscaling.Schedule(
        f"{name}-block-end",
        scheduled_action_name=f"{name}-block-end",
        autoscaling_group_name=group.name,
        start_time=at,
        min_size=0,
        max_size=0,
        desired_capacity=0,
        opts=opts,
    )
