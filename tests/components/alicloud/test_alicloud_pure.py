"""Pure helpers of the Alibaba component: no Pulumi engine involved."""

from __future__ import annotations

import re

import pytest

from clouds.alicloud.cpfs import cpfs_sizing
from clouds.alicloud.facts import erdma_families, eri_interfaces, family_of, gpu_family
from clouds.alicloud.placement import placement_for, placement_warning
from clouds.alicloud.validate import check_tags
from clouds.contract import FileSystemConfig
from components.alicloud.profile import eri_settings, host_name
from components.alicloud.purchase import charge_settings
from components.alicloud.security import ingress_rules
from tests.cases import cases


@pytest.mark.parametrize(
    ("purchase", "deployment_set", "strategy", "max_nodes"),
    [
        pytest.param("on-demand", False, None, 2000, id="on-demand"),
        pytest.param("spot", False, None, 2000, id="spot"),
    ],
)
def test_placement_for_purchase(purchase, deployment_set, strategy, max_nodes):
    placement = placement_for(purchase)
    assert (placement.deployment_set, placement.strategy, placement.max_nodes) == (deployment_set, strategy, max_nodes)


def test_placement_reason_states_the_spot_rule_and_the_group_gap():
    assert "spot instances cannot join a deployment set" in placement_for("spot").reason
    assert "spot instances" not in placement_for("on-demand").reason
    assert "take no deployment set" in placement_for("on-demand").reason
    with pytest.raises(ValueError, match="purchase: 'reserved' is not known"):
        placement_for("reserved")


@pytest.mark.parametrize(
    ("purchase", "nodes", "warned"),
    [("on-demand", 1, False), ("spot", 1, False), ("on-demand", 2, True), ("spot", 24, True)],
)
def test_the_deployment_set_warning_is_only_for_clusters_of_several_nodes(purchase, nodes, warned):
    warning = placement_warning(purchase, nodes)
    assert (warning == placement_for(purchase).reason) is warned and (warning is None) is not warned


def test_placement_module_needs_no_pulumi():
    import subprocess
    import sys

    code = "import sys, clouds.alicloud.placement; assert 'pulumi' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize(
    ("instance_type", "family", "eris"),
    [
        pytest.param("ecs.gn7e-c16g1.32xlarge", "gn7e", 0, id="gn7e"),
        pytest.param("ecs.gn7i-c8g1.2xlarge", "gn7i", 0, id="gn7i"),
        pytest.param("ecs.ebmgn7ex.32xlarge", "ebmgn7ex", 2, id="ebmgn7ex"),
        pytest.param("ecs.gn8is-8x.32xlarge", "gn8is", 1, id="gn8is"),
        pytest.param("gn7e-c16g1.32xlarge", "gn7e", 0, id="no-ecs-prefix"),
    ],
)
def test_family_and_eri_count(instance_type, family, eris):
    assert family_of(instance_type) == family
    assert eri_interfaces(instance_type) == eris


def test_unknown_and_unprefixed_types_have_no_family():
    assert gpu_family("ecs.g7.large") is None
    assert gpu_family("gn7e-c16g1.32xlarge") is None
    assert erdma_families() == ["gn8is", "ebmgn7ex"]


def test_eri_settings_two_nics_for_ebmgn7ex_and_none_without_rdma():
    two = eri_settings("ecs.ebmgn7ex.32xlarge", "rdma", "vsw-1", "sg-1")
    assert two == {
        "network_interface_traffic_mode": "HighPerformance",
        "network_card_index": 0,
        "network_interfaces": {
            "network_card_index": 1,
            "network_interface_traffic_mode": "HighPerformance",
            "vswitch_id": "vsw-1",
            "security_group_ids": ["sg-1"],
        },
    }
    assert eri_settings("ecs.ebmgn7ex.32xlarge", "none", "vsw-1", "sg-1") == {}
    assert eri_settings("ecs.gn7e-c16g1.32xlarge", "rdma", "vsw-1", "sg-1") == {}


@pytest.mark.parametrize(
    ("purchase", "expected"),
    [
        pytest.param(
            "spot",
            {
                "instance_charge_type": "PostPaid",
                "spot_strategy": "SpotAsPriceGo",
                "spot_duration": 1,
                "spot_interruption_behavior": "Terminate",
            },
            id="spot",
        ),
        pytest.param("on-demand", {"instance_charge_type": "PostPaid", "spot_strategy": "NoSpot"}, id="on-demand"),
    ],
)
def test_charge_settings(purchase, expected):
    assert charge_settings(purchase) == expected


@pytest.mark.parametrize(
    ("throughput", "capacity", "storage_type"),
    [
        pytest.param(100, 3600, "advance_100", id="100-advance_100"),
        pytest.param(200, 3600, "advance_200", id="200-advance_200"),
        pytest.param(200, 50_000, "advance_200", id="capacity-passed-through"),
        pytest.param(100, 1024 * 1024, "advance_100", id="1pib-the-largest"),
    ],
)
def test_cpfs_storage_type_by_throughput(throughput, capacity, storage_type):
    sizing = cpfs_sizing(FileSystemConfig(capacity_gib=capacity, throughput_mbps_per_tib=throughput))
    assert sizing == ("cpfs", "cpfs", storage_type, capacity, throughput)


@pytest.mark.parametrize(
    ("config", "message"),
    [
        pytest.param(
            {"throughput_mbps_per_tib": 250},
            "valid values (MB/s per TiB): 100 (advance_100), 200 (advance_200)",
            id="250",
        ),
        pytest.param({"deployment_type": "bmcpfs"}, "cannot be created through the API", id="lingjun"),
        pytest.param({"deployment_type": "extreme"}, "NAS Extreme has no sourced throughput", id="extreme"),
        pytest.param(
            {"capacity_gib": 9_536_743},
            "9536743 GiB exceeds CPFS's 1 PiB per file system (1048576 GiB); ask for 1048576 or less",
            id="10pb-over-the-1pib-limit",
        ),
    ],
)
def test_cpfs_rejects_unsourced_or_uncreatable_choices(config, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        cpfs_sizing(FileSystemConfig(**{"capacity_gib": 3600, "throughput_mbps_per_tib": 100, **config}))


def test_ingress_rules_vpc_then_ssh_per_cidr():
    rules = ingress_rules(("203.0.113.0/24",))
    assert [(r["suffix"], r["cidr_ip"], r["port_range"]) for r in rules] == [
        ("vpc", "10.0.0.0/16", "-1/-1"),
        ("ssh-0", "203.0.113.0/24", "22/22"),
    ]
    assert [r["suffix"] for r in ingress_rules(())] == ["vpc"]


def test_host_name_is_linux_safe():
    assert host_name("Train_A800", 3) == "train-a800-3"
    assert len(host_name("x" * 100, 12)) == 64


@pytest.mark.parametrize(("tags", "message"), cases("alicloud_tag_refusals.yaml", "tags", "message"))
def test_check_tags_rejects_reserved_and_long(tags, message):
    with pytest.raises(ValueError, match=message):
        check_tags(tags)
    check_tags({"trainstack:cluster": "c", "team": ""})  # `:` and empty values are allowed
