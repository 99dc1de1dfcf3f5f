"""Tencent CVM price fetcher: recorded DescribeZoneInstanceConfigInfos answers replayed over
HTTP to the official SDK (`responses` intercepts its `requests` calls, so the SDK builds and
signs each real request) -> CNY Offerings per zone; each bad answer -> a one-line FetchError.
Hand-checked prices in the comments; fixture provenance in fixtures/tencentcloud/README.md."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
import requests
import responses
from recorded_pages import credentials, cut_short, page_bytes, page_json
from responses import matchers

from profiles.catalog.fetchers import FetchError, tencentcloud
from profiles.catalog.refresh import validate
from tests.profiles.known_rows import GT4_41XLARGE948, hardware

URL = "https://cvm.tencentcloudapi.com/"
FAMILIES = list(tencentcloud.FAMILIES)
TC3 = re.compile(
    r"TC3-HMAC-SHA256 Credential=AKID-test-id/(?P<date>\d{4}-\d{2}-\d{2})/cvm/tc3_request, "
    r"SignedHeaders=content-type;host, Signature=[0-9a-f]{64}"
)


api_key = credentials(TENCENTCLOUD_SECRET_ID="AKID-test-id", TENCENTCLOUD_SECRET_KEY="test-key-not-real")


def answer(http: responses.RequestsMock, charge: str, region: str = "ap-beijing", **reply) -> None:
    body = {
        "Filters": [
            {"Name": "instance-family", "Values": FAMILIES},
            {"Name": "instance-charge-type", "Values": [charge]},
        ]
    }
    headers = {"X-TC-Action": "DescribeZoneInstanceConfigInfos", "X-TC-Region": region, "X-TC-Version": "2017-03-12"}
    http.add(responses.POST, URL, match=[matchers.header_matcher(headers), matchers.json_params_matcher(body)], **reply)


def recorded(name: str) -> dict:
    return {"body": page_bytes("tencentcloud", name), "content_type": "application/json"}


def both(http: responses.RequestsMock, spot: dict | None = None) -> None:
    answer(http, "POSTPAID_BY_HOUR", **recorded("zone_configs_postpaid_ap_beijing.json"))
    answer(http, "SPOTPAID", **(spot or recorded("zone_configs_spotpaid_ap_beijing.json")))


def fetch_one_line_error(regions=("ap-beijing",)) -> str:
    with pytest.raises(FetchError) as error:
        tencentcloud.fetch(list(regions), lambda _: None)
    message = str(error.value)
    assert "\n" not in message and "test-key-not-real" not in message
    return message


def test_recorded_answers_become_cny_offerings_per_zone(http):
    both(http)
    lines: list[str] = []
    rows = {(o.instance_type, o.zone): o for o in tencentcloud.fetch(["ap-beijing"], lines.append)}
    # Skipped: GT4.41XLARGE948 in ap-beijing-6 (SOLD_OUT), GN7.LARGE20 (a quarter of a T4).
    assert sorted(rows) == [
        ("GN10Xp.20XLARGE320", "ap-beijing-7"),
        ("GN7.2XLARGE32", "ap-beijing-7"),
        ("GT4.41XLARGE948", "ap-beijing-5"),
        ("GT4.4XLARGE96", "ap-beijing-5"),
    ]
    gt4 = rows[("GT4.41XLARGE948", "ap-beijing-5")]
    # On-demand: POSTPAID_BY_HOUR UnitPrice; spot: SPOTPAID UnitPriceDiscount (its UnitPrice is the list price).
    assert (gt4.on_demand_native, gt4.spot_native, gt4.currency) == (228.96, 45.79, "CNY")
    assert hardware(gt4) == GT4_41XLARGE948 and gt4.form_factor == "SXM"
    gn7 = rows[("GN7.2XLARGE32", "ap-beijing-7")]
    assert (gn7.on_demand_native, gn7.spot_native, gn7.accelerator) == (8.68, 1.74, "T4")
    assert rows[("GN10Xp.20XLARGE320", "ap-beijing-7")].spot_native is None  # spot 168.64 = on-demand
    assert rows[("GT4.4XLARGE96", "ap-beijing-5")].spot_native is None  # no SPOTPAID item
    assert {
        (o.provider, o.region, o.source, o.price_note, o.on_demand_usd_per_hour, o.catalog_date) for o in rows.values()
    } == {("tencentcloud", "ap-beijing", "tencentcloud-cvm-price-api", "", None, dt.date.today().isoformat())}
    assert lines == [
        "tencentcloud: ap-beijing POSTPAID_BY_HOUR: 6 items, 5 on sale",
        "tencentcloud: ap-beijing SPOTPAID: 5 items, 4 on sale",
        "tencentcloud: 4 offerings priced",
    ]
    validate("tencentcloud", ["ap-beijing"], list(rows.values()))  # the refresh accepts CNY-only rows


def test_requests_carry_the_common_headers_and_a_signature(http):
    both(http)
    tencentcloud.fetch(["ap-beijing"], lambda _: None)
    for call in http.calls:
        headers = call.request.headers
        signed = TC3.fullmatch(headers["Authorization"])
        assert signed, headers["Authorization"]  # the SDK signed it with the SecretId from the environment
        stamp = dt.datetime.fromtimestamp(int(headers["X-TC-Timestamp"]), dt.timezone.utc)
        assert signed["date"] == stamp.strftime("%Y-%m-%d")  # the credential scope is the request's day
        assert headers["Host"] == "cvm.tencentcloudapi.com" and "test-key-not-real" not in str(headers)


def test_missing_credentials_name_the_variables(monkeypatch):
    monkeypatch.delenv("TENCENTCLOUD_SECRET_ID")
    assert fetch_one_line_error() == (
        "Tencent Cloud prices need an API key: set TENCENTCLOUD_SECRET_ID and TENCENTCLOUD_SECRET_KEY "
        "(a CAM user allowed cvm:DescribeZoneInstanceConfigInfos)"
    )


def test_throttling_is_refused(http):
    answer(http, "POSTPAID_BY_HOUR", **recorded("request_limit_exceeded.json"))
    assert fetch_one_line_error() == (
        "Tencent Cloud CVM API, DescribeZoneInstanceConfigInfos POSTPAID_BY_HOUR in ap-beijing: "
        "throttled (RequestLimitExceeded); wait a minute and run the refresh again"
    )


def test_an_unknown_secret_id_is_an_auth_error(http):
    answer(http, "POSTPAID_BY_HOUR", **recorded("auth_failure_secret_id_not_found.json"))
    assert fetch_one_line_error() == (
        "Tencent Cloud CVM API, DescribeZoneInstanceConfigInfos POSTPAID_BY_HOUR in ap-beijing: access denied "
        "(AuthFailure.SecretIdNotFound: The SecretId is not found, please ensure that your SecretId is correct.); "
        "check TENCENTCLOUD_SECRET_ID/TENCENTCLOUD_SECRET_KEY and that the CAM policy allows "
        "cvm:DescribeZoneInstanceConfigInfos"
    )


def test_an_answer_that_breaks_mid_transfer_is_partial(http):
    both(http, spot=cut_short(page_bytes("tencentcloud", "zone_configs_spotpaid_ap_beijing.json"), 3000))
    assert fetch_one_line_error() == (
        "Tencent Cloud CVM API, DescribeZoneInstanceConfigInfos SPOTPAID in ap-beijing: "
        "the answer broke off mid-page (partial page); run the refresh again"
    )


def test_an_http_error_page_is_not_shown(http):
    answer(
        http,
        "POSTPAID_BY_HOUR",
        status=502,
        body=b"<html><body>502 Bad Gateway</body></html>",
        content_type="text/html",
    )
    assert fetch_one_line_error() == (
        "Tencent Cloud CVM API, DescribeZoneInstanceConfigInfos POSTPAID_BY_HOUR in ap-beijing: "
        "an HTTP error without a Response object (ServerNetworkError); retry later"
    )


def test_a_connection_that_fails_is_a_network_error(http):
    answer(http, "POSTPAID_BY_HOUR", body=requests.exceptions.ConnectionError("connection refused"))
    assert fetch_one_line_error().endswith(
        "POSTPAID_BY_HOUR in ap-beijing: request failed (ClientNetworkError); check the network and retry"
    )


def test_an_item_without_its_price_is_partial(http):
    body = page_json("tencentcloud", "zone_configs_spotpaid_ap_beijing.json")
    del body["Response"]["InstanceTypeQuotaSet"][2]["Price"]
    both(http, spot={"json": body})
    assert fetch_one_line_error().endswith(
        "SPOTPAID in ap-beijing: an item lacks Zone, InstanceType or Price (partial or malformed answer); "
        "run the refresh again"
    )


def test_malformed_json_is_refused(http):
    answer(http, "POSTPAID_BY_HOUR", body=page_bytes("tencentcloud", "zone_configs_postpaid_ap_beijing.json")[:500])
    assert fetch_one_line_error() == (
        "Tencent Cloud CVM API, DescribeZoneInstanceConfigInfos POSTPAID_BY_HOUR in ap-beijing: no Response object "
        "in the answer (malformed, HTTP 200); run the refresh again"
    )


def test_a_price_per_other_unit_is_refused(http):
    body = page_json("tencentcloud", "zone_configs_postpaid_ap_beijing.json")
    body["Response"]["InstanceTypeQuotaSet"][0]["Price"]["ChargeUnit"] = "MONTH"
    both(http, spot=None)
    http.replace(responses.POST, URL, json=body)
    assert "GT4.4XLARGE96 in ap-beijing-5 is priced per 'MONTH', expected HOUR (malformed)" in fetch_one_line_error()


def test_regions_without_gpu_types_are_an_empty_answer(http):
    for region in ("ap-nanjing", "ap-chengdu"):
        for charge in ("POSTPAID_BY_HOUR", "SPOTPAID"):
            answer(http, charge, region, **recorded("zone_configs_empty.json"))
    assert fetch_one_line_error(["ap-nanjing", "ap-chengdu"]) == (
        "Tencent Cloud CVM API: no GT4, GN10Xp, GN10X, GN7, HCCPNV4h, HCCPNV4s, HCCG5v type is on sale in "
        "ap-nanjing, ap-chengdu (empty answer); check the regions"
    )


def test_a_display_name_is_not_a_region():
    assert fetch_one_line_error(["Beijing"]) == "'Beijing' is not a Tencent Cloud region id; use ids such as ap-beijing"


def test_the_body_is_the_signed_payload(http):
    both(http)
    tencentcloud.fetch(["ap-beijing"], lambda _: None)
    second = json.loads(http.calls[1].request.body)
    assert second["Filters"][1] == {"Name": "instance-charge-type", "Values": ["SPOTPAID"]}
