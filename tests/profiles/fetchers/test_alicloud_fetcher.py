"""Alibaba ECS price fetcher: recorded DescribePrice / DescribeSpotPriceHistory answers replayed
over HTTP to the official SDK (`responses` intercepts its `requests` calls, so the SDK builds
and signs each real request) -> CNY Offerings; each bad answer -> a one-line FetchError; one
refresh end to end.
Hand-checked prices are in the comments; fixture provenance in fixtures/alicloud/README.md."""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
from urllib.parse import parse_qsl, urlsplit

import pytest
import requests
import responses
from recorded_pages import credentials, cut_short, page_bytes, page_json
from responses import matchers

from profiles.catalog.fetchers import FetchError, alicloud
from profiles.catalog.loader import DATA_DIR, load_catalog, load_provider
from profiles.catalog.rates import set_rate
from profiles.catalog.refresh import refresh

GN7I, EBM = "ecs.gn7i-c8g1.2xlarge", "ecs.ebmgn7ex.32xlarge"
TYPES = [GN7I, EBM]
TODAY = "2026-12-01"
HARDWARE = (
    "accelerator",
    "accelerator_count",
    "accelerator_memory_gib",
    "vcpus",
    "memory_gib",
    "interconnect",
    "network_gbps",
)
ENDPOINT = "https://ecs.cn-beijing.aliyuncs.com/"  # the SDK's endpoint for cn-beijing
ACS3 = re.compile(
    r"ACS3-HMAC-SHA256 Credential=LTAI-test-id,SignedHeaders=(?P<signed>[a-z0-9;-]+),"
    r"Signature=[0-9a-f]{64}"
)


access_key = credentials(
    ALIBABA_CLOUD_ACCESS_KEY_ID="LTAI-test-id", ALIBABA_CLOUD_ACCESS_KEY_SECRET="test-secret-not-real"
)


def answer(http: responses.RequestsMock, action: str, name: str, offset: int | None = None, **reply) -> None:
    params = {"InstanceType": name, "RegionId": "cn-beijing"}
    if offset is not None:
        params["Offset"] = str(offset)
    headers = {"x-acs-action": action, "x-acs-version": "2014-05-26"}
    http.add(
        responses.POST,
        ENDPOINT,
        **reply,
        match=[matchers.query_param_matcher(params, strict_match=False), matchers.header_matcher(headers)],
    )


def recorded(name: str, status: int = 200) -> dict:
    return {"body": page_bytes("alicloud", name), "status": status, "content_type": "application/json"}


def gn7i_answers(http: responses.RequestsMock, price: dict | None = None, page2: dict | None = None) -> None:
    answer(http, "DescribePrice", GN7I, **(price or recorded("describe_price_gn7i_c8g1_2xlarge.json")))
    if price is None:
        answer(http, "DescribeSpotPriceHistory", GN7I, 0, **recorded("spot_history_gn7i_c8g1_2xlarge_page1.json"))
        answer(
            http,
            "DescribeSpotPriceHistory",
            GN7I,
            3,
            **(page2 or recorded("spot_history_gn7i_c8g1_2xlarge_page2.json")),
        )


def ebm_answers(http: responses.RequestsMock) -> None:
    answer(http, "DescribePrice", EBM, **recorded("describe_price_ebmgn7ex_32xlarge.json"))
    answer(http, "DescribeSpotPriceHistory", EBM, 0, **recorded("spot_history_empty.json"))


def fetch_one_line_error(types=(GN7I,), regions=("cn-beijing",)) -> str:
    with pytest.raises(FetchError) as error:
        alicloud.fetch(list(regions), lambda _: None, instance_types=list(types))
    message = str(error.value)
    assert "\n" not in message and "test-secret-not-real" not in message
    return message


def test_recorded_answers_become_cny_offerings_with_hand_checked_prices(http):
    gn7i_answers(http)
    ebm_answers(http)
    lines: list[str] = []
    rows = {(o.instance_type, o.zone): o for o in alicloud.fetch(["cn-beijing"], lines.append, instance_types=TYPES)}
    assert sorted(rows) == [(EBM, "cn-beijing"), (GN7I, "cn-beijing-h"), (GN7I, "cn-beijing-i"), (GN7I, "cn-beijing-l")]
    h = rows[(GN7I, "cn-beijing-h")]
    # The instanceType item's OriginalPrice (9.5326), not the total with the system disk (9.5743).
    assert (h.on_demand_native, h.currency) == (9.5326, "CNY")
    assert (h.on_demand_usd_per_hour, h.spot_usd_per_hour) == (None, None)
    assert h.spot_native == 1.8112  # cn-beijing-h: the 08:00 entry, newer than 06:00's 1.9065
    assert rows[(GN7I, "cn-beijing-i")].spot_native == 2.3832
    assert rows[(GN7I, "cn-beijing-l")].spot_native is None  # 9.5326 = on-demand: no spot price (page 2)
    ebm = rows[(EBM, "cn-beijing")]
    # OriginalPrice, not the discounted TradePrice 243.74997; no spot history -> zone = region.
    assert (ebm.on_demand_native, ebm.spot_native, ebm.region) == (270.8333, None, "cn-beijing")
    assert {(o.source, o.price_note, o.catalog_date) for o in rows.values()} == {
        ("alicloud-ecs-price-api", "", dt.date.today().isoformat())
    }
    assert lines[-1] == "alicloud: 4 offerings priced"


def test_hardware_facts_are_the_snapshot_rows(http):
    gn7i_answers(http)
    ebm_answers(http)
    rate = {"CNY": {"per_usd": 7}}
    snapshot = {(o.instance_type, o.region): o for o in load_provider(DATA_DIR / "alicloud.csv", rate)}
    for row in alicloud.fetch(["cn-beijing"], lambda _: None, instance_types=TYPES):
        before = snapshot[(row.instance_type, row.region)]
        assert [getattr(row, f) for f in HARDWARE] == [getattr(before, f) for f in HARDWARE]


def test_every_request_is_signed_with_the_key(http):
    gn7i_answers(http)
    alicloud.fetch(["cn-beijing"], lambda _: None, instance_types=[GN7I])
    assert [dict(parse_qsl(urlsplit(call.request.url).query)) for call in http.calls] == [
        {
            "RegionId": "cn-beijing",
            "ResourceType": "instance",
            "InstanceType": GN7I,
            "PriceUnit": "Hour",
            "Period": "1",
        },
        *(
            {"RegionId": "cn-beijing", "NetworkType": "vpc", "InstanceType": GN7I, "OSType": "linux", "Offset": offset}
            for offset in ("0", "3")
        ),
    ]
    for call in http.calls:
        signed = ACS3.fullmatch(call.request.headers["Authorization"])
        assert signed, call.request.headers["Authorization"]
        # the action, the date and the nonce are signed, so a replayed request is refused
        assert {"host", "x-acs-action", "x-acs-date", "x-acs-signature-nonce"} <= set(signed["signed"].split(";"))
        assert "test-secret-not-real" not in str(call.request.headers) + call.request.url


def test_missing_credentials_name_the_variables(monkeypatch):
    monkeypatch.delenv("ALIBABA_CLOUD_ACCESS_KEY_SECRET")
    assert fetch_one_line_error() == (
        "Alibaba Cloud prices need an AccessKey: set ALIBABA_CLOUD_ACCESS_KEY_ID and ALIBABA_CLOUD_ACCESS_KEY_SECRET "
        "(a RAM user allowed ecs:DescribePrice and ecs:DescribeSpotPriceHistory)"
    )


def test_throttling_is_refused(http):
    answer(http, "DescribePrice", GN7I, **recorded("throttling_user.json", 403))
    assert fetch_one_line_error() == (
        f"Alibaba Cloud ECS API, DescribePrice {GN7I} in cn-beijing: throttled (Throttling.User); "
        "wait a minute and run the refresh again"
    )


def test_an_unknown_access_key_is_an_auth_error(http):
    answer(http, "DescribePrice", GN7I, **recorded("invalid_access_key.json", 404))
    assert fetch_one_line_error() == (
        f"Alibaba Cloud ECS API, DescribePrice {GN7I} in cn-beijing: access denied (InvalidAccessKeyId.NotFound: "
        "Specified access key is not found.); check ALIBABA_CLOUD_ACCESS_KEY_ID/ALIBABA_CLOUD_ACCESS_KEY_SECRET and "
        "that the RAM user may call ecs:DescribePrice and ecs:DescribeSpotPriceHistory"
    )


def test_a_page_that_breaks_mid_transfer_is_partial(http):
    gn7i_answers(http, page2=cut_short(page_bytes("alicloud", "spot_history_gn7i_c8g1_2xlarge_page2.json"), 200))
    assert fetch_one_line_error() == (
        f"Alibaba Cloud ECS API, DescribeSpotPriceHistory {GN7I} in cn-beijing, page 2: "
        "the answer broke off mid-page (partial page); run the refresh again"
    )


def test_a_spot_entry_without_its_price_is_a_partial_page(http):
    body = page_json("alicloud", "spot_history_gn7i_c8g1_2xlarge_page2.json")
    del body["SpotPrices"]["SpotPriceType"][0]["SpotPrice"]
    gn7i_answers(http, page2={"json": body})
    assert "page 2: an entry lacks ZoneId, Timestamp or SpotPrice (partial or malformed page)" in fetch_one_line_error()


def test_malformed_json_is_refused(http):
    gn7i_answers(http, price={"body": page_bytes("alicloud", "describe_price_gn7i_c8g1_2xlarge.json")[:300]})
    assert fetch_one_line_error() == (
        f"Alibaba Cloud ECS API, DescribePrice {GN7I} in cn-beijing: the answer is not a JSON object "
        "(malformed); run the refresh again"
    )


def test_an_http_error_page_is_not_shown(http):
    gn7i_answers(
        http,
        price={
            "status": 503,
            "body": b"<html><body>503 Service Unavailable</body></html>",
            "content_type": "text/html",
        },
    )
    assert fetch_one_line_error() == (
        f"Alibaba Cloud ECS API, DescribePrice {GN7I} in cn-beijing: the answer is not a JSON object "
        "(malformed); run the refresh again"
    )


def test_a_connection_that_fails_is_a_network_error(http):
    gn7i_answers(http, price={"body": requests.exceptions.ConnectionError("connection refused")})
    assert fetch_one_line_error().endswith(
        f"DescribePrice {GN7I} in cn-beijing: request failed (ConnectionError); check the network and retry"
    )


def test_an_answer_without_a_price_is_refused(http):
    gn7i_answers(http, price=recorded("describe_price_empty.json"))
    assert fetch_one_line_error() == (
        f"Alibaba Cloud ECS API, DescribePrice {GN7I} in cn-beijing: no PriceInfo.Price in the answer "
        "(malformed or empty); run the refresh again"
    )


def test_prices_in_usd_are_refused(http):
    body = page_json("alicloud", "describe_price_gn7i_c8g1_2xlarge.json")
    body["PriceInfo"]["Price"]["Currency"] = "USD"
    gn7i_answers(http, price={"json": body})
    assert fetch_one_line_error().endswith("prices came in USD, not CNY; use an account of the China site (aliyun.com)")


def test_a_type_without_a_price_is_skipped_and_none_priced_is_an_error(http):
    gn7i_answers(http, price=recorded("price_not_found.json", 400))
    ebm_answers(http)
    lines: list[str] = []
    offerings = alicloud.fetch(["cn-beijing"], lines.append, instance_types=TYPES)
    assert [o.instance_type for o in offerings] == [EBM]
    assert f"alicloud: {GN7I} in cn-beijing: no price (PriceNotFound); its previous rows are kept" in lines
    http.reset()
    gn7i_answers(http, price=recorded("price_not_found.json", 400))
    assert fetch_one_line_error() == (
        "Alibaba Cloud ECS API: none of the 1 known GPU types has a price in cn-beijing (empty answer); "
        "check the regions"
    )


def test_a_region_or_type_the_snapshot_does_not_list_is_refused():
    assert fetch_one_line_error(regions=["cn-qingdao"]) == (
        "alicloud: no known GPU type in 'cn-qingdao'; the types come from alicloud_payg_cny.csv, which lists "
        "cn-beijing, cn-hangzhou, cn-shanghai, cn-shenzhen, cn-wulanchabu, cn-zhangjiakou"
    )
    assert fetch_one_line_error(types=["ecs.gn9x.99xlarge"]) == (
        "alicloud: unknown instance type ecs.gn9x.99xlarge; alicloud_payg_cny.csv lists the known ones"
    )


@pytest.fixture
def data(tmp_path):
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target, ignore=shutil.ignore_patterns("snapshots"))
    return target


def files(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_refresh_replaces_the_snapshot_rows_of_the_refreshed_types_and_region(http, data):
    gn7i_answers(http)
    ebm_answers(http)
    before = (data / "alicloud.csv").read_text().splitlines()
    others = {name: body for name, body in files(data).items() if name not in ("alicloud.csv", "catalog.json")}
    version = json.loads((data / "catalog.json").read_text())["version"]
    summary = refresh("alicloud", ["cn-beijing"], data, lambda _: None, TODAY, instance_types=TYPES)
    after = (data / "alicloud.csv").read_text().splitlines()
    refreshed = [line for line in before[1:] if ",cn-beijing," in line and (f",{GN7I}," in line or f",{EBM}," in line)]
    assert len(refreshed) == 2 and not set(refreshed) & set(after)
    assert set(before[1:]) - set(refreshed) <= set(after)  # every other snapshot row kept byte for byte
    assert len(after) == len(before) + 2  # the gn7i row became three zone rows
    assert all(files(data)[name] == body for name, body in others.items())
    assert summary.rows == 4 and summary.snapshot == data / "snapshots" / f"alicloud-{version}.csv"
    set_rate(data, "CNY", 7.0, "2026-11-27", "test rate", today=dt.date(2026, 11, 29))
    rows = {(o.instance_type, o.zone): o for o in load_catalog(data, providers=("alicloud",)).offerings}
    h = rows[(GN7I, "cn-beijing-h")]
    assert (h.source, h.price_note, h.catalog_date) == ("alicloud-ecs-price-api", "", TODAY)
    assert h.on_demand_usd_per_hour == pytest.approx(9.5326 / 7) and h.spot_usd_per_hour == pytest.approx(1.8112 / 7)
    assert rows[(GN7I, "cn-hangzhou")].price_note.startswith("estimate: third-party CNY list price seen 2024-12-30")


def test_a_failing_refresh_changes_no_byte(http, data):
    ebm_answers(http)  # priced first (types in name order); the last page of the second type is throttled
    gn7i_answers(http, page2=recorded("throttling_user.json", 403))
    before = files(data)
    with pytest.raises(FetchError, match="throttled"):
        refresh("alicloud", ["cn-beijing"], data, lambda _: None, TODAY, instance_types=TYPES)
    assert files(data) == before


def test_refresh_summary_compares_cny_rows_in_cny(http, data):
    gn7i_answers(http)
    ebm_answers(http)
    summary = refresh("alicloud", ["cn-beijing"], data, lambda _: None, TODAY, instance_types=TYPES)
    # Snapshot rows sit at zone = region; the API prices gn7i per zone (3 new rows, 1 gone)
    # and ebmgn7ex at the region, at the snapshot's own CNY price.
    assert (summary.added, summary.removed, summary.changed, summary.unchanged) == (3, 1, 0, 1)
    assert all(m.currency == "CNY" for m in summary.moves)
