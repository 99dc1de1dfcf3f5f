"""GCP Cloud Billing Catalog fetcher: two recorded SKU pages replayed over HTTP -> GPU-node
Offerings (host VM + GPUs, as the offline catalog sums them); each bad answer -> a one-line
FetchError. Hand-checked prices are in the comments."""

from __future__ import annotations

import datetime as dt

import pytest
import responses
from recorded_pages import HARDWARE, cut_short, page_bytes, page_json
from responses import matchers

from profiles.catalog.fetchers import FetchError, gcp
from profiles.catalog.fetchers.gcp_skus import classify, parse_skus
from profiles.catalog.loader import DATA_DIR, load_provider

KEY = "test-key-not-real"
TOKEN = page_json("gcp", "skus_page1.json")["nextPageToken"]


@pytest.fixture(autouse=True)
def api_key(monkeypatch):
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    monkeypatch.setenv("TRAINSTACK_GCP_API_KEY", KEY)


def page(http: responses.RequestsMock, token: str = "", key: str = KEY, **answer) -> None:
    params = {"key": key, "pageSize": "5000", "currencyCode": "USD", **({"pageToken": token} if token else {})}
    http.add(responses.GET, gcp.URL, match=[matchers.query_param_matcher(params)], **answer)


def two_pages(http: responses.RequestsMock, page2: dict | None = None) -> None:
    page(http, body=page_bytes("gcp", "skus_page1.json"))
    page(http, token=TOKEN, **(page2 or {"body": page_bytes("gcp", "skus_page2.json")}))


def fetch_one_line_error(regions=None) -> str:
    with pytest.raises(FetchError) as error:
        gcp.fetch(regions, lambda _: None)
    message = str(error.value)
    assert "\n" not in message and KEY not in message
    return message


def test_two_pages_price_a2_nodes_as_host_plus_gpus(http):
    two_pages(http)
    lines: list[str] = []
    by_zone = {(o.instance_type, o.zone): o for o in gcp.fetch(None, lines.append)}
    node = by_zone[("a2-highgpu-8g", "us-central1-a")]
    # 96 x 0.031611 (A2 core) + 680 GiB x 0.004237 (A2 RAM) + 8 x 2.933908 (A100)
    # = 3.034656 + 2.88116 + 23.471264 = 29.38708, the offline catalog's price for this zone.
    assert node.on_demand_usd_per_hour == pytest.approx(29.38708, abs=1e-9)
    # Spot: 96 x 0.01264 + 680 x 0.001695 + 8 x 1.1472 = 1.21344 + 1.1526 + 9.1776 = 11.54364
    assert node.spot_usd_per_hour == pytest.approx(11.54364, abs=1e-9)
    # 1-year commitment: 96 x 0.019915 + 680 x 0.002669 + 8 x 1.848362 = 18.513656;
    # no 3-year price, because only the 3-year A2 core SKU is listed (no RAM, no GPU).
    assert node.reserved_1y_usd_per_hour == pytest.approx(18.513656, abs=1e-9)
    assert node.reserved_3y_usd_per_hour is None
    assert (node.region, node.source, node.catalog_date) == (
        "us-central1",
        "gcp-cloud-billing-catalog",
        dt.date.today().isoformat(),
    )
    ultra = by_zone[("a2-ultragpu-8g", "us-central1-c")]
    # 96 x 0.031611 + 1360 x 0.004237 + 8 x 1.8461975 (A100 80GB) = 3.034656 + 5.76232 + 14.76958
    assert ultra.on_demand_usd_per_hour == pytest.approx(23.566556, abs=1e-9)
    assert ultra.spot_usd_per_hour == pytest.approx(16.08824, abs=1e-9)  # 1.21344 + 2.3052 + 12.5696
    assert by_zone[("a2-megagpu-16g", "us-central1-f")].on_demand_usd_per_hour == pytest.approx(55.739504, abs=1e-9)
    assert lines[:2] == ["gcp: SKU page 1: 5 SKUs", "gcp: SKU page 2: 11 SKUs"]


def test_zones_and_hardware_come_from_the_offline_catalog(http):
    two_pages(http)
    offerings = gcp.fetch(None, lambda _: None)
    committed = {(o.instance_type, o.zone): o for o in load_provider(DATA_DIR / "gcp.csv")}
    a2_in_sku_regions = {
        key
        for key, o in committed.items()
        if key[0].startswith("a2-") and o.region in ("us-central1", "us-east1", "us-west1")
    }
    assert {(o.instance_type, o.zone) for o in offerings} == a2_in_sku_regions  # no A3/G2/L4 SKUs recorded
    assert len(offerings) == 36
    for offering in offerings:
        row = committed[(offering.instance_type, offering.zone)]
        assert [getattr(offering, f) for f in HARDWARE] == [getattr(row, f) for f in HARDWARE]
        assert offering.region == row.region


def test_a_region_list_keeps_its_known_zones(http):
    two_pages(http)
    offerings = gcp.fetch(["us-east1"], lambda _: None, session=object())  # a boto3 session is not ours
    assert [(o.instance_type, o.zone) for o in offerings] == [(f"a2-highgpu-{n}g", "us-east1-b") for n in (1, 2, 4, 8)]


CLASSIFIED = [
    ("Nvidia Tesla A100 GPU running in Americas", "GPU", "OnDemand", ("gpu", "A100", "on-demand"), "a100"),
    ("Nvidia A100 80GB GPU running in Americas", "GPU", "OnDemand", ("gpu", "A100-80GB", "on-demand"), "a100-80gb"),
    ("Nvidia H100 80GB Mega GPU running in Americas", "GPU", "OnDemand", ("gpu", "H100-MEGA", "on-demand"), "mega"),
    ("Spot Preemptible A2 Instance Core running in Americas", "CPU", "Preemptible", ("core", "a2", "spot"), "spot"),
    ("Commitment v1: A2 Ram in Americas for 1 Year", "RAM", "Commit1Yr", ("ram", "a2", "1y"), "commitment"),
    ("Nvidia L4 GPU Virtual Workstation running in Americas", "GPU", "OnDemand", None, "virtual-workstation"),
    ("G2 Custom Instance Core running in Americas", "CPU", "OnDemand", None, "custom"),
    ("N1 Predefined Instance Core running in Americas", "CPU", "OnDemand", None, "other-family"),
    ("Commitment v1: Cpu in Montreal for 1 Year", "CPU", "Commit1Yr", None, "n1-commitment"),
]


@pytest.mark.parametrize(
    ("description", "group", "usage", "expected"), [pytest.param(*case[:4], id=case[4]) for case in CLASSIFIED]
)
def test_classify_sku_descriptions(description, group, usage, expected):
    category = {"resourceFamily": "Compute", "resourceGroup": group, "usageType": usage}
    sku = {"description": description, "category": category}
    assert classify(sku) == expected


def test_a_ram_price_per_hour_instead_of_per_gib_hour_is_refused():
    ram = page_json("gcp", "skus_page1.json")["skus"][1]
    ram["pricingInfo"][0]["pricingExpression"]["usageUnit"] = "h"
    with pytest.raises(FetchError, match="A2 Instance Ram running in Americas' is priced per 'h', expected 'GiBy.h'"):
        parse_skus([ram])


def test_the_key_may_come_from_google_api_key(http, monkeypatch):
    monkeypatch.delenv("TRAINSTACK_GCP_API_KEY")
    monkeypatch.setenv("GOOGLE_API_KEY", "other-key")
    page(http, key="other-key", body=page_bytes("gcp", "skus_page2.json"))
    assert gcp.fetch(["us-west1"], lambda _: None)


def test_a_missing_api_key_says_which_variable_to_set(monkeypatch):
    monkeypatch.delenv("TRAINSTACK_GCP_API_KEY")
    assert fetch_one_line_error() == (
        "GCP prices need an API key: set TRAINSTACK_GCP_API_KEY (or GOOGLE_API_KEY) "
        "to a key of a project with the Cloud Billing API enabled"
    )


@pytest.mark.parametrize(
    ("first", "second", "message"),
    [
        pytest.param(
            {"status": 429, "body": page_bytes("gcp", "throttled.json")},
            None,
            ", page 1: throttled (HTTP 429); wait a few minutes and run the refresh again",
            id="throttled",
        ),
        # The key is not echoed (`fetch_one_line_error` checks every message for it).
        pytest.param(
            {"status": 400, "body": page_bytes("gcp", "invalid_key.json")},
            None,
            ", page 1: HTTP 400 (API key not valid. Please pass a valid API key.); "
            "set a valid API key in TRAINSTACK_GCP_API_KEY (or GOOGLE_API_KEY)",
            id="invalid-key",
        ),
        pytest.param(
            {"body": page_bytes("gcp", "skus_page1.json")},
            cut_short(page_bytes("gcp", "skus_page2.json"), 4000),
            ", page 2: the answer broke off mid-page (partial page); run the refresh again",
            id="broken-transfer",
        ),
        pytest.param(
            {"body": page_bytes("gcp", "skus_page1.json")[:900]},
            None,
            ", page 1: the answer is not valid JSON (malformed or cut short); run the refresh again",
            id="malformed-json",
        ),
        pytest.param(
            {"body": page_bytes("gcp", "empty.json")},
            None,
            ": no SKUs in the answer (empty answer); check the key's project, or retry later",
            id="empty",
        ),
    ],
)
def test_a_failed_answer_is_one_line_naming_the_page_and_the_fix(http, first, second, message):
    page(http, **first)
    if second is not None:
        page(http, token=TOKEN, **second)
    assert fetch_one_line_error() == f"GCP Cloud Billing Catalog API{message}"


def test_skus_that_price_no_known_region_are_refused(http):
    two_pages(http)
    assert fetch_one_line_error(["europe-west4"]) == (
        "GCP Cloud Billing Catalog API: 16 SKUs but no known GPU machine type could be priced in europe-west4; "
        "check the regions"
    )
