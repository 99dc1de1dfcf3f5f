"""Pure helpers of the Baidu component: names, tags, spec names, rules, requests, errors."""

from __future__ import annotations

import pytest

from clouds.baiducloud.layout import (
    baidu_tags,
    has_infiniband,
    hostname,
    resource_name,
    spec_family,
    spec_gpu_count,
    tag_list,
)
from components.baiducloud import api
from components.baiducloud.bcc_requests import bid_arguments, pick_image, tag_changes
from components.baiducloud.security import security_group_rules, world_open_ingress


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param("train-a100-vpc", "train_a100_vpc", id="hyphens"),
        pytest.param("9-nodes", "ts_9_nodes", id="leading-digit"),
        pytest.param("x" * 80, "x" * 65, id="too-long"),
    ],
)
def test_resource_name_is_letters_digits_underscores(name, expected):
    assert resource_name(name) == expected


def test_hostname_is_lowercase_dns_like():
    assert hostname("Train_A100--node-3") == "train-a100-node-3"
    assert hostname("7-node-0") == "n-7-node-0"


def test_tags_use_dashes_and_the_api_list_shape():
    tags = baidu_tags({"trainstack:cluster": "c", "team": "ml"})
    assert tags == {"trainstack-cluster": "c", "team": "ml"}
    assert tag_list(tags) == [
        {"tagKey": "team", "tagValue": "ml"},
        {"tagKey": "trainstack-cluster", "tagValue": "c"},
    ]


@pytest.mark.parametrize(
    ("spec", "family", "gpus", "infiniband"),
    [
        pytest.param("bcc.hgn5IB.c116m978.8A100-80g", "hgn5IB", 8, True, id="a100-ib"),  # §1.5
        pytest.param("bcc.g4.c2m8", "g4", None, False, id="cpu-spec"),
    ],
)
def test_spec_name_parts(spec, family, gpus, infiniband):
    parsed = (spec_family(spec), spec_gpu_count(spec), has_infiniband(spec))
    assert parsed == (family, gpus, infiniband)


def test_cluster_rules_never_open_ingress_to_the_world():
    rules = security_group_rules(["203.0.113.0/24"])
    assert world_open_ingress(rules) == []
    assert world_open_ingress([{"direction": "ingress", "sourceIp": ""}]) != []
    assert world_open_ingress([{"direction": "ingress", "sourceGroupId": "g-1"}]) == []


def test_tag_changes_unbind_old_values_and_bind_new_ones():
    unbind, bind = tag_changes({"a": "1", "b": "2"}, {"a": "1", "b": "3", "c": "4"})
    assert unbind == [{"tagKey": "b", "tagValue": "2"}]
    assert bind == [{"tagKey": "b", "tagValue": "3"}, {"tagKey": "c", "tagValue": "4"}]


def test_bid_arguments_only_for_spot():
    assert bid_arguments({"bid_model": None}) == {}
    assert bid_arguments({"bid_model": "market", "bid_price": None}) == {"bid_model": "market"}


def test_pick_image_fails_with_a_fix_when_no_image_matches():
    with pytest.raises(LookupError, match="set image_id on the instance"):
        pick_image([{"id": "m-1", "osName": "CentOS", "status": "Available"}], "Ubuntu")


def test_api_error_formats_without_a_response():
    error = api.BaiduApiError("GetInstance", None, None, "connection reset\nby peer", None)
    assert str(error) == "Baidu GetInstance failed: no response: connection reset by peer"


def test_default_endpoint_is_the_regional_bcc_domain(monkeypatch):
    monkeypatch.delenv(api.ENDPOINT_ENV, raising=False)
    assert api.endpoint("gz") == "https://bcc.gz.baidubce.com"
