"""Pure helpers of the Huawei Cloud component: no Pulumi engine involved."""

from __future__ import annotations

import pytest

from clouds.huaweicloud.facts import flavor_family, is_modelarts_flavor
from clouds.huaweicloud.sfs import HPC_BANDWIDTH_TIERS, round_size_gib, turbo_sizing
from clouds.huaweicloud.tags import check_tags, huawei_tags, sanitize_key, sanitize_value
from clouds.huaweicloud.validate import validate_args
from components.huaweicloud.purchase import charging_args
from components.huaweicloud.security import FROM_NODE_GROUP, file_system_rules, node_rules
from components.huaweicloud.storage import split_export_location
from tests.cases import cases


@pytest.mark.parametrize(
    ("throughput", "capacity_gib", "tier", "size_gib"),
    cases("sfs_turbo_sizing.yaml", "throughput", "capacity_gib", "tier", "size_gib"),
)
def test_sfs_turbo_tier_and_size(throughput, capacity_gib, tier, size_gib):
    sizing = turbo_sizing(capacity_gib, throughput)
    got = (sizing.hpc_bandwidth, sizing.size_gib, sizing.mbps_per_tib)
    assert got == (tier, size_gib, throughput)
    assert sizing.size_gib >= capacity_gib
    # Every size is a whole number of 1.2 TiB steps, rounded down to GiB (sfs_turbo.md).
    steps = round(sizing.size_gib / 1228.8)
    assert sizing.size_gib == int(steps * 1228.8)


def test_sfs_turbo_bandwidth_is_tier_times_tib_with_150_floor():
    assert turbo_sizing(1, 20).bandwidth_mbps == 150  # 3.6 TiB x 20 = 72 -> floor 150
    assert turbo_sizing(4800, 250).bandwidth_mbps == 250 * 4915 // 1024


@pytest.mark.parametrize("throughput", [0, 100, 200, 400])
def test_invalid_throughput_lists_the_tiers(throughput):
    with pytest.raises(ValueError) as info:
        turbo_sizing(4800, throughput)
    message = str(info.value)
    assert message.startswith(f"file_system.throughput_mbps_per_tib: {throughput}")
    assert all(str(tier) in message for tier in HPC_BANDWIDTH_TIERS)


def test_size_limits():
    with pytest.raises(ValueError, match="capacity_gib: 0 must be > 0"):
        round_size_gib(0, 250)
    with pytest.raises(ValueError, match="above the SFS Turbo maximum of 1048576 GiB"):
        round_size_gib(1_048_576, 250)


def test_charging_args():
    assert charging_args("spot") == {"charging_mode": "spot"}
    assert charging_args("spot", 12.5) == {"charging_mode": "spot", "spot_maximum_price": "12.5"}
    assert charging_args("on-demand") == {"charging_mode": "postPaid"}
    with pytest.raises(ValueError, match="purchase: 'reserved'"):
        charging_args("reserved")
    with pytest.raises(ValueError, match="spot_maximum_price: 0"):
        charging_args("spot", 0)


def test_node_rules_never_open_ingress_to_the_world():
    rules = dict(node_rules(["203.0.113.0/24", "198.51.100.7/32"]))
    assert list(rules) == ["internal", "egress", "ssh-0", "ssh-1"]
    assert rules["internal"]["remote_group_id"] == FROM_NODE_GROUP
    assert rules["ssh-1"] == {
        "direction": "ingress",
        "ethertype": "IPv4",
        "description": "SSH from an allowed CIDR",
        "remote_ip_prefix": "198.51.100.7/32",
        "protocol": "tcp",
        "port_range_min": 22,
        "port_range_max": 22,
    }
    for rule in [*rules.values(), *dict(file_system_rules()).values()]:
        if rule["direction"] == "ingress":
            source = rule.get("remote_group_id") or rule.get("remote_ip_prefix")
            assert source not in (None, "", "0.0.0.0/0")
    assert [name for name, _ in node_rules(())] == ["internal", "egress"]


def test_tags_are_sanitized_for_huawei():
    assert huawei_tags("train-a100", {"cost:center": "ml/research", "team": "a b"}) == {
        "trainstack-cluster": "train-a100",
        "trainstack-provider": "huaweicloud",
        "cost-center": "ml-research",
        "team": "a-b",
    }
    assert sanitize_key("k" * 50) == "k" * 36
    assert sanitize_value("v.1@x" + "v" * 50) == ("v.1@x" + "v" * 50)[:43]


@pytest.mark.parametrize(
    ("extra", "match"),
    [
        pytest.param({"a:b": "1", "a/b": "2"}, "'a:b' and 'a/b' both become 'a-b'", id="collision"),
        pytest.param({"trainstack:cluster": "x"}, "both become 'trainstack-cluster'", id="reserved"),
        pytest.param({"_sys_x": "1"}, "starts with _sys_", id="system"),
        pytest.param({"": "1"}, "empty tag key", id="empty"),
        pytest.param({"k" * 37: "1"}, "key 'kkkk.*' is 37 characters; Huawei Cloud allows 36", id="long-key"),
        pytest.param({"team": "v" * 44}, "value 'vvv.*' is 44 characters; Huawei Cloud allows 43", id="long-value"),
    ],
)
def test_check_tags_rejects(extra, match):
    with pytest.raises(ValueError, match=match):
        check_tags(extra)


def test_flavor_facts():
    assert flavor_family("P3.16xlarge.8").accelerators == ("A100-80GB",)
    assert flavor_family("p5s.40xlarge.12").note == "H100 PCIe 80 GB"
    assert flavor_family("ai1s.large.4").kind == "npu"
    assert flavor_family("c7.large.2") is None
    assert is_modelarts_flavor("modelarts.bm.snt9.xlarge.8")
    assert not is_modelarts_flavor("p3.2xlarge.8")


@pytest.mark.parametrize(
    ("location", "parts"),
    [
        ("10.0.0.5:/", ("10.0.0.5", "/")),
        ("h:/share", ("h", "/share")),
        ("h", ("h", "/")),
        (None, (None, None)),
    ],
)
def test_split_export_location(location, parts):
    assert split_export_location(location) == parts


def test_validate_accepts_the_example_and_the_other_families(hw_config):
    validate_args(hw_config(), "c")
    for flavor, accelerator, count in [
        ("p5s.20xlarge.12", "H100", 4),
        ("ai1s.large.4", "Ascend 310", 1),
        ("p2v.8xlarge.8", "V100", 4),  # P2v table unsourced: the count is not checked
    ]:
        config = hw_config(instance_type=flavor, accelerator=accelerator, accelerator_count=count)
        validate_args(config, "c")


def test_check_tags_accepts_a_key_and_value_at_the_limits():
    """36 and 43 characters (TMS constraints): kept whole, not cut short."""
    check_tags({"k" * 36: "v" * 43})
    assert huawei_tags("c", {"k" * 36: "v" * 43})["k" * 36] == "v" * 43
