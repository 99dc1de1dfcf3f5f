"""Pure helpers of the Volcengine component: no Pulumi engine involved."""

from __future__ import annotations

import pytest

from clouds.contract import FileSystemConfig
from clouds.volcengine.facts import family_names, instance_family
from clouds.volcengine.tags import check_tags, tags_as_dict, volcengine_tags
from clouds.volcengine.validate import validate_args
from clouds.volcengine.vepfs import vepfs_sizing
from components.volcengine.purchase import spot_args
from components.volcengine.security import FROM_OWN_GROUP, node_rules


def fs(capacity_gib: int, throughput: int | None = 100, store: str | None = None) -> dict:
    config: dict = {"capacity_gib": capacity_gib, "deployment_type": store}
    if throughput is not None:
        config["throughput_mbps_per_tib"] = throughput
    return config


@pytest.mark.parametrize(
    ("file_system", "store_type", "tib"),
    [
        pytest.param(fs(4800), "Advance_100", 5, id="100-4800GiB-5TiB"),
        pytest.param(fs(1), "Advance_100", 1, id="100-1GiB-1TiB"),
        pytest.param(fs(10240), "Advance_100", 10, id="100-exact-10TiB"),
        pytest.param(fs(10241), "Advance_100", 11, id="100-just-over"),
        pytest.param(fs(4800, 250, "Performance"), "Performance", 5, id="named-performance"),
        pytest.param(fs(20480, None, "Intelligent_Computing"), "Intelligent_Computing", 20, id="named-ic"),
        pytest.param(fs(2048, 100, "Advance_100"), "Advance_100", 2, id="named-advance"),
    ],
)
def test_vepfs_store_type_and_capacity(file_system, store_type, tib):
    sizing = vepfs_sizing(FileSystemConfig(**file_system))
    assert (sizing.store_type, sizing.capacity_tib) == (store_type, tib)
    assert sizing.mbps_per_tib == (100 if store_type == "Advance_100" else None)


@pytest.mark.parametrize(
    ("file_system", "match"),
    [
        pytest.param(fs(1, 250), r"250 has no vePFS store type", id="250"),
        pytest.param(fs(1, None, "PERSISTENT_2"), r"'PERSISTENT_2' is not a vePFS", id="type"),
        pytest.param(
            fs(1, 200, "Advance_100"),
            r"200 does not match Advance_100 \(100 MB/s per TiB\)",
            id="mismatch",
        ),
    ],
)
def test_vepfs_rejects(file_system, match):
    with pytest.raises(ValueError, match=match):
        vepfs_sizing(FileSystemConfig(**file_system))


def test_spot_args():
    spot = {"instance_charge_type": "PostPaid", "spot_strategy": "SpotAsPriceGo"}
    assert spot_args("spot") == spot
    assert spot_args("spot", 12.3456) == {
        "instance_charge_type": "PostPaid",
        "spot_strategy": "SpotWithPriceLimit",
        "spot_price_limit": 12.346,
    }
    assert spot_args("on-demand") == {"instance_charge_type": "PostPaid", "spot_strategy": "NoSpot"}
    with pytest.raises(ValueError, match="purchase: 'reserved'"):
        spot_args("reserved")
    with pytest.raises(ValueError, match="spot_price_limit: -1"):
        spot_args("spot", -1)


def test_node_rules():
    rules = dict(node_rules(["203.0.113.0/24"]))
    assert list(rules) == ["internal", "ssh-0"]
    assert rules["internal"]["source_group_id"] == FROM_OWN_GROUP
    assert (rules["internal"]["protocol"], rules["internal"]["port_start"]) == ("all", -1)
    assert rules["ssh-0"] == {
        "direction": "ingress",
        "protocol": "tcp",
        "port_start": 22,
        "port_end": 22,
        "cidr_ip": "203.0.113.0/24",
        "description": "SSH from an allowed CIDR",
    }
    assert list(dict(node_rules(()))) == ["internal"]


def test_tags_keep_colons_as_key_value_lists():
    tags = volcengine_tags("c", {"cost:center": "ml/research"})
    assert tags[:2] == [
        {"key": "trainstack:cluster", "value": "c"},
        {"key": "trainstack:provider", "value": "volcengine"},
    ]
    assert tags_as_dict(tags)["cost:center"] == "ml/research"
    check_tags({"cost:center": "ml/research", "team": "A b@x"})


@pytest.mark.parametrize(
    ("extra", "match"),
    [
        pytest.param({"volc:x": "1"}, "starts with volc: or sys:", id="volc"),
        pytest.param({"SYS:x": "1"}, "starts with volc: or sys:", id="sys"),
        pytest.param({" x": "1"}, "without leading or trailing spaces", id="space"),
        pytest.param({"k" * 129: "1"}, "must be 1-128 characters", id="long"),
        pytest.param({"a": "x<y"}, "'x<y' holds a character", id="value"),
        pytest.param({"a": "v" * 257}, "a: the value is 257 characters, Volcengine allows 256", id="long-value"),
    ],
)
def test_check_tags_rejects(extra, match):
    with pytest.raises(ValueError, match=match):
        check_tags(extra)


def test_family_facts():
    assert instance_family("ecs.hpcpni2.28xlarge").hpc_cluster is True
    assert instance_family("ECS.pni2.28xlarge").rdma is False
    assert instance_family("ecs.hpcg3ib.x").accelerators is None
    assert instance_family("hpcpni2.28xlarge") is None
    assert instance_family("ecs.g3i.large") is None
    assert family_names(rdma_only=True) == ["hpcpni2", "hpcg3ib"]


def test_validate_accepts_the_example_and_plain_gpu_types(vc_config):
    validate_args(vc_config(), "c")
    plain = {"instance_type": "ecs.gni2.3xlarge", "accelerator": "A10", "interconnect": "none"}
    validate_args(vc_config(**plain, accelerator_count=1), "c")
    # hpcg3ib's GPU model is unsourced, so any accelerator name passes.
    validate_args(vc_config(instance_type="ecs.hpcg3ib.x", accelerator="H800"), "c")


def test_check_tags_accepts_a_value_at_the_limit():
    check_tags({"team": "v" * 256, "empty": ""})
