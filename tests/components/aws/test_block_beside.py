"""A Capacity Block beside a mixed group (`block_nodes`): an Auto Scaling group on a block takes
no mixed instances policy (EC2 Auto Scaling, "Use Capacity Blocks for ML workloads"), so the
block's nodes get a group of their own (`{name}-nodes-block`, from a template with the block's
id and market type `capacity-block`) and the rest run beside it in the node group as spot or
on-demand with fallback types; what is refused, each in one line with its fix."""

from __future__ import annotations

import pulumi
import pytest

from clouds.contract import ClusterConfig
from components.aws.cluster import AwsGpuCluster
from profiles.stack.file import ConfigError, validate_cluster
from profiles.stack.price import price_stack
from tests.clusters import BASE_CLUSTER

CR = "cr-0123456789abcdef0"
BLOCK = {"kind": "capacity-block", "id": CR, "nodes": 2, "ends": "2026-12-17T11:30:00Z"}
MIXED = {**BASE_CLUSTER, "nodes": 4, "fallback_types": ["p4de.24xlarge"], "reservation": BLOCK, "block_nodes": 2}


@pulumi.runtime.test
def test_the_block_gets_its_own_group_and_the_rest_run_spot_beside_it(mocks):
    cluster = AwsGpuCluster("c", ClusterConfig.model_validate(MIXED))
    assert cluster.block_group is not None and cluster.block_template is not None and cluster.block_end is not None
    mixed, block, lt, block_lt = (
        cluster.node_group,
        cluster.block_group,
        cluster.launch_template,
        cluster.block_template,
    )

    def check(args):
        (sizes, policy, mixed_template, block_sizes, block_policy, block_template, block_lt_id) = args[:7]
        (market, target, block_market, block_target, end_group, block_name, pg, block_pg, node_ids) = args[7:]
        assert sizes == [2, 2, 2] and mixed_template is None  # the other 4 - 2 nodes
        assert policy["instances_distribution"]["on_demand_percentage_above_base_capacity"] == 0
        assert policy["instances_distribution"]["spot_allocation_strategy"] == "capacity-optimized-prioritized"
        assert [o["instance_type"] for o in policy["launch_template"]["overrides"]] == ["p4d.24xlarge", "p4de.24xlarge"]
        assert market is None and target is None  # the mixed group's template holds no reservation
        assert block_sizes == [2, 2, 2] and block_policy is None
        assert block_template == {"id": block_lt_id, "version": "$Latest"}
        assert block_market == {"market_type": "capacity-block"}
        assert block_target == {"capacity_reservation_target": {"capacity_reservation_id": CR}}
        assert end_group == block_name  # the block's scale-in before it ends takes only its own group
        assert pg == block_pg and pg is not None  # one placement group, one fabric
        assert len(node_ids) == 2 and node_ids[1] == block_name  # both groups are the cluster's nodes

    return pulumi.Output.all(
        pulumi.Output.all(mixed.min_size, mixed.max_size, mixed.desired_capacity),
        mixed.mixed_instances_policy,
        mixed.launch_template,
        pulumi.Output.all(block.min_size, block.max_size, block.desired_capacity),
        block.mixed_instances_policy,
        block.launch_template,
        block_lt.id,
        lt.instance_market_options,
        lt.capacity_reservation_specification,
        block_lt.instance_market_options,
        block_lt.capacity_reservation_specification,
        cluster.block_end.autoscaling_group_name,
        block.name,
        mixed.placement_group,
        block.placement_group,
        cluster.node_ids,
    ).apply(check)


def test_without_block_nodes_one_group_runs_in_the_block(mocks):
    on_demand = {**BASE_CLUSTER, "purchase": "on-demand", "reservation": BLOCK}
    cluster = AwsGpuCluster("c", ClusterConfig.model_validate(on_demand))
    assert cluster.block_group is None and cluster.block_template is None


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        pytest.param(
            {"reservation": {"id": CR}},
            "block_nodes: only a Capacity Block gets a node group of its own beside the mixed one; set reservation: "
            "{kind: capacity-block, id: cr-...} or remove block_nodes",
            id="not-a-block",
        ),
        pytest.param(
            {"block_nodes": 4},
            "block_nodes: 4 of 4 nodes leaves none for the group beside the block; set block_nodes below nodes, or "
            "remove it to run every node in the block",
            id="no-node-left-beside",
        ),
        pytest.param(
            {"block_nodes": 3},
            "block_nodes: 3 is more than the 2 instances the block holds (reservation.nodes); set block_nodes: 2 or less",
            id="more-than-the-block-holds",
        ),
        pytest.param(
            {"block_nodes": None, "fallback_types": []},
            "reservation: a Capacity Block for ML launches with market type capacity-block, never spot; set purchase: "
            "on-demand or remove reservation; or block_nodes: N to run N nodes in the block and the rest as spot beside it",
            id="spot-into-a-block-names-the-fix",
        ),
        pytest.param(
            {"block_nodes": None, "fallback_types": [], "purchase": "on-demand"},
            "nodes: 4 is more than the 2 instances Capacity Block for ML cr-0123456789abcdef0 holds (reservation.nodes); "
            "set nodes: 2 or less, or hold a larger reservation, or block_nodes: 2 to run the rest beside the block",
            id="more-nodes-than-the-block-names-the-fix",
        ),
    ],
)
def test_what_cannot_be_split_is_refused_in_one_line(changes: dict, message: str) -> None:
    with pytest.raises(ConfigError) as raised:  # the model, then the AWS component's own checks
        validate_cluster({**MIXED, **changes}, "us-east-1", "c")
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_the_split_stack_passes_every_check() -> None:
    assert validate_cluster(MIXED, "us-east-1", "c").block_nodes == 2


def test_plan_says_the_stacks_price_covers_the_block_and_the_nodes_beside_it() -> None:
    price = price_stack(ClusterConfig.model_validate(MIXED), (), "fixture-1")
    assert price.note.startswith(
        f"held Capacity Block {CR} for 2 of 4 nodes, 2 spot beside it: compute at the stack's own $20.50/hour"
    )
