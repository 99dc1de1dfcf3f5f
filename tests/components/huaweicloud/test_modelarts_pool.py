"""`ModelArtsPool`: the ModelArts network and dedicated resource pool (Ascend 910B), under Pulumi
mocks and, for the dynamic providers' calls, against recorded answers in the ModelArts API
reference's format ("Creating a Resource Pool": 200 with the pool object; "Creating Tags for a
Resource Pool"): the bodies each call sends are asserted."""

from __future__ import annotations

import json

import pytest
import responses

from clouds.huaweicloud import modelarts as ma
from components.huaweicloud.modelarts import (
    TYPE_TOKEN,
    ModelArtsNetworkProvider,
    ModelArtsPool,
    ModelArtsResourcePoolProvider,
)
from tests.clusters import example_config
from tests.components.harness import build_plan

FLAVOR = "modelarts.bm.npu.arm.8snt9b2.d"
PROJECT = "0123456789abcdef"
BASE = "https://modelarts.cn-north-4.myhuaweicloud.com"
POOL = "pulumi-python:dynamic/huaweicloud:ModelArtsResourcePool"
NETWORK = "pulumi-python:dynamic/huaweicloud:ModelArtsNetwork"


def _config(**changes):
    values = {
        "platform": "modelarts",
        "instance_type": FLAVOR,
        "accelerator": "Ascend 910B",
        "accelerator_count": 8,
        "file_system": None,
        "purchase": "on-demand",
        "zone": "cn-north-4a",
        **changes,
    }
    return example_config("huaweicloud", **values)


def test_pool_body_follows_the_create_pool_schema():
    body = ma.pool_body("c", _config(nodes=3))
    assert (body["apiVersion"], body["kind"]) == ("v2", "Pool")
    assert body["metadata"]["labels"] == {"os.modelarts/name": ma.pool_name("c"), "os.modelarts/workspace.id": "0"}
    assert body["metadata"]["annotations"]["os.modelarts/billing.mode"] == "0"  # pay-per-use
    assert body["spec"] == {
        "type": "Dedicate",
        "scope": ["Train"],
        "network": {"name": ma.network_name("c")},
        "resources": [{"flavor": FLAVOR, "count": 3}],
    }
    assert ma.network_body("c") == {
        "apiVersion": "v1",
        "kind": "Network",
        "metadata": {"labels": {"os.modelarts/name": ma.network_name("c")}},
        "spec": {"cidr": "172.16.0.0/12"},
    }


@pytest.mark.parametrize("cluster", ["c", "training-ascend-modelarts-with-a-long-name", "7up"])
def test_names_fit_modelarts_limits(cluster):
    for name in (ma.pool_name(cluster), ma.network_name(cluster)):
        assert 4 <= len(name) <= 32 and name[0].isalpha() and name == name.lower()


def test_pool_and_network_under_mocks():
    plan = build_plan(ModelArtsPool, _config(), ("node_ids", "pool_name"))
    assert any(r["type"] == TYPE_TOKEN and r["name"] == "c" for r in plan.records)
    (pool,) = plan.of_type(POOL)
    (network,) = plan.of_type(NETWORK)
    assert pool["inputs"]["body"] == ma.pool_body("c", _config())
    assert network["inputs"]["body"] == ma.network_body("c")
    assert pool["inputs"]["tags"]["trainstack:cluster"] == "c"  # the cost tags (Huawei takes the colon form)
    assert plan.outputs["pool_name"] == ma.pool_name("c")


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        pytest.param({"purchase": "spot"}, "purchase: ModelArts dedicated pools", id="spot"),
        pytest.param({"instance_type": "p3.16xlarge.8"}, "instance_type: p3.16xlarge.8 is not a ModelArts", id="ecs"),
        pytest.param({"ssh_cidrs": ["203.0.113.7/32"]}, "ssh_cidrs: ModelArts", id="ssh"),
    ],
)
def test_refused_before_building(changes, field):
    with pytest.raises(ValueError, match=field):
        ma.validate_pool(_config(**changes), "c")


@pytest.fixture
def huawei_credentials(monkeypatch):
    for key, value in {
        "HUAWEICLOUD_SDK_AK": "AK",
        "HUAWEICLOUD_SDK_SK": "SK",
        "HUAWEICLOUD_SDK_PROJECT_ID": PROJECT,
    }.items():
        monkeypatch.setenv(key, value)


@responses.activate
def test_pool_provider_creates_then_tags_the_pool(huawei_credentials):
    created = {
        "apiVersion": "v2",
        "kind": "Pool",
        "metadata": {"name": "pool-7f3a", "labels": {"os.modelarts/name": ma.pool_name("c")}},
        "spec": {"type": "Dedicate", "scope": ["Train"]},
        "status": {"phase": "Creating"},
    }
    responses.post(f"{BASE}/v2/{PROJECT}/pools", json=created, status=200)
    responses.post(f"{BASE}/v1/{PROJECT}/pools/pool-7f3a/tags/create", status=204)
    body = ma.pool_body("c", _config())
    result = ModelArtsResourcePoolProvider().create(
        {"region": "cn-north-4", "body": body, "tags": {"trainstack-cluster": "c"}}
    )
    assert result.id == "pool-7f3a" and result.outs["pool_name"] == "pool-7f3a"
    sent = json.loads(responses.calls[0].request.body)
    assert sent == body
    assert json.loads(responses.calls[1].request.body) == {"tags": [{"key": "trainstack-cluster", "value": "c"}]}
    assert responses.calls[0].request.headers["Authorization"].startswith("SDK-HMAC-SHA256 Access=AK")


@responses.activate
def test_network_provider_creates_the_network(huawei_credentials):
    created = {
        "apiVersion": "v1",
        "kind": "Network",
        "metadata": {"name": "network-c-1a2b"},
        "spec": {"cidr": "172.16.0.0/12"},
    }
    responses.post(f"{BASE}/v1/{PROJECT}/networks", json=created, status=200)
    result = ModelArtsNetworkProvider().create({"region": "cn-north-4", "body": ma.network_body("c")})
    assert result.id == "network-c-1a2b"
    assert json.loads(responses.calls[0].request.body) == ma.network_body("c")
