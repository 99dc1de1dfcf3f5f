"""The AWS node group under mocks: size kept, placement, zone, market, rebalancing, no rolling."""

import base64
import json

import pulumi
import pytest

from components.aws.cluster import AwsGpuCluster
from components.aws.nodes import HEAD_INSTANCE_TYPE, group_capacity

JOB = {"command": "/fsx/code/train.py --epochs 3", "env": {"WANDB_MODE": "offline"}}


@pulumi.runtime.test
def test_group_keeps_the_size_in_the_placement_group_and_the_one_subnet(mocks, make_config):
    cluster = AwsGpuCluster("c", make_config(nodes=3))
    group = cluster.node_group

    def check(args):
        sizes, subnets, pg, placement_name, subnet_id, health = args
        assert sizes == [3, 3, 3]
        assert subnets == [subnet_id] and pg == placement_name
        assert health == "EC2"

    return pulumi.Output.all(
        pulumi.Output.all(group.min_size, group.max_size, group.desired_capacity),
        group.vpc_zone_identifiers,
        group.placement_group,
        cluster.placement.name,
        cluster.subnet.id,
        group.health_check_type,
    ).apply(check)


@pytest.mark.parametrize(
    ("purchase", "on_demand", "strategy", "rebalance"),
    [
        # one type in one subnet: one spot pool, so no capacity rebalancing (advice only)
        pytest.param("spot", 0, "price-capacity-optimized", False, id="spot"),
        pytest.param("on-demand", 100, None, False, id="on-demand"),
    ],
)
@pulumi.runtime.test
def test_group_market_over_the_efa_template(mocks, make_config, purchase, on_demand, strategy, rebalance):
    cluster = AwsGpuCluster("c", make_config(purchase=purchase))
    group = cluster.node_group

    def check(args):
        policy, capacity_rebalance, template, lt_id, market, nics = args
        distribution = policy["instances_distribution"]
        assert distribution["on_demand_base_capacity"] == 0
        assert distribution["on_demand_percentage_above_base_capacity"] == on_demand
        assert distribution.get("spot_allocation_strategy") == strategy
        spec = policy["launch_template"]["launch_template_specification"]
        assert (spec["launch_template_id"], spec["version"]) == (lt_id, "$Latest")
        assert policy["launch_template"]["overrides"] == [{"instance_type": "p4d.24xlarge"}]
        assert capacity_rebalance is rebalance and template is None and market is None
        assert len(nics) == 4 and {n["interface_type"] for n in nics} == {"efa"}

    return pulumi.Output.all(
        group.mixed_instances_policy,
        group.capacity_rebalance,
        group.launch_template,
        cluster.launch_template.id,
        cluster.launch_template.instance_market_options,
        cluster.launch_template.network_interfaces,
    ).apply(check)


@pytest.mark.parametrize(
    ("types", "subnets", "pools"),
    [pytest.param(1, 1, 1, id="one-pool"), pytest.param(2, 1, 2, id="two-types"), pytest.param(3, 2, 6, id="3x2")],
)
def test_spot_pools_are_types_times_zones(types, subnets, pools):
    from components.aws.nodes import spot_pools

    assert spot_pools(types, subnets) == pools


def test_only_type_or_purchase_change_the_group_so_template_changes_roll_nothing():
    """`$Latest`, not a pinned version: a new template version leaves the group's inputs alone;
    a new instance type or purchase changes them (and the instance refresh rolls the nodes)."""
    from clouds.contract import ClusterConfig

    base = dict(
        provider="aws", region="us-east-1", zone="use1-az4", accelerator="A100", accelerator_count=8, nodes=2, hours=1
    )
    p4d = group_capacity(ClusterConfig(purchase="spot", instance_type="p4d.24xlarge", **base), "lt-1")
    assert p4d == group_capacity(ClusterConfig(purchase="spot", instance_type="p4d.24xlarge", **base), "lt-1")
    assert p4d != group_capacity(ClusterConfig(purchase="spot", instance_type="p5.48xlarge", **base), "lt-1")
    assert p4d != group_capacity(ClusterConfig(purchase="on-demand", instance_type="p4d.24xlarge", **base), "lt-1")
    assert p4d["instance_refresh"]["strategy"] == "Rolling" and "$Latest" in str(p4d)


@pulumi.runtime.test
def test_tags_propagate_at_launch(mocks, make_config):
    cluster = AwsGpuCluster("c", make_config())

    def check(tags):
        assert {t["key"]: t["value"] for t in tags}["trainstack:cluster"] == "c"
        assert all(t["propagate_at_launch"] is True for t in tags)

    return cluster.node_group.tags.apply(check)


@pulumi.runtime.test
def test_without_a_job_no_head_node_and_no_agent(mocks, make_config):
    cluster = AwsGpuCluster("c", make_config(file_system={"capacity_gib": 1200}))
    assert cluster.head_node is None
    return cluster.launch_template.user_data.apply(lambda b64: _no_agent(base64.b64decode(b64).decode()))


def _no_agent(text):
    # no job: neither the agent's job unit nor its bundle; the /scratch unit runs on every node
    assert "trainstack-job.service" not in text.replace("Before=trainstack-job.service", "")
    assert "nodeagent run" not in text and "/fsx" in text
    assert "systemctl enable --now trainstack-scratch.service" in text


@pulumi.runtime.test
def test_job_runs_on_every_node_with_the_rendezvous_on_an_on_demand_head(mocks, make_config):
    cluster = AwsGpuCluster("c", make_config(purchase="spot", file_system={"capacity_gib": 1200}, job=JOB))
    head = cluster.head_node

    def check(args):
        worker_b64, head_b64, head_ip, head_type, market, metadata, root = args
        worker, head_text = base64.b64decode(worker_b64).decode(), base64.b64decode(head_b64).decode()
        assert len(worker.encode()) <= 16 * 1024  # EC2's user-data limit
        assert "trainstack-job.service" in worker and "-m nodeagent run /etc/trainstack/job.json" in worker
        assert f'"rdzv_host": "{head_ip}"' in worker and '"cloud": "aws"' in worker
        assert '"command": ["/fsx/code/train.py", "--epochs", "3"]' in worker
        assert '"min_nodes": 2' in worker and '"max_nodes": 2' in worker and '"nproc_per_node": 8' in worker
        assert '"checkpoint_dir": "/fsx/checkpoints/c"' in worker and "export FI_PROVIDER=efa" in worker
        assert "trainstack-rendezvous.service" in head_text
        assert "nodeagent store 29400 /fsx/trainstack/rendezvous/c" in head_text  # announces itself
        assert '"rdzv_file": "/fsx/trainstack/rendezvous/c"' in worker
        assert "FI_PROVIDER" not in head_text
        assert head_type == HEAD_INSTANCE_TYPE and market is None  # never spot
        assert metadata["http_tokens"] == "required" and root["encrypted"] is True
        assert metadata["http_put_response_hop_limit"] == 1  # the head: no container

    return pulumi.Output.all(
        cluster.launch_template.user_data,
        head.user_data_base64,
        cluster.head_interface.private_ip,
        head.instance_type,
        head.instance_market_options,
        head.metadata_options,
        head.root_block_device,
    ).apply(check)


@pytest.mark.parametrize(
    ("job", "message"),
    [
        pytest.param({"command": "train.py", "script": "/fsx/run.sh"}, "exactly one of command", id="both"),
        pytest.param({"script": "run.sh"}, "not an absolute path", id="relative-script"),
        pytest.param({"command": "t.py", "min_nodes": 5}, "job.min_nodes: 5 is more than nodes", id="min-over-nodes"),
    ],
)
def test_bad_job_refused_with_the_field(make_config, job, message):
    with pytest.raises(ValueError, match=message):
        make_config(file_system={"capacity_gib": 1200}, job=job)


def test_job_needs_a_file_system(make_config):
    with pytest.raises(ValueError, match="job: needs a file_system"):
        make_config(file_system=None, job=JOB)


@pulumi.runtime.test
def test_the_head_keeps_its_address_in_an_eni_when_replaced(mocks, make_config):
    """The rendezvous endpoint is the head ENI's private IP: the ENI sits in the nodes' subnet
    and security group, the instance launches with it as its primary interface, and a
    replacement terminates the old instance first to free it."""
    cluster = AwsGpuCluster("c", make_config(file_system={"capacity_gib": 1200}, job=JOB))
    eni, head = cluster.head_interface, cluster.head_node

    def check(args):
        eni_id, subnet, groups, primary, eni_ip, worker_b64 = args
        assert primary["network_interface_id"] == eni_id
        assert subnet == "c-subnet-id" and groups == ["c-sg-id"]
        assert f'"rdzv_host": "{eni_ip}"' in base64.b64decode(worker_b64).decode()

    return pulumi.Output.all(
        eni.id,
        eni.subnet_id,
        eni.security_groups,
        head.primary_network_interface,
        eni.private_ip,
        cluster.launch_template.user_data,
    ).apply(check)


@pytest.mark.parametrize(
    ("purchase", "strategy_key", "strategy"),
    [
        pytest.param("spot", "spot_allocation_strategy", "capacity-optimized-prioritized", id="spot"),
        pytest.param("on-demand", "on_demand_allocation_strategy", "prioritized", id="on-demand"),
    ],
)
@pulumi.runtime.test
def test_fallback_types_in_rank_order_with_their_own_template_where_efa_differs(
    mocks, make_config, purchase, strategy_key, strategy
):
    """H100 then two H200 types: p5e.48xlarge has p5's 32 EFA interfaces (the main template),
    p5en.48xlarge 16 (its own template, 16 NICs, its own instance type)."""
    config = make_config(
        purchase=purchase,
        instance_type="p5.48xlarge",
        accelerator="H100",
        fallback_types=["p5e.48xlarge", "p5en.48xlarge"],
    )
    cluster = AwsGpuCluster("c", config)
    assert list(cluster.fallback_templates) == ["p5en.48xlarge"]
    own = cluster.fallback_templates["p5en.48xlarge"]

    def check(args):
        policy, wait, reservations, main_id, own_id, own_type, own_nics, main_nics, rebalance = args
        listed = policy["launch_template"]["overrides"]
        assert [o["instance_type"] for o in listed] == ["p5.48xlarge", "p5e.48xlarge", "p5en.48xlarge"]
        assert "launch_template_specification" not in listed[1]
        assert listed[2]["launch_template_specification"]["launch_template_id"] == own_id != main_id
        assert policy["instances_distribution"][strategy_key] == strategy
        assert wait == "0"
        expected = None if purchase == "spot" else {"capacity_reservation_preference": "capacity-reservations-first"}
        assert reservations == expected
        assert own_type == "p5en.48xlarge" and len(own_nics) == 16 and len(main_nics) == 32
        # three types in the subnet are three spot pools: capacity rebalancing for spot
        assert rebalance is (purchase == "spot")

    return pulumi.Output.all(
        cluster.node_group.mixed_instances_policy,
        cluster.node_group.wait_for_capacity_timeout,
        cluster.node_group.capacity_reservation_specification,
        cluster.launch_template.id,
        own.id,
        own.instance_type,
        own.network_interfaces,
        cluster.launch_template.network_interfaces,
        cluster.node_group.capacity_rebalance,
    ).apply(check)


@pytest.mark.parametrize(
    ("fallbacks", "message"),
    [
        pytest.param(["p3.16xlarge"], "p3.16xlarge cannot share the node group with p4d.24xlarge", id="efa-class"),
        pytest.param(["p4d.24xlarge"], "without instance_type", id="itself"),
        pytest.param(["p4de.24xlarge", "p4de.24xlarge"], "list each type once", id="twice"),
    ],
)
def test_fallback_types_refused_with_the_field(make_config, fallbacks, message):
    with pytest.raises(ValueError, match=message):
        make_config(fallback_types=fallbacks)


@pulumi.runtime.test
def test_one_type_keeps_price_capacity_optimized_and_never_waits(mocks, make_config):
    cluster = AwsGpuCluster("c", make_config(purchase="spot"))

    def check(args):
        policy, wait = args
        assert policy["instances_distribution"]["spot_allocation_strategy"] == "price-capacity-optimized"
        assert wait == "0"

    return pulumi.Output.all(
        cluster.node_group.mixed_instances_policy, cluster.node_group.wait_for_capacity_timeout
    ).apply(check)


@pulumi.runtime.test
def test_spot_with_an_on_demand_fallback_plans_the_empty_on_demand_group_and_the_heads_watcher(mocks, make_config):
    config = make_config(
        purchase="spot",
        file_system={"capacity_gib": 1200},
        job=JOB,
        on_demand_after_minutes=30,
        fallback_types=["p4de.24xlarge"],
    )
    cluster = AwsGpuCluster("c", config)
    group = cluster.on_demand_group

    def check(args):
        sizes, policy, tags, head_b64, role_policy, ignored = args
        assert sizes == [0, 2, 0]  # min, max = the cluster's nodes, desired: the watcher's
        distribution = policy["instances_distribution"]
        assert distribution["on_demand_percentage_above_base_capacity"] == 100
        assert distribution["on_demand_allocation_strategy"] == "prioritized"
        types = [o["instance_type"] for o in policy["launch_template"]["overrides"]]
        assert types == ["p4d.24xlarge", "p4de.24xlarge"]
        assert {t["key"]: t["value"] for t in tags}["trainstack:fill"] == "on-demand"
        head = base64.b64decode(head_b64).decode()
        assert "trainstack-fill.service" in head and '"after_seconds": 1800' in head and '"cluster": "c"' in head
        statement = json.loads(role_policy)["Statement"][1]
        assert statement["Action"] == "autoscaling:SetDesiredCapacity"
        assert statement["Condition"]["StringEquals"]["autoscaling:ResourceTag/trainstack:fill"] == "on-demand"

    return pulumi.Output.all(
        pulumi.Output.all(group.min_size, group.max_size, group.desired_capacity),
        group.mixed_instances_policy,
        group.tags,
        cluster.head_node.user_data_base64,
        cluster.fill_policy.policy,
        pulumi.Output.from_input(None),
    ).apply(check)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        pytest.param({"purchase": "on-demand"}, "only a spot cluster falls back", id="on-demand"),
        pytest.param({"purchase": "spot", "job": None}, "runs on the job's head node", id="no-job"),
    ],
)
def test_an_on_demand_fallback_refused_in_one_line(make_config, overrides, message):
    base = {"file_system": {"capacity_gib": 1200}, "job": JOB, "on_demand_after_minutes": 30}
    with pytest.raises(ValueError, match=message):
        make_config(**{**base, **overrides})


def test_a_spot_cluster_without_the_fallback_has_no_on_demand_side(mocks, make_config):
    cluster = AwsGpuCluster("c", make_config(purchase="spot"))
    assert cluster.on_demand_group is None and cluster.fill_policy is None
