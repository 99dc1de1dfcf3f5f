"""Baidu BCC price fetcher: recorded flavorSpec and instance-price answers replayed over HTTP from
a loopback server to the official bce-python-sdk (it speaks http.client, so `responses` cannot
intercept it; the SDK is pointed at the server and sends its real, signed requests) -> CNY
Offerings per zone; each bad answer -> a one-line FetchError. Hand-checked prices in the
comments; fixture provenance in fixtures/baiducloud/README.md."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from loopback import Replayer, Reply, closed_port_url
from recorded_pages import credentials, page_bytes, page_json

from profiles.catalog.fetchers import FetchError, baiducloud
from profiles.catalog.fetchers.baiducloud_api import endpoint_for
from profiles.catalog.refresh import validate

A100 = "bcc.hgn5IB.c116m978.8A100-80g"
SIGNED = re.compile(r"bce-auth-v1/test-ak/(?P<time>[0-9T:-]+Z)/1800/(?P<signed>[a-z0-9;-]*)/[0-9a-f]{64}")


access_key = credentials(BCE_ACCESS_KEY_ID="test-ak", BCE_SECRET_ACCESS_KEY="test-sk-not-real")


def recorded(name: str, status: int = 200) -> Reply:
    return Reply(page_bytes("baiducloud", name), status)


def flavors(loopback: Replayer, reply: Reply | None = None) -> None:
    loopback.add("GET", "/v2/instance/flavorSpec", reply or recorded("flavor_spec_bj.json"))


def price(loopback: Replayer, zone: str, reply: Reply) -> None:
    body = {
        "specId": "hgn5IB",
        "spec": A100,
        "paymentTiming": "Postpaid",
        "zoneName": zone,
        "purchaseCount": 1,
        "purchaseLength": 1,
    }
    loopback.add("POST", "/v2/instance/price", reply, match=lambda request: request.json() == body)


def all_answers(loopback: Replayer, zone_d: Reply | None = None) -> None:
    flavors(loopback)
    price(loopback, "cn-bj-a", recorded("price_hgn5ib_cn_bj_a.json"))
    price(loopback, "cn-bj-d", zone_d or recorded("price_hgn5ib_cn_bj_d.json"))


def fetch_one_line_error(regions=("bj",), endpoint: str | None = None) -> str:
    with pytest.raises(FetchError) as error:
        baiducloud.fetch(list(regions), lambda _: None, endpoint=endpoint)
    message = str(error.value)
    assert "\n" not in message and "test-sk-not-real" not in message
    return message


def test_each_region_has_its_own_endpoint():
    assert [endpoint_for(r) for r in baiducloud.DEFAULT_REGIONS] == [
        "bcc.bj.baidubce.com",
        "bcc.gz.baidubce.com",
        "bcc.su.baidubce.com",
    ]


def test_recorded_answers_become_cny_offerings_per_zone(loopback):
    all_answers(loopback)
    lines: list[str] = []
    rows = {o.zone: o for o in baiducloud.fetch(["bj"], lines.append, endpoint=loopback.url)}
    # L20 (unknown card), the Prepaid-only V100 and the CPU spec g5 are skipped.
    assert sorted(rows) == ["cn-bj-a", "cn-bj-d"] and {o.instance_type for o in rows.values()} == {A100}
    a = rows["cn-bj-a"]
    assert a.on_demand_native == 186.15  # specPrice 3.1025 CNY/minute x 60; tradePrice (2.79225 in cn-bj-d) unused
    assert rows["cn-bj-d"].on_demand_native == 186.15
    assert (
        a.accelerator,
        a.accelerator_count,
        a.accelerator_memory_gib,
        a.vcpus,
        a.memory_gib,
        a.interconnect,
        a.network_gbps,
    ) == ("A100-80GB", 8, 80, 116.0, 978.0, "infiniband", 100.0)
    assert (a.currency, a.spot_native, a.on_demand_usd_per_hour, a.source, a.region) == (
        "CNY",
        None,
        None,
        "baiducloud-bcc-price-api",
        "bj",
    )
    assert a.price_note.startswith("unit assumed: the Postpaid specPrice is read as CNY per minute")
    assert lines == [
        "baiducloud: bj: 2 zones, 2 pay-as-you-go GPU specs with a known card",
        "baiducloud: 2 offerings priced",
    ]
    validate("baiducloud", ["bj"], list(rows.values()))


def test_requests_are_signed_with_the_key(loopback):
    all_answers(loopback)
    baiducloud.fetch(["bj"], lambda _: None, endpoint=loopback.url)
    assert [(r.method, r.path) for r in loopback.calls] == [("GET", "/v2/instance/flavorSpec")] + [
        ("POST", "/v2/instance/price")
    ] * 2
    for request in loopback.calls:
        signed = SIGNED.fullmatch(request.headers["authorization"])
        assert signed, request.headers["authorization"]
        assert signed["time"] == request.headers["x-bce-date"]  # signed at the time it states
        sent = dt.datetime.strptime(signed["time"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)
        assert abs(dt.datetime.now(dt.timezone.utc) - sent) < dt.timedelta(minutes=5)
        # An empty list names BCE's default set (host, content-*, x-bce-*), which the SDK signs.
        assert not signed["signed"] or {"host", "x-bce-date"} <= set(signed["signed"].split(";"))
        assert "test-sk-not-real" not in json.dumps(request.headers)


def test_a_refused_connection_is_a_network_error():
    assert fetch_one_line_error(endpoint=closed_port_url()) == (
        "Baidu AI Cloud BCC API, flavorSpec in bj: request failed (ConnectionRefusedError); check the network and retry"
    )


def test_an_http_error_page_is_not_shown(loopback):
    flavors(loopback, Reply(b"<html><body>502 Bad Gateway</body></html>", 502, "text/html"))
    assert fetch_one_line_error(endpoint=loopback.url) == (
        "Baidu AI Cloud BCC API, flavorSpec in bj: the answer is not a JSON object (malformed, HTTP 502); "
        "run the refresh again"
    )


def test_missing_credentials_name_the_variables(monkeypatch):
    monkeypatch.delenv("BCE_ACCESS_KEY_ID")
    assert fetch_one_line_error() == (
        "Baidu AI Cloud prices need an access key: set BCE_ACCESS_KEY_ID and BCE_SECRET_ACCESS_KEY "
        "(an IAM user that may read BCC specs and prices)"
    )


def test_throttling_is_refused(loopback):
    flavors(loopback, Reply(b"Too Many Requests", 429, "text/plain"))
    assert fetch_one_line_error(endpoint=loopback.url) == (
        "Baidu AI Cloud BCC API, flavorSpec in bj: throttled (HTTP 429); wait a minute and run the refresh again"
    )


def test_an_unknown_access_key_is_an_auth_error(loopback):
    flavors(loopback, recorded("invalid_access_key_id.json", 403))
    assert fetch_one_line_error(endpoint=loopback.url) == (
        "Baidu AI Cloud BCC API, flavorSpec in bj: access denied (InvalidAccessKeyId: The Access Key ID you provided "
        "does not exist in our records.); check BCE_ACCESS_KEY_ID/BCE_SECRET_ACCESS_KEY and the IAM policy "
        "(BCC read access)"
    )


def test_another_api_error_names_its_code(loopback):
    all_answers(loopback, zone_d=recorded("internal_error.json", 500))
    assert fetch_one_line_error(endpoint=loopback.url) == (
        f"Baidu AI Cloud BCC API, price of {A100} in cn-bj-d: HTTP 500 InternalError: "
        "We encountered an internal error Please try again.; retry later"
    )


def test_an_answer_that_breaks_mid_transfer_is_partial(loopback):
    flavors(loopback, Reply(page_bytes("baiducloud", "flavor_spec_bj.json"), cut_after=1200))
    assert fetch_one_line_error(endpoint=loopback.url) == (
        "Baidu AI Cloud BCC API, flavorSpec in bj: the answer broke off mid-page (partial page); run the refresh again"
    )


def test_a_flavor_without_its_name_is_partial(loopback):
    body = page_json("baiducloud", "flavor_spec_bj.json")
    del body["zoneResources"][1]["bccResources"]["flavorGroups"][1]["flavors"][0]["spec"]
    flavors(loopback, Reply(json.dumps(body).encode()))
    assert fetch_one_line_error(endpoint=loopback.url) == (
        "Baidu AI Cloud BCC API, flavorSpec in bj: a zone or flavor lacks its name (partial or malformed answer); "
        "run the refresh again"
    )


def test_malformed_json_is_refused(loopback):
    flavors(loopback, Reply(page_bytes("baiducloud", "flavor_spec_bj.json")[:400]))
    assert fetch_one_line_error(endpoint=loopback.url) == (
        "Baidu AI Cloud BCC API, flavorSpec in bj: the answer is not a JSON object (malformed, HTTP 200); "
        "run the refresh again"
    )


def test_a_price_answer_without_the_spec_is_refused(loopback):
    all_answers(loopback, zone_d=recorded("price_empty.json"))
    assert fetch_one_line_error(endpoint=loopback.url) == (
        f"Baidu AI Cloud BCC API, price of {A100} in cn-bj-d: no specPrices entry for the spec "
        "(malformed or empty answer); run the refresh again"
    )


def test_a_region_without_gpu_specs_is_an_empty_answer(loopback):
    flavors(loopback, recorded("flavor_spec_empty.json"))
    assert fetch_one_line_error(endpoint=loopback.url) == (
        "Baidu AI Cloud BCC API: no GPU spec is sold pay-as-you-go in bj (empty answer); check the regions"
    )


def test_a_zone_name_is_not_a_region():
    assert fetch_one_line_error(["cn-bj-a"]) == "'cn-bj-a' is not a Baidu region id; write it like bj, gz or su"
