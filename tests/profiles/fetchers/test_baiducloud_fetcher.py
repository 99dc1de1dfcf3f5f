"""Baidu BCC price fetcher: recorded flavorSpec and instance-price answers replayed over HTTP ->
CNY Offerings per zone; each bad answer -> a one-line FetchError. Hand-checked prices in the
comments; fixture provenance in fixtures/baiducloud/README.md."""

from __future__ import annotations

import datetime as dt

import pytest
import responses
from baidubce.auth import bce_v1_signer
from baidubce.auth.bce_credentials import BceCredentials
from recorded_pages import cut_short, page_bytes, page_json
from responses import matchers

from profiles.catalog.fetchers import FetchError, baiducloud
from profiles.catalog.fetchers.baiducloud_api import Credentials, authorization, canonical_time
from profiles.catalog.refresh import validate

HOST = "https://bcc.bj.baidubce.com"
A100 = "bcc.hgn5IB.c116m978.8A100-80g"


@pytest.fixture(autouse=True)
def access_key(monkeypatch):
    monkeypatch.setenv("BCE_ACCESS_KEY_ID", "test-ak")
    monkeypatch.setenv("BCE_SECRET_ACCESS_KEY", "test-sk-not-real")


def recorded(name: str, status: int = 200) -> dict:
    return {"body": page_bytes("baiducloud", name), "status": status, "content_type": "application/json"}


def flavors(http: responses.RequestsMock, **reply) -> None:
    http.add(responses.GET, f"{HOST}/v2/instance/flavorSpec", **(reply or recorded("flavor_spec_bj.json")))


def price(http: responses.RequestsMock, zone: str, **reply) -> None:
    body = {"specId": "hgn5IB", "spec": A100, "paymentTiming": "Postpaid", "zoneName": zone,
            "purchaseCount": 1, "purchaseLength": 1}
    http.add(responses.POST, f"{HOST}/v2/instance/price", match=[matchers.json_params_matcher(body)], **reply)


def all_answers(http: responses.RequestsMock, zone_d: dict | None = None) -> None:
    flavors(http)
    price(http, "cn-bj-a", **recorded("price_hgn5ib_cn_bj_a.json"))
    price(http, "cn-bj-d", **(zone_d or recorded("price_hgn5ib_cn_bj_d.json")))


def fetch_one_line_error(regions=("bj",)) -> str:
    with pytest.raises(FetchError) as error:
        baiducloud.fetch(list(regions), lambda _: None)
    message = str(error.value)
    assert "\n" not in message and "test-sk-not-real" not in message
    return message


def test_the_signature_equals_the_official_sdk_signer():
    headers = {"host": "bcc.bj.baidubce.com", "x-bce-date": canonical_time(1796112000)}
    ours = authorization(Credentials("test-ak", "test-sk"), "POST", "/v2/instance/price", {"clientToken": "a b"},
                         headers, 1796112000)
    sdk = bce_v1_signer.sign(BceCredentials("test-ak", "test-sk"), b"POST", b"/v2/instance/price",
                             {k.encode(): v.encode() for k, v in headers.items()}, {b"clientToken": b"a b"},
                             timestamp=1796112000, headers_to_sign=[b"host", b"x-bce-date"])
    assert ours == sdk.decode()
    assert ours.startswith("bce-auth-v1/test-ak/2026-12-01T08:00:00Z/1800/host;x-bce-date/")


def test_recorded_answers_become_cny_offerings_per_zone(http):
    all_answers(http)
    lines: list[str] = []
    rows = {o.zone: o for o in baiducloud.fetch(["bj"], lines.append)}
    # L20 (unknown card), the Prepaid-only V100 and the CPU spec g5 are skipped.
    assert sorted(rows) == ["cn-bj-a", "cn-bj-d"] and {o.instance_type for o in rows.values()} == {A100}
    a = rows["cn-bj-a"]
    assert a.on_demand_native == 186.15  # specPrice 3.1025 CNY/minute x 60; tradePrice (2.79225 in cn-bj-d) unused
    assert rows["cn-bj-d"].on_demand_native == 186.15
    assert (a.accelerator, a.accelerator_count, a.accelerator_memory_gib, a.vcpus, a.memory_gib, a.interconnect,
            a.network_gbps) == ("A100-80GB", 8, 80, 116.0, 978.0, "infiniband", 100.0)
    assert (a.currency, a.spot_native, a.on_demand_usd_per_hour, a.source, a.region) == (
        "CNY", None, None, "baiducloud-bcc-price-api", "bj")
    assert a.price_note.startswith("unit assumed: the Postpaid specPrice is read as CNY per minute")
    assert lines == ["baiducloud: bj: 2 zones, 2 pay-as-you-go GPU specs with a known card",
                     "baiducloud: 2 offerings priced"]
    validate("baiducloud", ["bj"], list(rows.values()))


def test_requests_are_signed_with_the_key(http):
    all_answers(http)
    baiducloud.fetch(["bj"], lambda _: None)
    request = http.calls[1].request
    date = request.headers["x-bce-date"]
    stamp = int(dt.datetime.strptime(date, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc).timestamp())
    assert request.headers["Authorization"] == authorization(
        Credentials("test-ak", "test-sk-not-real"), "POST", "/v2/instance/price", {},
        {"host": "bcc.bj.baidubce.com", "x-bce-date": date}, stamp)


def test_missing_credentials_name_the_variables(monkeypatch):
    monkeypatch.delenv("BCE_ACCESS_KEY_ID")
    assert fetch_one_line_error() == (
        "Baidu AI Cloud prices need an access key: set BCE_ACCESS_KEY_ID and BCE_SECRET_ACCESS_KEY "
        "(an IAM user that may read BCC specs and prices)")


def test_throttling_is_refused(http):
    flavors(http, status=429, body="Too Many Requests")
    assert fetch_one_line_error() == (
        "Baidu AI Cloud BCC API, flavorSpec in bj: throttled (HTTP 429); wait a minute and run the refresh again")


def test_an_unknown_access_key_is_an_auth_error(http):
    flavors(http, **recorded("invalid_access_key_id.json", 403))
    assert fetch_one_line_error() == (
        "Baidu AI Cloud BCC API, flavorSpec in bj: access denied (InvalidAccessKeyId: The Access Key ID you provided "
        "does not exist in our records.); check BCE_ACCESS_KEY_ID/BCE_SECRET_ACCESS_KEY and the IAM policy "
        "(BCC read access)")


def test_another_api_error_names_its_code(http):
    all_answers(http, zone_d=recorded("internal_error.json", 500))
    assert fetch_one_line_error() == (
        f"Baidu AI Cloud BCC API, price of {A100} in cn-bj-d: HTTP 500 InternalError: "
        "We encountered an internal error Please try again.; retry later")


def test_an_answer_that_breaks_mid_transfer_is_partial(http):
    flavors(http, **cut_short(page_bytes("baiducloud", "flavor_spec_bj.json"), 1200))
    assert fetch_one_line_error() == (
        "Baidu AI Cloud BCC API, flavorSpec in bj: the answer broke off mid-page (partial page); run the refresh again")


def test_a_flavor_without_its_name_is_partial(http):
    body = page_json("baiducloud", "flavor_spec_bj.json")
    del body["zoneResources"][1]["bccResources"]["flavorGroups"][1]["flavors"][0]["spec"]
    flavors(http, json=body)
    assert fetch_one_line_error() == (
        "Baidu AI Cloud BCC API, flavorSpec in bj: a zone or flavor lacks its name (partial or malformed answer); "
        "run the refresh again")


def test_malformed_json_is_refused(http):
    flavors(http, body=page_bytes("baiducloud", "flavor_spec_bj.json")[:400])
    assert fetch_one_line_error() == (
        "Baidu AI Cloud BCC API, flavorSpec in bj: the answer is not a JSON object (malformed, HTTP 200); "
        "run the refresh again")


def test_a_price_answer_without_the_spec_is_refused(http):
    all_answers(http, zone_d=recorded("price_empty.json"))
    assert fetch_one_line_error() == (
        f"Baidu AI Cloud BCC API, price of {A100} in cn-bj-d: no specPrices entry for the spec "
        "(malformed or empty answer); run the refresh again")


def test_a_region_without_gpu_specs_is_an_empty_answer(http):
    flavors(http, **recorded("flavor_spec_empty.json"))
    assert fetch_one_line_error() == (
        "Baidu AI Cloud BCC API: no GPU spec is sold pay-as-you-go in bj (empty answer); check the regions")


def test_a_zone_name_is_not_a_region():
    assert fetch_one_line_error(["cn-bj-a"]) == "'cn-bj-a' is not a Baidu region id; write it like bj, gz or su"
