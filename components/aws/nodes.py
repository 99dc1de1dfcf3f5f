"""The AWS nodes: an Auto Scaling group that keeps the cluster's size, and the job's head node.

The group launches from the cluster's launch template (EFA layout unchanged) into the
cluster placement group and its one subnet, so every replacement lands in the same zone
and placement group. The mixed instances policy lists the stack's instance type and its
`fallback_types` in rank order (`prioritized` on-demand, `capacity-optimized-prioritized` spot:
the group launches the first type with capacity, EC2 Auto Scaling "Allocation strategies"),
each fallback on its own launch template where its EFA layout or user data differs. Spot has
no on-demand share, and capacity rebalancing only where the group can draw from more than one
spot pool (`spot_pools`: a fallback type); on-demand uses open capacity reservations first. `pulumi up`
never waits for the instances (`wait_for_capacity_timeout` "0"): the provider would otherwise
fail the update at the first InsufficientInstanceCapacity activity, whatever the timeout
(hashicorp/terraform-provider-aws#33665, #29753), while the group keeps trying by itself;
`trainstack status` shows its latest scaling activity. The group follows the template's `$Latest` version, so a template change (tags, user
data, AMI) is used by replacements only and never rolls healthy nodes, while a new instance
type or purchase option (group inputs) rolls them by instance refresh. The head node keeps the rendezvous store and is always on-demand.
"""

from __future__ import annotations

import json

import pulumi
import pulumi_aws as aws

from clouds.contract import ClusterConfig

# A choice, not a sourced figure: 2 vCPU / 8 GiB is plenty for torch's TCPStore.
HEAD_INSTANCE_TYPE = "m7i.large"
# Seconds EC2 health checks wait after launch: the DLAMI bootstrap installs the Lustre client (a choice).
HEALTH_CHECK_GRACE_SECONDS = 600
# The on-demand group's tag (value `on-demand`) and the cluster's, as `nodeagent.fill` reads them.
FILL_TAG = "trainstack:fill"
CLUSTER_TAG = "trainstack:cluster"
# "0" turns the provider's capacity wait off (pulumi-aws `waitForCapacityTimeout`): GPU capacity
# may come minutes or hours later, and the group retries on its own.
WAIT_FOR_CAPACITY = "0"


def spot_pools(instance_types: int, subnets: int) -> int:
    """The spot capacity pools a group can launch from: one per instance type and zone.

    EC2 Auto Scaling's capacity rebalancing launches a replacement on a rebalance
    recommendation and is documented for groups over several instance types and zones ("Use
    Capacity Rebalancing to handle Amazon EC2 Spot Interruptions": "diversify across multiple
    instance types and Availability Zones"). In one pool, the replacement comes from the very
    pool at elevated risk, while the node it replaces still trains: so it is only turned on
    with two pools or more. Each node's agent takes the recommendation as advice (an early
    checkpoint, `nodeagent.clouds.aws.rebalance`).
    """
    return instance_types * subnets


def group_capacity(
    args: ClusterConfig,
    template_id: pulumi.Input[str],
    own_templates: dict[str, pulumi.Input[str]] | None = None,
    subnets: int = 1,
) -> dict:
    """Launch settings of the group: a mixed instances policy over the template's `$Latest`.

    The instance types are the policy's overrides in rank order (`instance_type`, then
    `fallback_types`) and the purchase its on-demand share, so a change of either (asked for
    in the stack) changes the group and starts an instance refresh; a template change (tags,
    user data, AMI) does not change the group and rolls nothing. Spot: 0 % on-demand,
    `price-capacity-optimized` for one type, `capacity-optimized-prioritized` for several
    (the ranking is kept where capacity allows), capacity rebalancing only over more than one
    pool (`spot_pools`: with a fallback type; one type in one subnet is one pool). On-demand:
    `prioritized` (the first type with capacity), open capacity reservations first; with a
    capacity reservation and fallback types, the group's Capacity Reservation specification
    targets that reservation first (`capacity-reservations-first`: "If capacity isn't available,
    instances will run in On-Demand capacity", EC2 Auto Scaling CapacityReservationSpecification),
    then the overrides in rank order on-demand. A Capacity Block: the template's `$Latest`
    directly (`launch_template`), no mixed instances policy and no rebalancing.

    Args:
        args: the cluster config.
        template_id: the node launch template.
        own_templates: fallback type -> the id of its own launch template (a type whose EFA
            layout or user data differs from `instance_type`'s); absent types use `template_id`.
        subnets: the group's subnets, one per zone (`fallback_zones`): spot pools are types x zones.

    Returns:
        `mixed_instances_policy` (or `launch_template`), `capacity_rebalance`,
        `instance_refresh` and (on-demand) `capacity_reservation_specification` arguments.
    """
    # All nodes at once (0 % healthy): the job restarts once from its checkpoint, not per node.
    refresh = {"strategy": "Rolling", "preferences": {"min_healthy_percentage": 0}}
    if args.reservation is not None and args.reservation.kind == "capacity-block":
        # A Capacity Block group cannot be a mixed instances group (EC2 Auto Scaling, "Use
        # Capacity Blocks for ML workloads", Limitations): the template itself, which holds
        # the block's id and market type. The instance type is fixed by the block.
        return {
            "launch_template": {"id": template_id, "version": "$Latest"},
            "capacity_rebalance": False,
            "instance_refresh": refresh,
        }
    spot = args.purchase == "spot"
    listed = overrides(args, own_templates or {})
    base = (args.on_demand_nodes or 0) if spot else 0  # a spot group's `on_demand_nodes` on-demand first
    distribution: dict = {
        "on_demand_base_capacity": base,
        "on_demand_percentage_above_base_capacity": 0 if spot else 100,
    }
    if spot:
        ranked = "capacity-optimized-prioritized" if args.fallback_types else "price-capacity-optimized"
        distribution["spot_allocation_strategy"] = ranked
    else:
        distribution["on_demand_allocation_strategy"] = "prioritized"
    settings: dict = {
        "mixed_instances_policy": {
            "instances_distribution": distribution,
            "launch_template": {
                "launch_template_specification": {"launch_template_id": template_id, "version": "$Latest"},
                "overrides": listed,
            },
        },
        "capacity_rebalance": spot and spot_pools(len(listed), subnets=subnets) > 1,
        "instance_refresh": refresh,
    }
    first = {"capacity_reservation_preference": "capacity-reservations-first"}
    if not spot and args.reservation is None:
        # EC2 Auto Scaling "Use On-Demand Capacity Reservations": open reservations first.
        settings["capacity_reservation_specification"] = first
    elif not spot and args.reservation is not None and args.fallback_types:
        held = args.reservation
        key = "capacity_reservation_resource_group_arns" if held.is_group_arn else "capacity_reservation_ids"
        settings["capacity_reservation_specification"] = {**first, "capacity_reservation_target": {key: [held.id]}}
    return settings


def overrides(args: ClusterConfig, own_templates: dict[str, pulumi.Input[str]]) -> list[dict]:
    """The launch-template overrides in rank order: `instance_type`, then each fallback type,
    with its own template where it has one."""
    listed = []
    for instance_type in (args.instance_type, *args.fallback_types):
        override: dict = {"instance_type": instance_type}
        if instance_type in own_templates:
            override["launch_template_specification"] = {
                "launch_template_id": own_templates[instance_type],
                "version": "$Latest",
            }
        listed.append(override)
    return listed


def split_at_block(args: ClusterConfig) -> tuple[ClusterConfig, ClusterConfig | None]:
    """(the node group's config, the Capacity Block group's config or None). With `block_nodes`
    the node group holds the other `nodes - block_nodes` nodes as `purchase`, with no reservation
    (a block group takes no mixed instances policy: EC2 Auto Scaling, "Use Capacity Blocks for ML
    workloads"), and the block group `block_nodes` nodes of `instance_type` in the block,
    on-demand, one type in one zone; without, the cluster as it is and None."""
    if args.block_nodes is None:
        return args, None
    group = args.model_copy(update={"reservation": None, "block_nodes": None, "nodes": args.nodes - args.block_nodes})
    block = args.model_copy(
        update={
            "nodes": args.block_nodes,
            "block_nodes": None,
            "purchase": "on-demand",
            "fallback_types": (),
            "fallback_zones": (),
            "on_demand_nodes": None,
            "on_demand_after_minutes": None,
        }
    )
    return group, block


def create_node_group(
    name: str,
    args: ClusterConfig,
    template: aws.ec2.LaunchTemplate,
    placement_group: pulumi.Input[str] | None,
    subnet_id: pulumi.Input[str],
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
    own_templates: dict[str, pulumi.Input[str]] | None = None,
    zone_subnets: list[pulumi.Input[str]] | None = None,
    child_name: str | None = None,
) -> aws.autoscaling.Group:
    """Create the node group `{name}-nodes`: exactly `args.nodes` nodes, replaced when lost;
    `pulumi up` does not wait for them (`WAIT_FOR_CAPACITY`).

    Args:
        name: the cluster name.
        args: the cluster config (`nodes`, `purchase`).
        template: the node launch template.
        placement_group: name of the nodes' cluster placement group (the cluster's own, or
            the existing one a reservation was made in); None for a group over several zones.
        subnet_id: the cluster's subnet (its zone).
        tags: tags propagated to every node at launch (a tag change never touches running nodes).
        opts: child options.
        own_templates: fallback type -> its own launch template id (`group_capacity`).
        zone_subnets: the subnets of `args.fallback_zones`, in order (the group launches in
            any of its subnets, EC2 Auto Scaling balancing them).
        child_name: the group's name (`{name}-nodes` when None; a Capacity Block's own group
            beside the mixed one is `{name}-nodes-block`, `components.aws.cluster`).
    """
    subnets = [subnet_id, *(zone_subnets or [])]
    return aws.autoscaling.Group(
        child_name or f"{name}-nodes",
        min_size=args.nodes,
        max_size=args.nodes,
        desired_capacity=args.nodes,
        vpc_zone_identifiers=subnets,
        placement_group=placement_group,
        health_check_type="EC2",
        health_check_grace_period=HEALTH_CHECK_GRACE_SECONDS,
        wait_for_capacity_timeout=WAIT_FOR_CAPACITY,
        tags=[{"key": k, "value": v, "propagate_at_launch": True} for k, v in tags.items()],
        **group_capacity(args, template.id, own_templates, subnets=len(subnets)),
        opts=opts,
    )


def create_on_demand_group(
    name: str,
    args: ClusterConfig,
    template: aws.ec2.LaunchTemplate,
    placement_group: pulumi.Input[str] | None,
    subnet_id: pulumi.Input[str],
    tags: dict[str, str],
    opts: pulumi.ResourceOptions,
    own_templates: dict[str, pulumi.Input[str]] | None = None,
    zone_subnets: list[pulumi.Input[str]] | None = None,
) -> aws.autoscaling.Group:
    """Create `{name}-nodes-on-demand`: the spot cluster's on-demand side, empty until the head
    node's watcher (`nodeagent.fill`) sizes it to the spot group's shortfall.

    The same types in the same order, launch templates, subnet and placement group as the spot
    group, bought on-demand (`prioritized`, open capacity reservations first); tagged
    `trainstack:fill = on-demand` (how the watcher tells it from the spot group and what the
    node role may resize). Its size is the watcher's: `pulumi up` ignores it after creation.
    """
    on_demand = args.model_copy(update={"purchase": "on-demand", "on_demand_after_minutes": None})
    settings = group_capacity(on_demand, template.id, own_templates)
    settings.pop("instance_refresh")  # an empty group has nothing to roll
    return aws.autoscaling.Group(
        f"{name}-nodes-on-demand",
        min_size=0,
        max_size=args.nodes,
        desired_capacity=0,
        vpc_zone_identifiers=[subnet_id, *(zone_subnets or [])],
        placement_group=placement_group,
        health_check_type="EC2",
        health_check_grace_period=HEALTH_CHECK_GRACE_SECONDS,
        wait_for_capacity_timeout=WAIT_FOR_CAPACITY,
        tags=[{"key": k, "value": v, "propagate_at_launch": True} for k, v in {**tags, FILL_TAG: "on-demand"}.items()],
        **settings,
        opts=pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(ignore_changes=["desiredCapacity"])),
    )


def fill_policy(name: str, tags: dict[str, str]) -> str:
    """The node role's inline policy for the watcher: read every group (DescribeAutoScalingGroups
    takes no resource), resize only this cluster's on-demand group (by its tags)."""
    return json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [
                {"Effect": "Allow", "Action": "autoscaling:DescribeAutoScalingGroups", "Resource": "*"},
                {
                    "Effect": "Allow",
                    "Action": "autoscaling:SetDesiredCapacity",
                    "Resource": "*",
                    "Condition": {
                        "StringEquals": {
                            f"autoscaling:ResourceTag/{FILL_TAG}": "on-demand",
                            f"autoscaling:ResourceTag/{CLUSTER_TAG}": tags.get(CLUSTER_TAG, name),
                        }
                    },
                },
            ],
        }
    )
