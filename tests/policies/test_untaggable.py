"""Each cloud's `untaggable` set (clouds/<cloud>/cloud.yaml) is exactly the resource types its
component creates whose provider schema has no tags or labels input.

The schema is read from the installed Pulumi SDK: a type token's module registers its class
(`pulumi.runtime.rpc._RESOURCE_MODULES`, filled by each SDK's `_utilities.register`), and the
class's `_internal_init` lists the resource's inputs. Baidu's dynamic resources have no SDK
schema; their set is checked against what the dynamic provider declares
(`components.baiducloud.dynamic_base`): none takes tags.
"""

from __future__ import annotations

import importlib
import inspect

import pulumi.runtime.rpc as rpc
import pytest

from clouds.registry import CLOUDS
from components.registry import component_for
from tests.clusters import example_config
from tests.components.harness import build_plan

TAG_INPUTS = ("tags", "labels")
BLOCK = {"kind": "capacity-block", "id": "cr-0123", "ends": "2030-01-01T00:00:00Z"}
# The example of every cloud, plus variants that create optional resources: a Capacity Block
# with an end (its scale-in schedule), and a linked bucket (data roles, links, mounts).
BUILDS = [
    pytest.param(name, {}, id=name)
    for name in (
        "aws",
        "azure",
        "gcp",
        "gcp-tpu",
        "alicloud",
        "tencentcloud",
        "huaweicloud",
        "volcengine",
        "baiducloud",
    )
] + [
    pytest.param(
        "aws",
        {"purchase": "on-demand", "reservation": BLOCK},
        id="aws-capacity-block-ends",
    ),
    pytest.param("aws", {"data": {"source": "s3://team/x", "size_gib": 100, "write_back": True}}, id="aws-data"),
    pytest.param("gcp", {"data": {"source": "gs://team/x", "write_back": True}}, id="gcp-data"),
    pytest.param(
        "alicloud", {"data": {"source": "oss://team/x", "size_gib": 800, "write_back": True}}, id="alicloud-data"
    ),
]


def _sdk_class(token: str) -> type | None:
    """The SDK class registered for a Pulumi type token, or None when no SDK registers it."""
    for module in rpc._RESOURCE_MODULES.get(token.rsplit(":", 1)[0], []):
        info = getattr(module, "mod_info", None)
        if info and token in info.get("classes", {}):
            return getattr(importlib.import_module(info["fqn"]), info["classes"][token])
    return None


def _takes_tags(cls: type) -> bool:
    init = getattr(cls, "_internal_init", cls.__init__)
    return any(name in inspect.signature(init).parameters for name in TAG_INPUTS)


@pytest.mark.parametrize(("example", "changes"), BUILDS)
def test_untaggable_is_every_created_type_without_a_tags_input(example, changes):
    config = example_config(example, **changes)
    cls = component_for(config.provider)
    records = build_plan(cls, config, ()).records
    created = {r["type"] for r in records if not r["type"].startswith(("pulumi:", "pulumi-python:", "trainstack:"))}
    classes = {token: _sdk_class(token) for token in created}
    assert None not in classes.values(), [t for t, c in classes.items() if c is None]
    without_tags = {token for token, c in classes.items() if c is not None and not _takes_tags(c)}
    listed = CLOUDS[config.provider].untaggable
    assert without_tags - listed == set(), "created, takes no tags, not in cloud.yaml untaggable"
    assert (listed & created) - without_tags == set(), "in cloud.yaml untaggable but takes tags"


def test_every_listed_untaggable_type_has_no_tags_input_in_its_sdk():
    """Types no build above creates are still checked against their SDK's schema."""
    for cloud in CLOUDS.values():
        try:
            component_for(cloud.name)
        except ModuleNotFoundError:
            continue
        for token in cloud.untaggable:
            cls = _sdk_class(token)
            if cls is None:  # a dynamic resource (Baidu): no SDK schema
                assert token.startswith("pulumi-python:dynamic/"), token
                continue
            assert not _takes_tags(cls), f"{cloud.name}: {token} takes tags"


def test_a_capacity_block_with_an_end_passes_cost_tags():
    from policies import evaluate

    config = example_config("aws", purchase="on-demand", reservation=BLOCK)
    records = build_plan(component_for("aws"), config, ()).records
    assert any(r["type"] == "aws:autoscaling/schedule:Schedule" for r in records)
    (result,) = [r for r in evaluate(records) if r.rule == "cost-tags"]
    assert result.violations == ()
