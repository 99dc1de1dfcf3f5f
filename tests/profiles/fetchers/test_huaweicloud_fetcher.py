"""Huawei BSS fetcher: recorded `ListOnDemandResourceRatings` answers replayed over HTTP to the
official SDK (`responses` intercepts its `requests` calls, so the SDK builds and signs each
real request) -> CNY-priced Offerings; each bad answer -> a one-line FetchError. Hand-checked prices are in
the comments; the fixtures and their provenance are in tests/profiles/fixtures/huaweicloud."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
import requests
import responses
from recorded_pages import cut_short, page_bytes, page_json
from responses import matchers

from clouds.huaweicloud.facts import FLAVOR_ACCELERATOR_COUNTS, flavor_family
from profiles.catalog.fetchers import FetchError, huaweicloud
from profiles.catalog.fetchers.huaweicloud_flavors import DEFAULT_REGIONS, FLAVORS, SOURCE
from profiles.catalog.loader import load_catalog
from profiles.catalog.rates import set_rate
from profiles.catalog.refresh import refresh
from tests.aws_live import copy_catalog, snapshot_files

ENV = {
    "HUAWEICLOUD_SDK_AK": "HPUAEXAMPLEAK0000001",
    "HUAWEICLOUD_SDK_SK": "ExampleSecretKey0000000000000000000000001",
    "HUAWEICLOUD_SDK_DOMAIN_ID": "0970dd7a1300f5672ff2c003c60ae115",
    "HUAWEICLOUD_SDK_PROJECT_ID": "0970d7b7f400f2602f0cc0030e7ff3a4",
}
URL = "https://bss.myhuaweicloud.com/v2/bills/ratings/on-demand-resources"
SIGNED = re.compile(
    r"SDK-HMAC-SHA256 Access=HPUAEXAMPLEAK0000001, SignedHeaders=(?P<signed>[a-z0-9;-]+), "
    r"Signature=[0-9a-f]{64}"
)
BY_NAME = {f.name: f for f in FLAVORS}
EAST = [BY_NAME["p3.16xlarge.8"], BY_NAME["p5s.20xlarge.12"], BY_NAME["p5s.40xlarge.12"]]


@pytest.fixture(autouse=True)
def credentials(monkeypatch):
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)


def ask(http: responses.RequestsMock, region: str, flavors=FLAVORS, name: str = "", **answer) -> None:
    """Expect one rating request for `flavors` in `region`; answer with a recorded file or `answer`."""
    body = {
        "project_id": ENV["HUAWEICLOUD_SDK_PROJECT_ID"],
        "inquiry_precision": 1,
        "product_infos": [huaweicloud.product_info(str(i), f.name, region) for i, f in enumerate(flavors, 1)],
    }
    reply = {"body": page_bytes("huaweicloud", name)} if name else {}
    http.add(responses.POST, URL, match=[matchers.json_params_matcher(body)], **{**reply, **answer})


def fetch(regions=("cn-north-4",), flavors=FLAVORS, lines=None):
    return huaweicloud.fetch(list(regions), (lines if lines is not None else []).append, flavors=flavors)


def one_line_error(regions=("cn-north-4",), flavors=FLAVORS) -> str:
    with pytest.raises(FetchError) as error:
        fetch(regions, flavors)
    message = str(error.value)
    assert "\n" not in message and ENV["HUAWEICLOUD_SDK_SK"] not in message
    return message


def test_one_region_prices_every_flavor_at_the_official_list_price(http):
    ask(http, "cn-north-4", name="cn-north-4_ratings.json")
    lines: list[str] = []
    rows = {o.instance_type: o for o in fetch(lines=lines)}
    assert sorted(rows) == sorted(BY_NAME)
    p3 = rows["p3.16xlarge.8"]
    # official_website_amount 280.8 CNY for 1 instance x 1 hour; `amount` 252.72 is this
    # account's 10 % commercial discount (discount_type 605) and is not a list price.
    assert (p3.on_demand_native, p3.currency, p3.on_demand_usd_per_hour, p3.spot_native) == (280.8, "CNY", None, None)
    assert (p3.region, p3.zone, p3.source, p3.price_note) == ("cn-north-4", "cn-north-4", SOURCE, "")
    assert (p3.accelerator, p3.accelerator_count, p3.accelerator_memory_gib, p3.form_factor) == (
        "A100-80GB",
        8,
        80.0,
        None,
    )
    assert (p3.vcpus, p3.memory_gib, p3.network_gbps, p3.interconnect) == (64.0, 512.0, 36.0, "ethernet")
    pi5e = rows["pi5e.24xlarge.4"]  # 6 x L4 24 GiB PCIe, 96 vCPU / 384 GiB, 40 Gbit/s max
    assert (pi5e.on_demand_native, pi5e.accelerator_count, pi5e.accelerator_memory_gib, pi5e.form_factor) == (
        61.2,
        6,
        24.0,
        "PCIe",
    )
    assert rows["p5s.40xlarge.12"].on_demand_native == 352.0 and rows["pi2.2xlarge.4"].on_demand_native == 9.48
    assert p3.catalog_date == dt.date.today().isoformat()
    assert lines == ["huaweicloud cn-north-4: 9 of 9 flavors priced"]


def test_the_request_is_signed_for_the_global_bss_endpoint(http):
    ask(http, "cn-north-4", name="cn-north-4_ratings.json")
    fetch()
    headers = http.calls[0].request.headers
    # BSS is global: the account (domain) ID travels in X-Domain-Id and is signed with the date.
    assert headers["X-Domain-Id"] == ENV["HUAWEICLOUD_SDK_DOMAIN_ID"]
    sent = dt.datetime.strptime(headers["X-Sdk-Date"], "%Y%m%dT%H%M%SZ").replace(tzinfo=dt.timezone.utc)
    assert abs(dt.datetime.now(dt.timezone.utc) - sent) < dt.timedelta(minutes=5)
    signed = SIGNED.fullmatch(headers["Authorization"])
    assert signed, headers["Authorization"]
    assert {"host", "x-domain-id", "x-sdk-date"} <= set(signed["signed"].split(";"))
    assert ENV["HUAWEICLOUD_SDK_SK"] not in str(headers)


def test_a_flavor_not_sold_in_the_region_is_skipped_after_asking_one_at_a_time(http):
    ask(http, "cn-east-3", EAST, "not_sold.json", status=400)
    ask(http, "cn-east-3", EAST[:1], "cn-east-3_p3.16xlarge.8.json")
    ask(http, "cn-east-3", EAST[1:2], "cn-east-3_p5s.20xlarge.12.json")
    ask(http, "cn-east-3", EAST[2:], "not_sold.json", status=400)
    lines: list[str] = []
    rows = fetch(["cn-east-3"], EAST, lines)
    assert [(o.instance_type, o.on_demand_native) for o in rows] == [
        ("p3.16xlarge.8", 283.6),
        ("p5s.20xlarge.12", 180.4),
    ]
    assert lines == [
        "huaweicloud cn-east-3: a flavor is not sold here; asking one flavor at a time",
        "huaweicloud cn-east-3: p5s.40xlarge.12 not sold (BSS: product not found); skipped",
        "huaweicloud cn-east-3: 2 of 3 flavors priced",
    ]


def test_nothing_sold_anywhere_is_an_error(http):
    ask(http, "cn-east-3", EAST[2:], "not_sold.json", status=400)  # a single flavor is not asked twice
    assert one_line_error(["cn-east-3"], EAST[2:]) == (
        "Huawei BSS ListOnDemandResourceRatings: none of 1 GPU flavors is sold in cn-east-3; check the region names"
    )


def test_no_region_list_asks_the_mainland_ecs_regions():
    assert huaweicloud.check_regions(None) == list(DEFAULT_REGIONS)
    assert huaweicloud.check_regions(["cn-north-4", "cn-north-4"]) == ["cn-north-4"]


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        pytest.param(
            {"name": "throttled.json", "status": 429},
            "throttled (HTTP 429, APIG.0308); wait a minute and run the refresh again",
            id="throttled-429",
        ),
        pytest.param(
            {"body": "Service Unavailable", "status": 503},
            "throttled (HTTP 503); wait a minute and run the refresh again",
            id="unavailable-503",
        ),
        pytest.param(
            {"body": "<html><body>502 Bad Gateway</body></html>", "status": 502},
            "HTTP 502; retry later",
            id="html-error-page",
        ),
        pytest.param(
            {"body": requests.exceptions.ConnectionError("connection refused")},
            "request failed (ConnectionError); check the network and retry",
            id="refused",
        ),
        pytest.param(
            {"name": "auth_failed.json", "status": 401},
            "authentication refused (HTTP 401, APIG.0301); check HUAWEICLOUD_SDK_AK/SK and HUAWEICLOUD_SDK_DOMAIN_ID",
            id="auth",
        ),
        pytest.param(
            {"name": "access_denied.json", "status": 403},
            "access denied (HTTP 403, CBC.0151: user access "
            "denied.checkCustomerPermission,correct permission code is billing:contract:viewDiscount); grant the "
            "IAM user BSS read access",
            id="forbidden",
        ),
        pytest.param(
            {
                "json": {"error_code": "APIGW.0303", "error_msg": "Incorrect app authentication information"},
                "status": 401,
            },
            "signature time refused (HTTP 401, APIGW.0303); set this machine's clock and retry",
            id="clock-skew",
        ),
        pytest.param(
            {"name": "cn-north-4_partial.json"},
            "answered ids ['1', '2', '3', '4', '5', '6', '7'] for ['1', '2', "
            "'3', '4', '5', '6', '7', '8', '9'] asked (partial answer); retry",
            id="partial-answer",
        ),
        pytest.param(
            cut_short(page_bytes("huaweicloud", "cn-north-4_ratings.json"), 900),
            "the answer broke off (partial answer); run the refresh again",
            id="broken-transfer",
        ),
        pytest.param(
            {"body": page_bytes("huaweicloud", "cn-north-4_ratings.json")[:900]},
            "the answer is not a JSON object (malformed or cut short); retry",
            id="malformed-json",
        ),
        pytest.param({"name": "empty.json"}, "no prices in the answer (empty answer); retry later", id="empty"),
        pytest.param(
            {"json": {"error_code": "CBC.0100", "error_msg": "Invalid parameter."}, "status": 400},
            "HTTP 400, CBC.0100 (Invalid parameter.); retry later",
            id="bad-request",
        ),
    ],
)
def test_each_bad_answer_is_a_one_line_error(http, answer, message):
    name = answer.pop("name", "")
    ask(http, "cn-north-4", name=name, **answer)
    assert one_line_error() == f"Huawei BSS ListOnDemandResourceRatings, cn-north-4: {message}"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param({"currency": "USD"}, "prices came in USD, not CNY; use the China-site endpoint", id="usd"),
        pytest.param(
            {"product_rating_results": None},
            "no 'product_rating_results' list (malformed answer); retry",
            id="no-results",
        ),
        pytest.param(
            {"official_website_amount": "280.8"},
            "product 6 has no positive official_website_amount ('280.8'; malformed); retry",
            id="string-amount",
        ),
        pytest.param(
            {"official_website_amount": 0},
            "product 6 has no positive official_website_amount (0; malformed); retry",
            id="zero-amount",
        ),
        pytest.param({"measure_id": 3}, "product 6 is priced in measure 3, not yuan (1)", id="not-yuan"),
    ],
)
def test_malformed_fields_are_refused(http, change, message):
    body = page_json("huaweicloud", "cn-north-4_ratings.json")
    if "currency" in change or "product_rating_results" in change:
        body.update(change)
    else:
        body["product_rating_results"][5].update(change)  # p3.16xlarge.8
    ask(http, "cn-north-4", json=body)
    assert one_line_error() == f"Huawei BSS ListOnDemandResourceRatings, cn-north-4: {message}"


def test_missing_credentials_name_the_variables(monkeypatch):
    monkeypatch.delenv("HUAWEICLOUD_SDK_SK")
    monkeypatch.delenv("HUAWEICLOUD_SDK_DOMAIN_ID")
    assert one_line_error() == (
        "Huawei Cloud credentials missing: set HUAWEICLOUD_SDK_SK, HUAWEICLOUD_SDK_DOMAIN_ID "
        "(AK/SK, account ID, any project ID of the account)"
    )


def test_a_display_name_is_not_a_region():
    assert one_line_error(["CN North-Beijing4"]) == (
        "'CN North-Beijing4' is not a Huawei Cloud region ID; use IDs such as cn-north-4"
    )


def test_flavor_table_agrees_with_the_cluster_component_facts():
    assert {f.name: f.gpus for f in FLAVORS} == FLAVOR_ACCELERATOR_COUNTS
    for flavor in FLAVORS:
        assert flavor.accelerator in flavor_family(flavor.name).accelerators


TODAY = "2026-11-29"


def test_refresh_writes_cny_rows_into_a_copy_of_the_catalog(http, tmp_path):
    data = copy_catalog(tmp_path)
    others = {name: (data / name).read_bytes() for name in ("aws.csv", "gcp.csv")}
    ask(http, "cn-north-4", name="cn-north-4_ratings.json")
    summary = refresh("huaweicloud", ["cn-north-4"], data, lambda _: None, TODAY)
    assert (summary.rows, summary.added, summary.removed, summary.snapshot) == (9, 9, 0, None)
    assert {name: (data / name).read_bytes() for name in others} == others
    assert (
        "huaweicloud,cn-north-4,cn-north-4,p3.16xlarge.8,A100-80GB,8,80.0,,64.0,512.0,ethernet,0,36.0,,,"
        f"{TODAY},{SOURCE},,,CNY,280.8,,"
    ) in (data / "huaweicloud.csv").read_text().splitlines()
    meta = json.loads((data / "catalog.json").read_text())
    assert meta["sources"]["huaweicloud"]["refreshed"]["source"] == SOURCE
    assert load_catalog(data).left_out == {"CNY": 9}  # no USD/CNY rate recorded yet
    set_rate(data, "CNY", 7.2, TODAY, "test rate", today=dt.date(2026, 11, 29))
    p3 = next(o for o in load_catalog(data).offerings if o.instance_type == "p3.16xlarge.8")
    assert (p3.on_demand_native, p3.on_demand_usd_per_hour) == (280.8, 39.0)  # 280.8 CNY / 7.2 CNY per USD


def test_a_refresh_throttled_mid_way_changes_no_byte(http, tmp_path):
    data = copy_catalog(tmp_path)
    before = snapshot_files(data)
    ask(http, "cn-north-4", name="cn-north-4_ratings.json")
    ask(http, "cn-east-3", name="throttled.json", status=429)
    with pytest.raises(FetchError, match="cn-east-3: throttled"):
        refresh("huaweicloud", ["cn-north-4", "cn-east-3"], data, lambda _: None, TODAY)
    assert snapshot_files(data) == before


def test_credentials_never_print_the_secret_key():
    from profiles.catalog.fetchers.huaweicloud_bss import Credentials as Huawei
    from profiles.catalog.fetchers.volcengine_billing import Credentials as Volcengine

    for credentials in (Huawei("AK1", "SECRET-SK", "domain", "project"), Volcengine("AK1", "SECRET-SK")):
        assert "SECRET-SK" not in repr(credentials) and "AK1" in repr(credentials)
        assert credentials.sk == "SECRET-SK"
