"""`TiOnePool`: the stack's TI-ONE training resource group, under Pulumi mocks and, for the dynamic
provider's calls, against recorded answers in the TI-ONE API's format (`{"Response": {...}}`,
`CreateBillingResourceGroup` / `DeleteBillingResourceGroup`, the common error shape); `responses`
intercepts `CommonClient`'s HTTP, so the SDK signs and serialises the real request."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import responses
from tencentcloud.common.exception.tencent_cloud_sdk_exception import TencentCloudSDKException

from clouds.contract import ClusterConfig
from clouds.tencentcloud import tione
from components.tencentcloud.tione import TYPE_TOKEN, TiOnePool, TiOneResourceGroupProvider
from tests.clusters import example
from tests.components.harness import build_plan

ANSWERS = Path(__file__).parents[2] / "fixtures" / "platforms"
ENDPOINT = "https://tione.tencentcloudapi.com/"
GROUP = "pulumi-python:dynamic/tencentcloud:TiOneResourceGroup"


def _config(**changes) -> ClusterConfig:
    values = {**example("tencentcloud"), "platform": "ti-one", "purchase": "on-demand", "file_system": None, **changes}
    values.pop("spot_max_price", None)
    return ClusterConfig.model_validate(values)


def _answer(name: str) -> dict:
    return json.loads((ANSWERS / name).read_text())


@pytest.mark.parametrize(
    ("cluster", "group"),
    [
        pytest.param("c", "c-train", id="plain"),
        pytest.param("training.a100 ti", "training-a100-ti-train", id="characters"),
        pytest.param("_x", "x-train", id="leading-underscore"),
        pytest.param("y" * 80, "y" * 54 + "-train", id="at-most-60"),
    ],
)
def test_group_names_fit_the_create_schema(cluster, group):
    assert tione.group_name(cluster) == group and len(group) <= 60


def test_group_under_mocks():
    plan = build_plan(TiOnePool, _config(), ("node_ids", "resource_group_name"))
    assert any(r["type"] == TYPE_TOKEN and r["name"] == "c" for r in plan.records)
    (group,) = plan.of_type(GROUP)
    request = group["inputs"]["request"]
    assert (request["Name"], request["Type"]) == ("c-train", "TRAIN") and group["inputs"]["region"] == "ap-beijing"
    assert {"TagKey": "trainstack:cluster", "TagValue": "c"} in request["TagSet"]  # the cluster's cost tags
    assert group["protect"] is True  # the team's prepaid nodes are bought into it
    assert plan.outputs == {"node_ids": [], "resource_group_name": "c-train"}


@pytest.fixture
def tencent(monkeypatch):
    monkeypatch.setenv("TENCENTCLOUD_SECRET_ID", "AKID-test")
    monkeypatch.setenv("TENCENTCLOUD_SECRET_KEY", "test-key-not-real")


@responses.activate
def test_provider_creates_the_group(tencent):
    responses.post(ENDPOINT, json=_answer("tione-resource-group-created.json"))
    request = tione.group_request("c", {"trainstack-cluster": "c"})
    result = TiOneResourceGroupProvider().create({"region": "ap-beijing", "name": "c-train", "request": request})
    assert result.id == "trsg-dwpqnjmk" == result.outs["resource_group_id"]
    sent = responses.calls[0].request
    assert sent.headers["X-TC-Action"] == "CreateBillingResourceGroup" and sent.headers["X-TC-Version"] == "2021-11-11"
    assert sent.headers["X-TC-Region"] == "ap-beijing"
    assert sent.headers["Authorization"].startswith("TC3-HMAC-SHA256 Credential=AKID-test/")
    assert json.loads(sent.body) == {
        "Name": "c-train",
        "Type": "TRAIN",
        "TagSet": [{"TagKey": "trainstack-cluster", "TagValue": "c"}],
    }


@responses.activate
def test_provider_deletes_the_group_and_says_when_tione_refuses(tencent):
    props = {"region": "ap-beijing", "name": "c-train", "request": {}}
    responses.post(ENDPOINT, json=_answer("tione-resource-group-deleted.json"))
    TiOneResourceGroupProvider().delete("trsg-dwpqnjmk", props)
    assert json.loads(responses.calls[0].request.body) == {"ResourceGroupId": "trsg-dwpqnjmk"}
    assert responses.calls[0].request.headers["X-TC-Action"] == "DeleteBillingResourceGroup"
    responses.replace(responses.POST, ENDPOINT, json=_answer("tione-resource-group-in-use.json"))
    with pytest.raises(TencentCloudSDKException, match="running nodes"):
        TiOneResourceGroupProvider().delete("trsg-dwpqnjmk", props)


def test_provider_without_credentials_says_which(monkeypatch):
    monkeypatch.delenv("TENCENTCLOUD_SECRET_ID", raising=False)
    with pytest.raises(RuntimeError, match="^credentials: set TENCENTCLOUD_SECRET_ID"):
        TiOneResourceGroupProvider().create({"region": "ap-beijing", "name": "c-train", "request": {}})


@pytest.mark.parametrize(
    ("new", "replaces"),
    [
        pytest.param({"request": {"Type": "TRAIN", "TagSet": [{"TagKey": "team", "TagValue": "b"}]}}, [], id="tags"),
        pytest.param({"name": "d-train"}, ["name"], id="name"),
        pytest.param({"region": "ap-shanghai"}, ["region"], id="region"),
    ],
)
def test_only_a_new_name_or_region_replaces_the_group(new, replaces):
    old = {"region": "ap-beijing", "name": "c-train", "request": {"Type": "TRAIN", "TagSet": []}}
    diff = TiOneResourceGroupProvider().diff("trsg-dwpqnjmk", old, {**old, **new})
    assert (diff.changes, diff.replaces) == (bool(replaces), replaces)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        pytest.param({"purchase": "spot"}, "purchase: TI-ONE has no spot", id="spot"),
        pytest.param({"commitment": "1y"}, "commitment: trainstack submits pay-as-you-go", id="term"),
        pytest.param({"file_system": example("tencentcloud").get("file_system")}, "file_system: a TI-ONE", id="fs"),
        pytest.param({"ssh_cidrs": ["203.0.113.7/32"]}, "ssh_cidrs: TI-ONE", id="ssh"),
    ],
)
def test_refused_naming_the_field(changes, field):
    with pytest.raises(ValueError, match=f"^{field}"):
        tione.validate_pool(_config(**changes))
