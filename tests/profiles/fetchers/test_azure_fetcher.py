"""Azure Retail Prices fetcher: recorded pages replayed over HTTP -> Offerings; each bad answer
-> a one-line FetchError. Hand-checked prices are in the comments."""

from __future__ import annotations

import datetime as dt

import pytest
import responses
from recorded_pages import HARDWARE, cut_short, page_bytes, page_json
from responses import matchers

from profiles.catalog.fetchers import FetchError, azure
from profiles.catalog.loader import DATA_DIR, load_provider

ALL_REGIONS = "serviceName eq 'Virtual Machines' and contains(armSkuName, 'Standard_N')"
ND, NC, H100 = "Standard_ND96amsr_A100_v4", "Standard_NC24ads_A100_v4", "Standard_ND96isr_H100_v5"


def first_page(http: responses.RequestsMock, query: str = ALL_REGIONS, **answer) -> None:
    params = {"api-version": "2023-01-01-preview", "meterRegion": "'primary'", "$filter": query}
    http.add(responses.GET, azure.URL, match=[matchers.query_param_matcher(params)], **answer)


def next_page(http: responses.RequestsMock, previous: str, **answer) -> None:
    http.add(responses.GET, page_json("azure", previous)["NextPageLink"], **answer)


def three_pages(http: responses.RequestsMock, page2: dict | None = None) -> None:
    first_page(http, body=page_bytes("azure", "page1.json"))
    next_page(http, "page1.json", **(page2 or {"body": page_bytes("azure", "page2.json")}))
    if page2 is None:
        next_page(http, "page2.json", body=page_bytes("azure", "page3.json"))


def fetch_one_line_error(regions=None) -> str:
    with pytest.raises(FetchError) as error:
        azure.fetch(regions, lambda _: None)
    message = str(error.value)
    assert "\n" not in message
    return message


def test_three_pages_become_offerings_with_hand_checked_prices(http):
    three_pages(http)
    lines: list[str] = []
    by_size = {(o.instance_type, o.region): o for o in azure.fetch(None, lines.append)}
    assert sorted(by_size) == [(NC, "eastus2"), (ND, "eastus2"), (H100, "eastus2")]  # NC8ads_A10_v4: not in catalog
    nd = by_size[(ND, "eastus2")]
    assert nd.on_demand_usd_per_hour == 32.77  # the Linux meter; the Windows one (37.186) is skipped
    assert nd.spot_usd_per_hour == 14.4188  # "ND96amsr A100 v4 Spot"; Low Priority (6.554) is skipped
    assert nd.reserved_1y_usd_per_hour == 20.7  # 181,332 USD per 1-year term / 8,760 h
    assert nd.reserved_3y_usd_per_hour == 13.2  # 346,896 USD per 3-year term / 26,280 h
    assert (nd.zone, nd.source, nd.catalog_date) == ("eastus2", "azure-retail-prices-api", dt.date.today().isoformat())
    nc = by_size[(NC, "eastus2")]
    assert (nc.on_demand_usd_per_hour, nc.spot_usd_per_hour, nc.reserved_1y_usd_per_hour) == (3.673, 0.47749, None)
    h100 = by_size[(H100, "eastus2")]
    # Spot equal to on-demand is no spot price (offline rule); 8 GPUs, not the extract's 12.
    assert (h100.on_demand_usd_per_hour, h100.spot_usd_per_hour, h100.accelerator_count) == (98.32, None, 8)
    assert lines[:3] == ["azure: page 1: 4 items", "azure: page 2: 4 items", "azure: page 3: 3 items"]


def test_hardware_facts_match_the_offline_catalog(http):
    three_pages(http)
    committed = {(o.instance_type, o.region): o for o in load_provider(DATA_DIR / "azure.csv")}
    for offering in azure.fetch(None, lambda _: None):
        row = committed[(offering.instance_type, offering.region)]
        assert [getattr(offering, f) for f in HARDWARE] == [getattr(row, f) for f in HARDWARE]


def test_a_region_list_filters_the_query_and_ignores_other_clients(http):
    first_page(http, query=f"{ALL_REGIONS} and armRegionName eq 'eastus2'", body=page_bytes("azure", "page3.json"))
    offerings = azure.fetch(["eastus2"], lambda _: None, session=object())  # a boto3 session is not ours
    assert [(o.instance_type, o.region) for o in offerings] == [(H100, "eastus2")]


def test_items_with_only_a_location_display_name_are_mapped(http):
    first_page(http, body=page_bytes("azure", "location_only.json"))
    offerings = azure.fetch(None, lambda _: None)
    # "US West 2" -> westus2; "US Gov Virginia" has no mapping and is skipped.
    assert [(o.instance_type, o.region, o.zone, o.on_demand_usd_per_hour) for o in offerings] == [
        (NC, "westus2", "westus2", 3.673)
    ]


@pytest.mark.parametrize(
    ("change", "purchase"),
    [
        pytest.param({}, "on-demand", id="linux-consumption"),
        pytest.param({"productName": "Virtual Machines NDamsr A100 v4 Series Windows"}, None, id="windows"),
        pytest.param({"skuName": "ND96amsr A100 v4 Spot", "meterName": "ND96amsr A100 v4 Spot"}, "spot", id="spot"),
        pytest.param({"meterName": "ND96amsr A100 v4 Low Priority"}, None, id="low-priority"),
        pytest.param({"type": "Reservation", "reservationTerm": "1 Year"}, "1y", id="reservation-1y"),
        pytest.param({"type": "Reservation", "reservationTerm": "3 Years"}, "3y", id="reservation-3y"),
        pytest.param({"type": "Reservation", "reservationTerm": "5 Years"}, None, id="reservation-5y"),
        pytest.param({"type": "DevTestConsumption"}, None, id="devtest"),
        pytest.param({"unitOfMeasure": "1/Month"}, None, id="not-hourly"),
    ],
)
def test_purchase_of_each_meter(change, purchase):
    item = {**page_json("azure", "page1.json")["Items"][0], **change}
    assert azure.purchase_of(item) == purchase


def test_throttling_names_the_page_and_the_wait(http):
    first_page(http, status=429, body="Too Many Requests", headers={"Retry-After": "60"})
    assert fetch_one_line_error() == (
        "Azure Retail Prices API, page 1: throttled (HTTP 429); wait 60 s and run the refresh again"
    )


def test_service_unavailable_on_a_later_page_is_throttling(http):
    three_pages(http, page2={"status": 503, "body": "Service Unavailable"})
    assert fetch_one_line_error() == (
        "Azure Retail Prices API, page 2: throttled (HTTP 503); wait a few minutes and run the refresh again"
    )


def test_a_page_that_breaks_mid_transfer_is_partial(http):
    three_pages(http, page2=cut_short(page_bytes("azure", "page2.json"), 1500))
    assert fetch_one_line_error() == (
        "Azure Retail Prices API, page 2: the answer broke off mid-page (partial page); run the refresh again"
    )


def test_a_page_with_fewer_items_than_its_count_is_partial(http):
    three_pages(http, page2={"body": page_bytes("azure", "page2_partial.json")})
    assert fetch_one_line_error() == (
        "Azure Retail Prices API, page 2: Count says 4 items but 2 arrived (partial page); retry"
    )


def test_malformed_json_is_refused(http):
    first_page(http, body=page_bytes("azure", "page1.json")[:700])  # a whole transfer of a broken body
    assert fetch_one_line_error() == (
        "Azure Retail Prices API, page 1: the answer is not valid JSON (malformed or cut short); run the refresh again"
    )


def test_a_non_numeric_price_is_malformed(http):
    body = page_json("azure", "page3.json")
    body["Items"][1]["unitPrice"] = "98.32"
    first_page(http, json=body)
    assert fetch_one_line_error() == (
        "Azure Retail Prices API: the item for Standard_ND96isr_H100_v5 has no numeric unitPrice (malformed); retry"
    )


def test_an_empty_items_list_is_refused(http):
    first_page(http, query=f"{ALL_REGIONS} and armRegionName eq 'westus9'", body=page_bytes("azure", "empty.json"))
    assert fetch_one_line_error(["westus9"]) == (
        f"Azure Retail Prices API: no items for [{ALL_REGIONS} and armRegionName eq 'westus9'] (empty answer); "
        "check the region names or retry later"
    )


def test_a_display_name_is_not_a_region():
    assert fetch_one_line_error(["East US"]) == "'East US' is not an Azure region name; use ARM names such as eastus2"
