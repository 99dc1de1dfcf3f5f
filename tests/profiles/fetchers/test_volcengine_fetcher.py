"""Volcengine billing fetcher: recorded `QueryPriceForPayAsYouGo` answers replayed over HTTP
from a loopback server to the official SDK (it speaks urllib3, so `responses` cannot
intercept it; the SDK is pointed at the server and sends its real, signed requests)
-> CNY-priced Offerings for the one described type; each bad answer or missing input -> a
one-line FetchError. Fixtures and their provenance: tests/profiles/fixtures/volcengine."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re

import pytest
from loopback import Replayer, Reply, closed_port_url
from recorded_pages import FIXTURES, page_bytes, page_json

from profiles.catalog.fetchers import FetchError, volcengine

KEYS = {
    "VOLCENGINE_ACCESS_KEY": "AKLTEXAMPLEACCESSKEY0000000000000001",
    "VOLCENGINE_SECRET_KEY": "ExampleSecretKey00000000000000000000000000001==",
}
QUERY = {"Action": "QueryPriceForPayAsYouGo", "Version": "2022-01-01"}
SIGNED = re.compile(
    r"HMAC-SHA256 Credential=AKLTEXAMPLEACCESSKEY0000000000000001/(?P<day>\d{8})/cn-beijing/billing/"
    r"request, SignedHeaders=(?P<signed>[a-z0-9;-]+), Signature=[0-9a-f]{64}"
)
CODES = page_json("volcengine", "price_codes.json")
BEIJING = "EXAMPLE_GNI2_3XLARGE_CN_BEIJING"
WHERE = "Volcengine billing QueryPriceForPayAsYouGo, ecs.gni2.3xlarge in cn-beijing"


@pytest.fixture(autouse=True)
def environment(monkeypatch):
    for name, value in KEYS.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv(volcengine.CODES_ENV, str(FIXTURES / "volcengine" / "price_codes.json"))


def ask(
    loopback: Replayer,
    configuration: str = BEIJING,
    name: str = "",
    status: int = 200,
    json_body=None,
    body: bytes | None = None,
    cut_after: int | None = None,
) -> None:
    """Expect one price query for `configuration`; answer with a recorded file, `json_body` or `body`."""
    asked = {
        "Product": "EXAMPLE_ECS_PRODUCT",
        "ConfigList": [
            {
                "ChargeItemCode": "EXAMPLE_INSTANCE_CHARGE_ITEM",
                "ConfigurationCode": configuration,
                "Quantity": 1,
                "UseDuration": 1,
            }
        ],
    }
    raw = page_bytes("volcengine", name) if name else json.dumps(json_body).encode() if json_body else body or b""
    loopback.add(
        "POST",
        "/",
        Reply(raw, status, cut_after=cut_after),
        match=lambda request: request.query == QUERY and request.json() == asked,
    )


def fetch(regions=("cn-beijing",), lines=None, **kwargs):
    return volcengine.fetch(list(regions) if regions else None, (lines if lines is not None else []).append, **kwargs)


def one_line_error(regions=("cn-beijing",), **kwargs) -> str:
    with pytest.raises(FetchError) as error:
        fetch(regions, **kwargs)
    message = str(error.value)
    assert "\n" not in message and KEYS["VOLCENGINE_SECRET_KEY"] not in message
    return message


def test_every_region_of_the_codes_is_priced_and_undescribed_types_are_skipped(loopback):
    ask(loopback, name="cn-beijing_gni2.3xlarge.json")
    ask(loopback, "EXAMPLE_GNI2_3XLARGE_CN_SHANGHAI", "cn-shanghai_gni2.3xlarge.json")
    lines: list[str] = []
    rows = fetch(None, lines, endpoint=loopback.url)
    # OriginalAmount, not the discounted 9.612 of this account's DiscountDetail.
    assert [(o.region, o.instance_type, o.on_demand_native) for o in rows] == [
        ("cn-beijing", "ecs.gni2.3xlarge", 10.68),
        ("cn-shanghai", "ecs.gni2.3xlarge", 10.9),
    ]
    row = rows[0]
    assert (row.accelerator, row.accelerator_count, row.accelerator_memory_gib, row.form_factor) == (
        "A10",
        1,
        24.0,
        "PCIe",
    )
    assert (row.vcpus, row.memory_gib, row.network_gbps, row.interconnect, row.zone) == (
        14.0,
        56.0,
        None,
        "ethernet",
        "cn-beijing",
    )
    assert (row.currency, row.on_demand_usd_per_hour, row.spot_native, row.source) == (
        "CNY",
        None,
        None,
        "volcengine-billing-QueryPriceForPayAsYouGo",
    )
    assert row.price_note.startswith("unverified: user-supplied billing codes")
    assert lines == [
        "volcengine cn-beijing: ecs.gni2.3xlarge 10.68 CNY/h",
        "volcengine cn-beijing: ecs.hpcpni2.28xlarge skipped: its specs are unsourced",
        "volcengine cn-shanghai: ecs.gni2.3xlarge 10.9 CNY/h",
    ]


def test_a_region_list_selects_its_codes_and_the_request_is_signed(loopback):
    ask(loopback, "EXAMPLE_GNI2_3XLARGE_CN_SHANGHAI", "cn-shanghai_gni2.3xlarge.json")
    assert [o.region for o in fetch(["cn-shanghai"], endpoint=loopback.url)] == ["cn-shanghai"]
    request = loopback.calls[0]
    sent = dt.datetime.strptime(request.headers["x-date"], "%Y%m%dT%H%M%SZ").replace(tzinfo=dt.timezone.utc)
    assert abs(dt.datetime.now(dt.timezone.utc) - sent) < dt.timedelta(minutes=5)
    signed = SIGNED.fullmatch(request.headers["authorization"])
    assert signed, request.headers["authorization"]
    assert signed["day"] == request.headers["x-date"][:8]  # the credential scope is the request's day
    assert {"host", "x-content-sha256", "x-date"} <= set(signed["signed"].split(";"))
    # the signed body hash is that of the body received: the signature covers the price query
    assert request.headers["x-content-sha256"] == hashlib.sha256(request.body).hexdigest()
    assert KEYS["VOLCENGINE_SECRET_KEY"] not in str(request.headers)


def test_without_an_endpoint_the_sdk_calls_the_global_billing_host(monkeypatch):
    import volcenginesdkcore.rest

    sent: list[tuple[str, object]] = []

    def record(_client, method, url, query_params=None, **_kwargs):
        sent.append((url, query_params))
        raise ConnectionRefusedError("not sent: recorded by the test")

    monkeypatch.setattr(volcenginesdkcore.rest.RESTClientObject, "request", record)
    assert one_line_error().endswith("request failed (ConnectionRefusedError); check the network and retry")
    assert sent == [
        ("https://billing.volcengineapi.com/", [("Action", "QueryPriceForPayAsYouGo"), ("Version", "2022-01-01")])
    ]


def test_a_refused_connection_is_a_network_error():
    assert one_line_error(endpoint=closed_port_url()) == (
        "Volcengine billing QueryPriceForPayAsYouGo, ecs.gni2.3xlarge in cn-beijing: request failed "
        "(ConnectionRefusedError); check the network and retry"
    )


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        pytest.param(
            {"name": "throttled.json", "status": 429},
            "throttled (HTTP 429, FlowLimitExceeded); wait a minute and run the refresh again",
            id="throttled",
        ),
        pytest.param(
            {"name": "auth_failed.json", "status": 403},
            "authentication refused (HTTP 403, "
            "SignatureDoesNotMatch); check VOLCENGINE_ACCESS_KEY/SECRET_KEY and the key's billing permissions",
            id="auth",
        ),
        pytest.param(
            {"name": "invalid_code.json", "status": 400},
            "HTTP 400, InvalidParameter (The specified parameter "
            "ConfigurationCode is not valid.); check the price codes or retry later",
            id="bad-code",
        ),
        pytest.param(
            {"name": "invalid_code.json"},
            "HTTP 200, InvalidParameter (The specified parameter ConfigurationCode"
            " is not valid.); check the price codes or retry later",
            id="error-in-a-200",
        ),
        pytest.param({"name": "empty.json"}, "no price in the answer (empty answer); check the codes", id="empty"),
        pytest.param(
            {"name": "cn-beijing_gni2.3xlarge.json", "cut_after": 300},
            "the answer broke off (partial answer); run the refresh again",
            id="broken-transfer",
        ),
        pytest.param(
            {"body": b"<html><body>502 Bad Gateway</body></html>", "status": 502},
            "HTTP 502; check the price codes or retry later",
            id="html-error-page",
        ),
        pytest.param(
            {"body": page_bytes("volcengine", "cn-beijing_gni2.3xlarge.json")[:300]},
            "no 'Result' object (malformed or cut short); run the refresh again",
            id="malformed-json",
        ),
    ],
)
def test_each_bad_answer_is_a_one_line_error(loopback, answer, message):
    ask(loopback, **answer)
    assert one_line_error(endpoint=loopback.url) == f"{WHERE}: {message}"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param({"Currency": "USD"}, "prices came in USD, not CNY; use a China-site account", id="usd"),
        pytest.param({"ConfigList": None}, "no 'ConfigList' list (malformed answer); retry", id="no-list"),
        pytest.param(
            {"ConfigurationCode": "OTHER"},
            f"no item for ConfigurationCode {BEIJING} (partial answer); retry",
            id="partial",
        ),
        pytest.param(
            {"OriginalAmount": "n/a"},
            "OriginalAmount 'n/a' is not a positive number (malformed); retry",
            id="not-a-number",
        ),
        pytest.param(
            {"OriginalAmount": "0"}, "OriginalAmount '0' is not a positive number (malformed); retry", id="zero"
        ),
    ],
)
def test_malformed_fields_are_refused(loopback, change, message):
    body = page_json("volcengine", "cn-beijing_gni2.3xlarge.json")
    (body["Result"] if set(change) & {"Currency", "ConfigList"} else body["Result"]["ConfigList"][0]).update(change)
    ask(loopback, json_body=body)
    assert one_line_error(endpoint=loopback.url) == f"{WHERE}: {message}"


def test_missing_credentials_name_the_variables(monkeypatch):
    monkeypatch.delenv("VOLCENGINE_SECRET_KEY")
    assert one_line_error() == "Volcengine credentials missing: set VOLCENGINE_SECRET_KEY"


@pytest.mark.parametrize(
    ("codes", "regions", "message"),
    [
        pytest.param(
            None,
            ["cn-beijing"],
            "Volcengine billing QueryPriceForPayAsYouGo needs Product/ChargeItemCode/"
            "ConfigurationCode codes Volcengine does not publish: set TRAINSTACK_VOLCENGINE_PRICE_CODES to a JSON "
            "file of them (see fetchers/volcengine.py)",
            id="no-codes",
        ),
        pytest.param(
            {"cn-beijing": {"ecs.gni2.3xlarge": {"Product": "P"}}},
            None,
            "TRAINSTACK_VOLCENGINE_PRICE_CODES: "
            "cn-beijing/ecs.gni2.3xlarge needs non-empty Product, ChargeItemCode, ConfigurationCode",
            id="partial-code",
        ),
        pytest.param(
            CODES,
            ["cn-guangzhou"],
            "TRAINSTACK_VOLCENGINE_PRICE_CODES: no price codes for cn-guangzhou; add them or drop the region",
            id="region-without-codes",
        ),
        pytest.param(
            CODES,
            ["Beijing"],
            "'Beijing' is not a Volcengine region name; use names such as cn-beijing",
            id="bad-region",
        ),
        pytest.param(
            {"cn-beijing": {"ecs.hpcpni2.28xlarge": CODES["cn-beijing"]["ecs.hpcpni2.28xlarge"]}},
            None,
            "Volcengine billing QueryPriceForPayAsYouGo: no price codes for a described type (ecs.gni2.3xlarge); "
            "add them to TRAINSTACK_VOLCENGINE_PRICE_CODES",
            id="only-undescribed-types",
        ),
    ],
)
def test_missing_or_bad_price_codes_are_refused_before_any_request(monkeypatch, codes, regions, message):
    monkeypatch.delenv(volcengine.CODES_ENV)
    assert one_line_error(regions, price_codes=codes) == message


def test_an_unreadable_codes_file_is_named(monkeypatch, tmp_path):
    (tmp_path / "codes.json").write_text("{not json")
    monkeypatch.setenv(volcengine.CODES_ENV, str(tmp_path / "codes.json"))
    assert one_line_error() == (
        f"TRAINSTACK_VOLCENGINE_PRICE_CODES={tmp_path / 'codes.json'}: cannot read the price "
        "codes (JSONDecodeError); fix the file"
    )
