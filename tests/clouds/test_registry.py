"""The cloud registry: every `Cloud` object is complete, and the tables derived from it agree."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from clouds.base import Cloud, Feature, Mock, load
from clouds.registry import CLOUDS, NAMES, cloud
from clouds.replacement_rules import Replacements
from components.registry import REGISTRY

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", NAMES)
def test_each_cloud_is_registered_under_its_own_name_with_loadable_targets(name):
    found = CLOUDS[name]
    assert isinstance(found, Cloud) and found.name == name
    assert callable(load(found.validator))
    assert isinstance(load(found.mock), Mock)
    assert isinstance(load(found.replacements), Replacements)
    module, _, _ = found.component.partition(":")
    assert importlib.util.find_spec(module) is not None  # not imported: it loads the cloud's SDK
    assert REGISTRY[name] == found.component
    if found.file_system is not None:
        assert callable(load(found.file_system.target))


def test_unknown_provider_names_the_valid_ones():
    with pytest.raises(ValueError, match=r"unknown provider 'mars'; valid: alicloud, aws, azure, baiducloud, gcp, "):
        cloud("mars")


def test_load_refuses_a_target_without_attribute():
    with pytest.raises(ValueError, match="not 'module:attribute'"):
        load("clouds.base")


def test_capabilities_carry_their_reason_when_absent():
    assert cloud("aws").supports(Feature.SPOT_FROM_STACK) and cloud("aws").why_not(Feature.SPOT_FROM_STACK) is None
    assert not cloud("tencentcloud").supports(Feature.SPOT_FROM_STACK)
    assert "spot_max_price" in cloud("tencentcloud").why_not(Feature.SPOT_FROM_STACK)
    assert "deployment set" in cloud("alicloud").why_not(Feature.SPOT_PLACEMENT)


def test_default_region_key_is_provider_region():
    assert cloud("volcengine").region_key == "volcengine:region"
    assert cloud("azure").region_key == "azure-native:location"


def test_exactly_one_mock_is_the_fallback_and_prefixes_do_not_overlap():
    prefixes = [p for c in CLOUDS.values() for p in load(c.mock).prefixes]
    assert prefixes.count("") == 1
    named = [p for p in prefixes if p]
    assert len(named) == len(set(named))
    assert not any(a != b and a.startswith(b) for a in named for b in named)


@pytest.mark.parametrize(
    ("typ", "prefix"),
    [
        pytest.param("alicloud:ecs/instance:Instance", "i-", id="alicloud-id-prefix"),
        pytest.param("tencentcloud:Instance/instance:Instance", "ins-", id="tencent-id-prefix"),
        pytest.param("volcengine:ecs/instance:Instance", "i-", id="volcengine-id-prefix"),
    ],
)
def test_the_mocks_answer_each_type_with_its_clouds_mock(typ, prefix):
    from trainstack.plan.mocks import TrainstackMocks

    class Args:
        def __init__(self, typ):
            self.typ, self.name, self.inputs = typ, "c-node-3", {}

    resource_id, outputs = TrainstackMocks("cn-beijing").new_resource(Args(typ))
    assert resource_id.startswith(prefix) and resource_id != "c-node-3-id"
    aws_id, aws_outputs = TrainstackMocks("eu-west-1").new_resource(Args("aws:ec2/instance:Instance"))
    assert aws_id == "c-node-3-id" and aws_outputs["arn"].startswith("arn:aws:mock:eu-west-1:")
    assert aws_outputs["privateIp"] == "10.0.0.13"


def test_loading_the_registry_imports_no_pulumi_or_cloud_sdk():
    from tests.fresh_process import loaded_after

    loaded = loaded_after("import clouds.registry, clouds.config, clouds.filesystems, clouds.regions")
    heavy = {"pulumi", "boto3", "botocore", "pydantic_core", "azure", "google", "tencentcloud", "huaweicloudsdkcore"}
    assert loaded & heavy == {"pydantic_core"}  # clouds.config needs pydantic (ClusterConfig), nothing else


def test_per_cloud_tables_are_derived_from_the_cloud_objects():
    from clouds.job_bootstrap import NOTICE_CLOUDS
    from profiles.catalog.fetchers import FETCHERS, fetcher_for
    from profiles.catalog.loader import PROVIDERS
    from profiles.cost.pricing import RESERVED_DISCOUNT, reserved_usd_per_hour
    from profiles.preflight.guidance import GUIDANCE, gcp_guidance, generic_guidance

    assert NOTICE_CLOUDS == {"aws": "aws", "azure": "azure", "gcp": "gcp"}
    assert PROVIDERS == NAMES and tuple(FETCHERS) == NAMES
    assert fetcher_for("volcengine").__module__ == "profiles.catalog.fetchers.volcengine"
    assert RESERVED_DISCOUNT[("gcp", "1y")] == 0.37 and RESERVED_DISCOUNT[("azure", "3y")] == 0.55
    assert reserved_usd_per_hour(10.0, "aws", "3y") == pytest.approx(5.0)
    assert reserved_usd_per_hour(10.0, "alicloud", "1y") is None  # no sourced discount
    assert set(GUIDANCE) == set(NAMES) - {"aws"}  # AWS is checked live (Cloud.live_check)
    assert GUIDANCE["gcp"] is gcp_guidance and GUIDANCE["huaweicloud"] is generic_guidance


def test_generic_guidance_names_the_cloud_as_users_know_it():
    from profiles.preflight.guidance import generic_guidance
    from tests.clusters import example_config

    # the Volcengine example (2 nodes in cn-beijing-a) on another type, on-demand
    cluster = example_config("volcengine", instance_type="ecs.ebmhpcpni2l.32xlarge", purchase="on-demand", hours=10)
    (finding,) = generic_guidance(cluster)
    assert "no Volcengine offering or quota API" in finding.detail
    assert finding.fix.startswith("confirm in the Volcengine console that cn-beijing-a sells")


def _mock_owner(token: str) -> str:
    """The cloud whose mock answers `token` (the fallback cloud for unclaimed prefixes)."""
    for name, found in CLOUDS.items():
        if any(p and token.startswith(p) for p in load(found.mock).prefixes):
            return name
    return next(name for name, found in CLOUDS.items() if "" in load(found.mock).prefixes)


@pytest.mark.parametrize("name", NAMES)
def test_each_clouds_policy_readers_read_only_its_own_types(name):
    from clouds.policy import PolicyReaders

    readers = load(CLOUDS[name].policy)
    assert isinstance(readers, PolicyReaders)
    tokens = {token for table in vars(readers).values() for token in table}
    assert readers.world_ingress and readers.spot  # every cloud opens ports and sells spot
    assert {_mock_owner(token) for token in tokens} == {name}


def test_no_two_clouds_read_the_same_type_for_one_rule():
    from clouds.policy import PolicyReaders

    for table in PolicyReaders.__dataclass_fields__:
        tokens = [token for c in CLOUDS.values() for token in getattr(load(c.policy), table)]
        assert len(tokens) == len(set(tokens)), table


def test_storage_prices_are_gathered_from_each_clouds_own_facts():
    from clouds.storage_prices import STORAGE_PRICES, storage_price

    assert sorted(STORAGE_PRICES) == [
        ("alicloud", 200),
        ("aws", 125),
        ("aws", 250),
        ("aws", 500),
        ("aws", 1000),
        ("huaweicloud", 40),
        ("huaweicloud", 125),
        ("huaweicloud", 250),
    ]
    fsx_250 = storage_price("aws", 250)
    assert fsx_250 is not None and fsx_250.per_unit_month == pytest.approx(0.145 * 3.71 / 2.48)  # F5 x FJ1 ratio
    assert (fsx_250.source, fsx_250.observed) == ("F5, FJ1", "2022-09-03")
    assert storage_price("azure", 250) is None  # unsourced: estimated, never free


def test_every_notice_watcher_a_cloud_names_ships_with_the_node_agent():
    from nodeagent.notices import WATCHERS

    named = {c.notice_watcher for c in CLOUDS.values() if c.notice_watcher}
    assert named == set(WATCHERS) == {"aws", "azure", "gcp"}
    assert all(CLOUDS[name].name == WATCHERS[name].name for name in WATCHERS)  # a watcher is its cloud's
