"""Pure helpers of the Tencent component: no Pulumi engine involved."""

from __future__ import annotations

import re

import pytest

from clouds.contract import FileSystemConfig
from clouds.tencentcloud.facts import family_of, hcc_families, is_hcc
from clouds.tencentcloud.purchase import charge_settings
from clouds.tencentcloud.turbo import TURBO_TYPES, round_capacity_gib, turbo_sizing
from clouds.tencentcloud.validate import check_tags
from components.tencentcloud.profile import hostname
from components.tencentcloud.security import egress_rules, ingress_rules
from tests.cases import cases


@pytest.mark.parametrize(
    ("kind", "capacity", "expected"), cases("turbo_capacity_rounding.yaml", "kind", "capacity", "expected")
)
def test_turbo_capacity_rounds_up_to_minimum_plus_steps(kind, capacity, expected):
    assert round_capacity_gib(capacity, TURBO_TYPES[kind]) == expected


def test_turbo_type_defaults_to_tp_and_caps_at_100_pib():
    assert turbo_sizing(FileSystemConfig(capacity_gib=4800)) == ("TP", 20_480)
    assert turbo_sizing(FileSystemConfig(capacity_gib=4800, deployment_type="tb")) == ("TB", 40_960)
    with pytest.raises(ValueError, match=r"exceeds the CFS Turbo limit of 104857600 GiB \(100 PiB\)"):
        turbo_sizing(FileSystemConfig(capacity_gib=100 * 1024 * 1024 + 1))


@pytest.mark.parametrize(
    ("instance_type", "family", "hcc"), cases("tencent_families.yaml", "instance_type", "family", "hcc")
)
def test_family_and_hcc(instance_type, family, hcc):
    assert (family_of(instance_type), is_hcc(instance_type)) == (family, hcc)


def test_hcc_families():
    assert hcc_families() == ["HCCPNV4h", "HCCG5v", "HCCPNV4s"]


def test_charge_settings():
    assert charge_settings("on-demand") == {"instance_charge_type": "POSTPAID_BY_HOUR"}
    assert charge_settings("spot", " 12.5 ") == {
        "instance_charge_type": "SPOTPAID",
        "spot_instance_type": "ONE-TIME",
        "spot_max_price": "12.5",
    }
    with pytest.raises(ValueError, match="spot_max_price: purchase spot on Tencent needs a bid"):
        charge_settings("spot")
    with pytest.raises(ValueError, match="spot_max_price: '0' is not a positive decimal"):
        charge_settings("spot", "0")


def test_rule_order_ssh_vpc_turbo_then_drop():
    rules = ingress_rules(("203.0.113.0/24",), file_system=True)
    assert [(r["action"], r["cidr_block"]) for r in rules] == [
        ("ACCEPT", "203.0.113.0/24"),
        ("ACCEPT", "10.0.0.0/16"),
        ("ACCEPT", "10.1.0.0/24"),
        ("DROP", "0.0.0.0/0"),
    ]
    assert [r["action"] for r in egress_rules()] == ["ACCEPT"]


def test_hostname_is_linux_safe():
    assert hostname("Train_GT4", 0) == "train-gt4-0"
    assert len(hostname("y" * 99, 7)) == 60


@pytest.mark.parametrize(
    ("tags", "message"),
    [
        pytest.param({"project:x": "1"}, "key 'project:x' starts with a prefix", id="project-prefix"),
        pytest.param({"team": ""}, "value of 'team' must be 1-255 characters", id="empty-value"),
        pytest.param({"team": " ml"}, "leading/trailing space", id="leading-space"),
        pytest.param({"team": "ml&ops"}, "character Tencent does not allow", id="ampersand"),
        pytest.param({f"k{i}": "v" for i in range(51)}, "51 tags exceed Tencent's 50", id="too-many"),
    ],
)
def test_check_tags_rejects_what_tencent_refuses(tags, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        check_tags(tags)
    check_tags({"trainstack:cluster": "c", "cost-center": "ML Team (a) [b]"})
