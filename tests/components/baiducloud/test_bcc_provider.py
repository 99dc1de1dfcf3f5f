"""`BccInstanceProvider` against recorded BCC API responses, replayed under `http.client`."""

from __future__ import annotations

import base64

import dill
import pytest
from pulumi.dynamic.dynamic import serialize_provider
from pulumi.runtime import rpc

from components.baiducloud.api import BaiduApiError, MissingCredentialsError
from components.baiducloud.bcc_provider import BccInstanceProvider
from tests.components.baiducloud.conftest import ACCESS_KEY

INSTANCE = "i-hGn5a8Qx"
PROPS = {
    "__provider": "serialized-provider",
    "region": "bj",
    "zone": "cn-bj-a",
    "spec": "bcc.hgn5IB.c116m978.8A100-80g",
    "name": "c-node-0",
    "hostname": "c-node-0",
    "image_id": None,
    "image_os": "Ubuntu",
    "subnet_id": "sbn-q3rd8w1mzx6c",
    "security_group_ids": ["g-7dyv27r6pnse"],
    "deploy_set_id": "dset-y4tumnel",
    "ehc_cluster_id": "ehc-bk4hHtvP",
    "keypair_id": "k-3uC6fZpB",
    "bid_model": None,
    "bid_price": None,
    "root_disk_size_gb": None,
    "tags": {"trainstack-cluster": "c", "trainstack-provider": "baiducloud"},
}
STATE = {
    **PROPS,
    "instance_id": INSTANCE,
    "internal_ip": "10.0.0.12",
    "status": "Running",
    "payment_timing": "Postpaid",
    "boot_image_id": "m-Ub22gPu5",
}


def test_create_on_demand_picks_gpu_image_and_waits_until_running(credentials, replay):
    replay.expect("list_images_gpu", "create_instance_on_demand")
    replay.expect("get_instance_starting", "get_instance_running")

    result = BccInstanceProvider().create(dict(PROPS))

    replay.verify()
    assert result.id == INSTANCE
    outs = result.outs
    assert (outs["instance_id"], outs["internal_ip"]) == (INSTANCE, "10.0.0.12")
    assert outs["status"] == "Running"
    assert outs["boot_image_id"] == "m-Ub22gPu5"
    assert "__provider" not in result.outs and result.outs["spec"] == PROPS["spec"]
    images, create = replay.requests[0], replay.requests[1]
    assert images.query["imageType"] == ["GpuBccSystem"]
    assert create.host == "bcc.bj.baidubce.com" and create.headers["Host"] == "bcc.bj.baidubce.com"
    assert create.headers["Authorization"].startswith(f"bce-auth-v1/{ACCESS_KEY}/")
    assert "clientToken" in create.query
    body = create.body
    assert body["imageId"] == "m-Ub22gPu5"  # newest Available Ubuntu (24.04 is still Creating)
    keys = ("spec", "zoneName", "subnetId", "securityGroupIds", "purchaseCount")
    placed = {k: body[k] for k in keys}
    assert placed == {
        "spec": PROPS["spec"],
        "zoneName": "cn-bj-a",
        "subnetId": "sbn-q3rd8w1mzx6c",
        "securityGroupIds": ["g-7dyv27r6pnse"],
        "purchaseCount": 1,
    }
    assert body["deployIdList"] == ["dset-y4tumnel"] and body["ehcClusterId"] == "ehc-bk4hHtvP"
    assert body["keypairId"] == "k-3uC6fZpB" and body["hostname"] == "c-node-0"
    assert body["billing"]["paymentTiming"] == "Postpaid"
    assert body["tags"] == [
        {"tagKey": "trainstack-cluster", "tagValue": "c"},
        {"tagKey": "trainstack-provider", "tagValue": "baiducloud"},
    ]
    assert "bidModel" not in body and "bidPrice" not in body
    assert "adminPass" not in body


@pytest.mark.parametrize(
    ("bid", "expected"),
    [
        pytest.param({"bid_model": "market"}, {"bidModel": "market"}, id="market"),
        pytest.param(
            {"bid_model": "custom", "bid_price": "0.05"}, {"bidModel": "custom", "bidPrice": "0.05"}, id="custom"
        ),
    ],
)
def test_create_spot_sends_bid_model_and_price(credentials, replay, bid, expected):
    replay.expect("create_instance_spot", "get_instance_spot_running")

    result = BccInstanceProvider().create({**PROPS, "image_id": "m-Ub22gPu5", **bid})

    replay.verify()
    assert result.id == "i-sPt2bQ7d" and result.outs["internal_ip"] == "10.0.0.13"
    body = replay.requests[0].body
    assert {k: body.get(k) for k in ("bidModel", "bidPrice")} == {"bidPrice": None, **expected}
    assert body["billing"]["paymentTiming"] == "Postpaid"  # a spot instance is a postpaid bid


def test_create_without_credentials_fails_in_one_line_before_any_request(monkeypatch, replay):
    monkeypatch.delenv("BCE_ACCESS_KEY_ID", raising=False)
    monkeypatch.delenv("BCE_SECRET_ACCESS_KEY", raising=False)

    with pytest.raises(MissingCredentialsError) as error:
        BccInstanceProvider().create(dict(PROPS))

    assert "BCE_ACCESS_KEY_ID and BCE_SECRET_ACCESS_KEY" in str(error.value)
    assert "\n" not in str(error.value)
    assert replay.sockets == []


def test_api_error_becomes_one_clear_line(credentials, replay):
    replay.expect("create_instance_error")

    with pytest.raises(BaiduApiError) as error:
        BccInstanceProvider().create({**PROPS, "image_id": "m-Ub22gPu5"})

    replay.verify()
    assert str(error.value) == (
        "Baidu CreateInstanceBySpec failed: HTTP 400 InappropriateJSON: The JSON you provided was "
        "well-formed and valid, but not appropriate for this operation. "
        "(request id e5b0c3d2-8a41-4f6e-9b27-1d3c5e7f9a10)"
    )
    failure = error.value
    assert (failure.status, failure.code, failure.not_found) == (400, "InappropriateJSON", False)


def test_instance_that_fails_to_start_is_released(credentials, replay):
    replay.expect("create_instance_on_demand", "get_instance_error_status", "release_instance")

    with pytest.raises(RuntimeError, match=f"instance {INSTANCE} entered status Error"):
        BccInstanceProvider().create({**PROPS, "image_id": "m-Ub22gPu5"})

    replay.verify()
    assert replay.requests[-1].method == "DELETE"


def test_read_reports_live_name_tags_and_ip(credentials, replay):
    replay.expect("get_instance_renamed")

    result = BccInstanceProvider().read(INSTANCE, dict(STATE))

    replay.verify()
    assert result.id == INSTANCE
    assert result.outs["name"] == "renamed-in-console" and result.outs["tags"] == {"team": "vision"}
    assert result.outs["internal_ip"] == "10.0.0.12" and result.outs["status"] == "Running"
    diff = BccInstanceProvider().diff(INSTANCE, result.outs, dict(PROPS))
    assert (diff.changes, diff.replaces) == (True, [])  # drift is put back in place


def test_read_of_a_released_instance_reports_it_gone(credentials, replay):
    replay.expect("get_instance_not_found")

    result = BccInstanceProvider().read(INSTANCE, dict(STATE))

    assert (result.id, result.outs) == ("", {})


def test_delete_releases_and_waits_until_gone(credentials, replay):
    replay.expect("release_instance", "get_instance_not_found")

    BccInstanceProvider().delete(INSTANCE, dict(STATE))

    replay.verify()
    assert [r.method for r in replay.requests] == ["DELETE", "GET"]


def test_update_renames_and_retags_in_place(credentials, replay):
    replay.expect("modify_instance_name", "unbind_instance_tags", "bind_instance_tags")
    olds = {**STATE, "tags": {"team": "vision", "owner": "ana"}}
    news = {**PROPS, "name": "c-node-0b", "tags": {"team": "speech", "owner": "ana", "cost": "q4"}}

    result = BccInstanceProvider().update(INSTANCE, olds, news)

    replay.verify()
    rename, unbind, bind = replay.requests
    assert "modifyAttribute" in rename.query and rename.body["name"] == "c-node-0b"
    assert "unbind" in unbind.query
    assert unbind.body["changeTags"] == [{"tagKey": "team", "tagValue": "vision"}]
    assert "bind" in bind.query and bind.body["changeTags"] == [
        {"tagKey": "cost", "tagValue": "q4"},
        {"tagKey": "team", "tagValue": "speech"},
    ]
    assert result.outs["instance_id"] == INSTANCE and result.outs["name"] == "c-node-0b"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        pytest.param({}, (False, []), id="unchanged"),
        pytest.param({"root_disk_size_gb": None}, (False, []), id="unset-stays-unset"),
        pytest.param({"name": "other"}, (True, []), id="name-updates"),
        pytest.param({"tags": {"team": "x"}}, (True, []), id="tags-update"),
        pytest.param({"spec": "bcc.hgn5IB.c116m978.4A100-80g"}, (True, ["spec"]), id="spec"),
        pytest.param({"bid_model": "market"}, (True, ["bid_model"]), id="purchase-replaces"),
        pytest.param({"zone": "cn-bj-b"}, (True, ["zone"]), id="zone-replaces"),
        pytest.param({"subnet_id": rpc.UNKNOWN}, (True, ["subnet_id"]), id="unknown-subnet"),
    ],
)
def test_diff_updates_name_and_tags_and_replaces_the_rest(change, expected):
    result = BccInstanceProvider().diff(INSTANCE, dict(STATE), {**PROPS, **change})

    assert (result.changes, result.replaces) == expected
    # A replaced GPU node leaves before its successor comes (no doubled quota or capacity).
    assert result.delete_before_replace is bool(expected[1])


def test_diff_ignores_protobuf_number_widening():
    olds = {**STATE, "root_disk_size_gb": 100.0}
    news = {**PROPS, "root_disk_size_gb": 100}
    assert BccInstanceProvider().diff(INSTANCE, olds, news).changes is False


@pytest.mark.parametrize(
    ("change", "failing"),
    [
        pytest.param({"bid_model": "cheap"}, ["bid_model"], id="unknown-bid-model"),
        pytest.param({"bid_model": "custom"}, ["bid_price"], id="custom-without-price"),
        pytest.param({"bid_price": "0.05"}, ["bid_price"], id="price-without-custom"),
        pytest.param({"spec": ""}, ["spec"], id="missing-spec"),
        pytest.param({"subnet_id": rpc.UNKNOWN}, [], id="unknown-is-fine"),
    ],
)
def test_check_reports_bad_inputs(change, failing):
    result = BccInstanceProvider().check({}, {**PROPS, **change})
    assert [failure.property for failure in result.failures] == failing


def test_provider_pickles_by_reference_without_credentials(credentials):
    serialized = serialize_provider(BccInstanceProvider())
    raw = base64.b64decode(serialized)

    assert isinstance(dill.loads(raw), BccInstanceProvider)
    assert len(serialized) < 400
    assert ACCESS_KEY.encode() not in raw
