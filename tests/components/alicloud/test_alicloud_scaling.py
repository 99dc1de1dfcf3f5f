"""The Alibaba node group's pure arguments (`components.alicloud.scaling`), checked against
the installed pulumi-alicloud SDK."""

from __future__ import annotations

import inspect

import pulumi_alicloud as alicloud
import pytest

from components.alicloud.scaling import NOT_CARRIED, SAME_MEANING, configuration_args, group_args
from tests.components.alicloud.alicloud_harness import make_config

CONFIG_PARAMS = set(inspect.signature(alicloud.ess.ScalingConfigurationArgs.__init__).parameters)
INTERFACE_PARAMS = set(inspect.signature(alicloud.ess.ScalingConfigurationNetworkInterfaceArgs.__init__).parameters)
GROUP_PARAMS = set(inspect.signature(alicloud.ess.ScalingGroupArgs.__init__).parameters)


def _node(**changes):
    from components.alicloud.profile import node_args

    network = {"vswitch_id": "vsw-1", "security_group_id": "sg-1"}
    return node_args("c", make_config(**changes), network, "img-1", {"key_name": "c-key"}, {"k": "v"})


def test_every_carried_argument_is_a_configuration_input():
    assert set(SAME_MEANING.values()) <= CONFIG_PARAMS
    assert {"network_interfaces", "security_group_ids"} <= CONFIG_PARAMS
    assert {"instance_type", "network_interface_traffic_mode", "security_group_ids"} <= INTERFACE_PARAMS


@pytest.mark.parametrize(
    ("argument", "params"),
    [
        pytest.param("deployment_set_id", CONFIG_PARAMS | GROUP_PARAMS, id="deployment-set"),
        pytest.param("network_card_index", INTERFACE_PARAMS | CONFIG_PARAMS, id="nic-index"),
        pytest.param("spot_interruption_behavior", CONFIG_PARAMS, id="interruption"),
        pytest.param("volume_tags", CONFIG_PARAMS, id="disk-tags"),
    ],
)
def test_what_is_not_carried_really_has_no_input(argument, params):
    assert argument in NOT_CARRIED
    assert argument not in params


def test_spot_two_eri_node_becomes_this_configuration():
    assert configuration_args(_node(purchase="spot")) == {
        "image_id": "img-1",
        "instance_type": "ecs.ebmgn7ex.32xlarge",
        "internet_max_bandwidth_out": 0,
        "system_disk_category": "cloud_essd",
        "system_disk_size": 256,
        "system_disk_encrypted": True,
        "spot_strategy": "SpotAsPriceGo",
        "spot_duration": 1,
        "key_name": "c-key",
        "tags": {"k": "v"},
        "network_interfaces": [
            {
                "instance_type": "Primary",
                "network_interface_traffic_mode": "HighPerformance",
                "security_group_ids": ["sg-1"],
            },
            {
                "instance_type": "Secondary",
                "network_interface_traffic_mode": "HighPerformance",
                "security_group_ids": ["sg-1"],
            },
        ],
    }


def test_plain_node_gets_security_group_ids_and_a_ram_role_and_user_data_are_carried():
    node = {**_node(instance_type="ecs.gn7e-c16g1.32xlarge", interconnect="none"), "role_name": "r", "user_data": "u"}
    config = configuration_args(node)
    assert config["security_group_ids"] == ["sg-1"] and "network_interfaces" not in config
    assert (config["role_name"], config["user_data"], config["spot_strategy"]) == ("r", "u", "NoSpot")


def test_a_node_argument_without_a_counterpart_is_refused():
    with pytest.raises(
        ValueError,
        match="node arguments hpc_cluster_id, ipv6_address_count have no scaling-configuration counterpart in components.alicloud.scaling",
    ):
        configuration_args({**_node(), "hpc_cluster_id": "hpc-1", "ipv6_address_count": 1})


@pytest.mark.parametrize(
    ("purchase", "remedy"), [pytest.param("spot", True, id="spot"), pytest.param("on-demand", False, id="on-demand")]
)
def test_group_keeps_its_size_and_remedies_only_spot(purchase, remedy):
    args = group_args("c", 4, purchase, "vsw-1", {"k": "v"})
    assert set(args) <= GROUP_PARAMS
    assert (args["min_size"], args["max_size"], args["desired_capacity"]) == (4, 4, 4)
    assert (args["vswitch_ids"], args["health_check_types"], args["spot_instance_remedy"]) == (
        ["vsw-1"],
        ["ECS"],
        remedy,
    )


@pytest.mark.parametrize("nodes", [0, 2001])
def test_group_size_outside_the_ess_range_is_refused(nodes):
    with pytest.raises(ValueError, match=f"nodes: {nodes} is outside 1-2000"):
        group_args("c", nodes, "spot", "vsw-1", {})
