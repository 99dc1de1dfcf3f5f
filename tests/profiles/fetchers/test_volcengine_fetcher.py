"""Volcengine billing fetcher: recorded `QueryPriceForPayAsYouGo` answers replayed over HTTP
-> CNY-priced Offerings for the one described type; each bad answer or missing input -> a
one-line FetchError. Fixtures and their provenance: tests/profiles/fixtures/volcengine."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import responses
from recorded_pages import FIXTURES, cut_short, page_bytes, page_json
from responses import matchers

from profiles.catalog.fetchers import FetchError, volcengine
from profiles.catalog.fetchers.volcengine_billing import HOST, QUERY, Credentials, signed_headers

KEYS = {"VOLCENGINE_ACCESS_KEY": "AKLTEXAMPLEACCESSKEY0000000000000001",
        "VOLCENGINE_SECRET_KEY": "ExampleSecretKey00000000000000000000000000001=="}
NOW = dt.datetime(2026, 11, 29, 8, 30, 0, tzinfo=dt.timezone.utc)
CODES = page_json("volcengine", "price_codes.json")
BEIJING = "EXAMPLE_GNI2_3XLARGE_CN_BEIJING"


@pytest.fixture(autouse=True)
def environment(monkeypatch):
    for name, value in KEYS.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv(volcengine.CODES_ENV, str(FIXTURES / "volcengine" / "price_codes.json"))


def ask(http: responses.RequestsMock, configuration: str = BEIJING, name: str = "", **answer) -> None:
    """Expect one price query for `configuration`; answer with a recorded file or `answer`."""
    body = {"Product": "EXAMPLE_ECS_PRODUCT", "ConfigList": [
        {"ChargeItemCode": "EXAMPLE_INSTANCE_CHARGE_ITEM", "ConfigurationCode": configuration,
         "Quantity": 1, "UseDuration": 1}]}
    reply = {"body": page_bytes("volcengine", name)} if name else {}
    http.add(responses.POST, f"https://{HOST}/", **{**reply, **answer},
             match=[matchers.query_param_matcher(QUERY), matchers.json_params_matcher(body)])


def fetch(regions=("cn-beijing",), lines=None, **kwargs):
    return volcengine.fetch(list(regions) if regions else None, (lines if lines is not None else []).append,
                            now=NOW, **kwargs)


def one_line_error(regions=("cn-beijing",), **kwargs) -> str:
    with pytest.raises(FetchError) as error:
        fetch(regions, **kwargs)
    message = str(error.value)
    assert "\n" not in message and KEYS["VOLCENGINE_SECRET_KEY"] not in message
    return message


def test_every_region_of_the_codes_is_priced_and_undescribed_types_are_skipped(http):
    ask(http, name="cn-beijing_gni2.3xlarge.json")
    ask(http, "EXAMPLE_GNI2_3XLARGE_CN_SHANGHAI", "cn-shanghai_gni2.3xlarge.json")
    lines: list[str] = []
    rows = fetch(None, lines)
    # OriginalAmount, not the discounted 9.612 of this account's DiscountDetail.
    assert [(o.region, o.instance_type, o.on_demand_native) for o in rows] == [
        ("cn-beijing", "ecs.gni2.3xlarge", 10.68), ("cn-shanghai", "ecs.gni2.3xlarge", 10.9)]
    row = rows[0]
    assert (row.accelerator, row.accelerator_count, row.accelerator_memory_gib, row.form_factor) == (
        "A10", 1, 24.0, "PCIe")
    assert (row.vcpus, row.memory_gib, row.network_gbps, row.interconnect, row.zone) == (
        14.0, 56.0, None, "ethernet", "cn-beijing")
    assert (row.currency, row.on_demand_usd_per_hour, row.spot_native, row.source) == (
        "CNY", None, None, "volcengine-billing-QueryPriceForPayAsYouGo")
    assert row.price_note.startswith("unverified: user-supplied billing codes")
    assert lines == ["volcengine cn-beijing: ecs.gni2.3xlarge 10.68 CNY/h",
                     "volcengine cn-beijing: ecs.hpcpni2.28xlarge skipped: its specs are unsourced",
                     "volcengine cn-shanghai: ecs.gni2.3xlarge 10.9 CNY/h"]


def test_a_region_list_selects_its_codes_and_the_request_is_signed(http):
    ask(http, "EXAMPLE_GNI2_3XLARGE_CN_SHANGHAI", "cn-shanghai_gni2.3xlarge.json")
    assert [o.region for o in fetch(["cn-shanghai"])] == ["cn-shanghai"]
    headers = http.calls[0].request.headers
    assert headers["X-Date"] == "20261129T083000Z"
    assert headers["Authorization"].startswith(f"HMAC-SHA256 Credential={KEYS['VOLCENGINE_ACCESS_KEY']}/20261129/"
                                               "cn-beijing/billing/request, SignedHeaders=content-type;host;"
                                               "x-content-sha256;x-date, ")


def test_signature_matches_the_official_sdk_signer():
    # Known answer computed by volcenginesdkcore 5.0.54 `SignerV4.sign` (same headers, body,
    # query, region cn-beijing, service billing, X-Date); see the fixtures README.
    body = {"Product": "EXAMPLE_PRODUCT", "ConfigList": [{"ChargeItemCode": "EXAMPLE_CHARGE_ITEM",
            "ConfigurationCode": "EXAMPLE_CONFIGURATION", "Quantity": 1, "UseDuration": 1}]}
    headers = signed_headers(Credentials(*KEYS.values()), json.dumps(body, separators=(",", ":")).encode(), NOW)
    assert headers["Authorization"].endswith(
        "Signature=05b3992bc73382b8dea4b2f3bbc7b2fe4824ab7ca8b4eaae1bed5707f4dc2fe7")


@pytest.mark.parametrize(("answer", "message"), [
    pytest.param({"name": "throttled.json", "status": 429}, "throttled (HTTP 429, FlowLimitExceeded); wait a minute "
                 "and run the refresh again", id="throttled"),
    pytest.param({"name": "auth_failed.json", "status": 403}, "authentication refused (HTTP 403, "
                 "SignatureDoesNotMatch); check VOLCENGINE_ACCESS_KEY/SECRET_KEY and the key's billing permissions",
                 id="auth"),
    pytest.param({"name": "invalid_code.json", "status": 400}, "HTTP 400, InvalidParameter (The specified parameter "
                 "ConfigurationCode is not valid.); check the price codes or retry later", id="bad-code"),
    pytest.param({"name": "invalid_code.json"}, "HTTP 200, InvalidParameter (The specified parameter ConfigurationCode"
                 " is not valid.); check the price codes or retry later", id="error-in-a-200"),
    pytest.param({"name": "empty.json"}, "no price in the answer (empty answer); check the codes", id="empty"),
    pytest.param(cut_short(page_bytes("volcengine", "cn-beijing_gni2.3xlarge.json"), 300), "the answer broke off "
                 "(partial answer); run the refresh again", id="broken-transfer"),
    pytest.param({"body": page_bytes("volcengine", "cn-beijing_gni2.3xlarge.json")[:300]}, "no 'Result' object "
                 "(malformed or cut short); run the refresh again", id="malformed-json"),
])
def test_each_bad_answer_is_a_one_line_error(http, answer, message):
    ask(http, **answer)
    assert one_line_error() == f"Volcengine billing QueryPriceForPayAsYouGo, ecs.gni2.3xlarge in cn-beijing: {message}"


@pytest.mark.parametrize(("change", "message"), [
    pytest.param({"Currency": "USD"}, "prices came in USD, not CNY; use a China-site account", id="usd"),
    pytest.param({"ConfigList": None}, "no 'ConfigList' list (malformed answer); retry", id="no-list"),
    pytest.param({"ConfigurationCode": "OTHER"}, f"no item for ConfigurationCode {BEIJING} (partial answer); retry",
                 id="partial"),
    pytest.param({"OriginalAmount": "n/a"}, "OriginalAmount 'n/a' is not a positive number (malformed); retry",
                 id="not-a-number"),
    pytest.param({"OriginalAmount": "0"}, "OriginalAmount '0' is not a positive number (malformed); retry", id="zero"),
])
def test_malformed_fields_are_refused(http, change, message):
    body = page_json("volcengine", "cn-beijing_gni2.3xlarge.json")
    (body["Result"] if set(change) & {"Currency", "ConfigList"} else body["Result"]["ConfigList"][0]).update(change)
    ask(http, json=body)
    assert one_line_error() == f"Volcengine billing QueryPriceForPayAsYouGo, ecs.gni2.3xlarge in cn-beijing: {message}"


def test_missing_credentials_name_the_variables(monkeypatch):
    monkeypatch.delenv("VOLCENGINE_SECRET_KEY")
    assert one_line_error() == "Volcengine credentials missing: set VOLCENGINE_SECRET_KEY"


@pytest.mark.parametrize(("codes", "regions", "message"), [
    pytest.param(None, ["cn-beijing"], "Volcengine billing QueryPriceForPayAsYouGo needs Product/ChargeItemCode/"
                 "ConfigurationCode codes Volcengine does not publish: set TRAINSTACK_VOLCENGINE_PRICE_CODES to a JSON "
                 "file of them (see fetchers/volcengine.py)", id="no-codes"),
    pytest.param({"cn-beijing": {"ecs.gni2.3xlarge": {"Product": "P"}}}, None, "TRAINSTACK_VOLCENGINE_PRICE_CODES: "
                 "cn-beijing/ecs.gni2.3xlarge needs non-empty Product, ChargeItemCode, ConfigurationCode",
                 id="partial-code"),
    pytest.param(CODES, ["cn-guangzhou"], "TRAINSTACK_VOLCENGINE_PRICE_CODES: no price codes for cn-guangzhou; add "
                 "them or drop the region", id="region-without-codes"),
    pytest.param(CODES, ["Beijing"], "'Beijing' is not a Volcengine region name; use names such as cn-beijing",
                 id="bad-region"),
    pytest.param({"cn-beijing": {"ecs.hpcpni2.28xlarge": CODES["cn-beijing"]["ecs.hpcpni2.28xlarge"]}}, None,
                 "Volcengine billing QueryPriceForPayAsYouGo: no price codes for a described type (ecs.gni2.3xlarge); "
                 "add them to TRAINSTACK_VOLCENGINE_PRICE_CODES", id="only-undescribed-types"),
])
def test_missing_or_bad_price_codes_are_refused_before_any_request(monkeypatch, codes, regions, message):
    monkeypatch.delenv(volcengine.CODES_ENV)
    assert one_line_error(regions, price_codes=codes) == message


def test_an_unreadable_codes_file_is_named(monkeypatch, tmp_path):
    (tmp_path / "codes.json").write_text("{not json")
    monkeypatch.setenv(volcengine.CODES_ENV, str(tmp_path / "codes.json"))
    assert one_line_error() == (f"TRAINSTACK_VOLCENGINE_PRICE_CODES={tmp_path / 'codes.json'}: cannot read the price "
                                "codes (JSONDecodeError); fix the file")
