"""The AWS fetcher: EC2 from moto, Price List answers recorded, every bad answer one line."""

import json

import boto3
import pytest

from profiles.catalog.fetchers import FetchError
from profiles.catalog.fetchers.aws import fetch, resolve_regions
from profiles.catalog.fetchers.aws_ec2 import instance_types, latest_spot, network_gbps, offered_zones, parse_type
from profiles.catalog.fetchers.aws_pricing import fetch_prices, parse_price_item
from tests.aws_live import (
    FIXTURES,
    P4D_ANSWER,
    P4D_USE1,
    P4D_USW2,
    credentials,
    p4d_pages,
    pricing_answering,
    stubbed,
)

TODAY = "2026-12-01"


def _fetch(session, pricing, regions=("us-east-1", "us-west-2"), families=("p4d",), progress=None):
    return fetch(
        list(regions), progress or (lambda _: None), session=session, pricing=pricing, families=families, today=TODAY
    )


def test_p4d_rows_per_zone_id_with_list_and_spot_prices(moto_session):
    messages = []
    rows = _fetch(moto_session, pricing_answering(*p4d_pages()), progress=messages.append)
    ec2 = moto_session.client("ec2", region_name="us-east-1")
    offered = {
        o["Location"]
        for o in ec2.describe_instance_type_offerings(
            LocationType="availability-zone-id", Filters=[{"Name": "instance-type", "Values": ["p4d.24xlarge"]}]
        )["InstanceTypeOfferings"]
    }
    east = [r for r in rows if r.region == "us-east-1"]
    assert {r.zone for r in east} == offered  # AZ IDs, as the catalog keys zones
    assert {r.on_demand_usd_per_hour for r in east} == {P4D_USE1}
    assert {r.on_demand_usd_per_hour for r in rows if r.region == "us-west-2"} == {P4D_USW2}
    row = east[0]
    assert (row.accelerator, row.accelerator_count, row.accelerator_memory_gib) == ("A100", 8, 40)
    assert (row.interconnect, row.max_efa_interfaces, row.network_gbps) == ("efa", 4, 400.0)
    assert (row.vcpus, row.memory_gib, row.form_factor) == (96.0, 1152.0, "SXM")
    assert row.spot_usd_per_hour > 0  # moto's spot history (a placeholder price, but real shape)
    assert (row.catalog_date, row.source) == (TODAY, "aws-pricing-api")
    assert row.reserved_1y_usd_per_hour is None  # the recorded products carry no Reserved terms
    assert "aws pricing: p4d.24xlarge" in messages and "aws us-west-2: spot prices" in messages
    assert rows == sorted(rows, key=lambda o: (o.instance_type, o.region, o.zone))


def test_reserved_terms_read_standard_no_upfront_only():
    item = (FIXTURES / "aws" / "m7i_flex_windows_reserved.price_list_item.json").read_text()
    instance_type, _, prices = parse_price_item(item)
    # 12 terms: convertible (0.15775 / 0.13596), partial (0.07386...) and all-upfront (0.0) are skipped.
    assert instance_type == "m7i-flex.large"
    assert prices == (0.18316, 0.15074, 0.13084)


def test_zero_hourly_rate_is_no_price_never_free():
    item = (FIXTURES / "aws" / "p5_capacity_block.price_list_item.json").read_text()
    assert parse_price_item(item) == ("p5.48xlarge", "us-east-1", (None, None, None))


def test_accelerator_names_from_real_instance_type_data(moto_session):
    ec2 = moto_session.client("ec2", region_name="us-east-1")
    entries = ec2.describe_instance_types(
        InstanceTypes=["p4de.24xlarge", "p3dn.24xlarge", "trn1.32xlarge", "p5.48xlarge"]
    )["InstanceTypes"]
    found = {
        t.instance_type: (t.accelerator, t.accelerator_count, t.max_efa_interfaces) for t in map(parse_type, entries)
    }
    assert found == {
        "p4de.24xlarge": ("A100-80GB", 8, 4),
        "p3dn.24xlarge": ("V100-32GB", 8, 1),
        "trn1.32xlarge": ("Trainium", 16, 8),
        "p5.48xlarge": ("H100", 8, 32),
    }


@pytest.mark.parametrize(
    "text, gbps",
    [
        pytest.param("4x 100 Gigabit", 400.0, id="cards"),
        pytest.param("3200 Gigabit", 3200.0, id="plain"),
        pytest.param("Up to 12.5 Gigabit", 12.5, id="up-to"),
        pytest.param("Moderate", None, id="words"),
    ],
)
def test_network_performance_strings(text, gbps):
    assert network_gbps(text) == gbps


def test_ec2_pages_are_all_read(moto_session):
    """moto ignores MaxResults, so its real entries are served as two Stubber pages."""
    real = moto_session.client("ec2", region_name="us-east-1").describe_instance_types(
        InstanceTypes=["p4d.24xlarge", "p5.48xlarge"]
    )["InstanceTypes"]
    ec2, stub = stubbed("ec2")
    stub.add_response("describe_instance_types", {"InstanceTypes": real[:1], "NextToken": "t2"})
    stub.add_response(
        "describe_instance_types",
        {"InstanceTypes": real[1:]},
        {"Filters": [{"Name": "instance-type", "Values": ["p4d.*", "p5.*"]}], "NextToken": "t2"},
    )
    assert sorted(instance_types(ec2, "us-east-1", ("p4d", "p5"))) == ["p4d.24xlarge", "p5.48xlarge"]
    stub.assert_no_pending_responses()


def test_offerings_and_latest_spot_per_zone_across_pages():
    ec2, stub = stubbed("ec2")
    offer = {"InstanceType": "p4d.24xlarge", "LocationType": "availability-zone-id"}
    stub.add_response(
        "describe_instance_type_offerings",
        {"InstanceTypeOfferings": [{**offer, "Location": "use1-az4"}], "NextToken": "n"},
    )
    stub.add_response(
        "describe_instance_type_offerings", {"InstanceTypeOfferings": [{**offer, "Location": "use1-az1"}]}
    )
    assert offered_zones(ec2, "us-east-1", ["p4d.24xlarge"]) == {"p4d.24xlarge": ["use1-az1", "use1-az4"]}
    import datetime as dt

    old, new = dt.datetime(2026, 11, 1, tzinfo=dt.timezone.utc), dt.datetime(2026, 12, 1, tzinfo=dt.timezone.utc)
    spot = {"InstanceType": "p4d.24xlarge", "ProductDescription": "Linux/UNIX", "AvailabilityZone": "us-east-1a"}
    stub.add_response(
        "describe_spot_price_history",
        {"SpotPriceHistory": [{**spot, "SpotPrice": "9.9", "Timestamp": old}], "NextToken": "n"},
    )
    stub.add_response(
        "describe_spot_price_history",
        {
            "SpotPriceHistory": [
                {**spot, "SpotPrice": "8.5", "Timestamp": new},
                {**spot, "ProductDescription": "Windows", "SpotPrice": "1.0", "Timestamp": new},
            ]
        },
    )
    assert latest_spot(ec2, "us-east-1", ["p4d.24xlarge"], {"us-east-1a": "use1-az4"}) == {
        ("p4d.24xlarge", "use1-az4"): 8.5
    }


def test_pricing_pages_are_all_read(moto_session):
    rows = _fetch(moto_session, pricing_answering(*p4d_pages()))
    assert {r.region for r in rows} == {"us-east-1", "us-west-2"}  # page 1 and page 2


def _page_error(code, message="Rate exceeded"):
    pricing, stub = stubbed("pricing")
    stub.add_response("get_products", p4d_pages()[0])
    stub.add_client_error("get_products", service_error_code=code, service_message=message, http_status_code=400)
    return pricing


@pytest.mark.parametrize(
    "pricing, message",
    [
        pytest.param(
            lambda: _page_error("ThrottlingException"), "AWS throttled pricing:GetProducts", id="throttled-mid-pages"
        ),
        pytest.param(lambda: _page_error("AccessDeniedException", "no"), "AWS denied pricing:GetProducts", id="denied"),
        pytest.param(
            lambda: pricing_answering({"FormatVersion": "aws_v1", "PriceList": ["{not json"]}),
            "malformed PriceList",
            id="not-json",
        ),
        pytest.param(
            lambda: pricing_answering({"FormatVersion": "aws_v1", "PriceList": [json.dumps({"product": {}})]}),
            "malformed PriceList",
            id="no-terms",
        ),
        pytest.param(
            lambda: pricing_answering({"FormatVersion": "aws_v1", "PriceList": []}), "no Linux prices", id="empty"
        ),
        pytest.param(
            lambda: pricing_answering({"FormatVersion": "aws_v1"}), "has no PriceList", id="page-without-list"
        ),
        pytest.param(
            lambda: pricing_answering({"PriceList": [], "NextToken": "x"}, {"PriceList": [], "NextToken": "x"}),
            "inconsistent pages",
            id="repeated-next-token",
        ),
    ],
)
def test_bad_pricing_answers_are_one_line_fetch_errors(pricing, message):
    """The Price List stage, where each of these is raised (`fetch` calls it once the EC2 stages
    are done: the test below shows one such error ending a whole fetch)."""
    with pytest.raises(FetchError, match=message) as caught:
        fetch_prices(pricing(), ["p4d.24xlarge"], lambda _: None)
    assert "\n" not in str(caught.value)


def test_a_bad_pricing_answer_ends_the_whole_fetch(moto_session):
    with pytest.raises(FetchError, match="AWS throttled pricing:GetProducts") as caught:
        _fetch(moto_session, _page_error("ThrottlingException"))
    assert "\n" not in str(caught.value)


def test_ec2_throttled_after_a_first_page():
    ec2, stub = stubbed("ec2")
    stub.add_response("describe_instance_types", {"InstanceTypes": [], "NextToken": "t2"})
    stub.add_client_error("describe_instance_types", service_error_code="RequestLimitExceeded", http_status_code=503)
    with pytest.raises(
        FetchError, match=r"AWS throttled ec2:DescribeInstanceTypes in us-east-1 \(RequestLimitExceeded\)"
    ):
        instance_types(ec2, "us-east-1", ("p4d",))


def test_malformed_instance_type_entry():
    ec2, stub = stubbed("ec2")
    stub.add_response(
        "describe_instance_types",
        {"InstanceTypes": [{"InstanceType": "p4d.24xlarge", "GpuInfo": {"Gpus": [{"Name": "A100"}]}}]},
    )
    with pytest.raises(FetchError, match="malformed entry"):
        instance_types(ec2, "us-east-1", ("p4d",))


def test_unknown_region_suggests_the_nearest(moto_session):
    with pytest.raises(
        FetchError, match=r"--regions: unknown AWS region 'us-east-9'; did you mean us-east-2, us-east-1"
    ):
        _fetch(moto_session, pricing_answering(), regions=("us-east-9",))


def test_without_regions_every_enabled_region_is_fetched(moto_session):
    regions = resolve_regions(moto_session, None)
    assert {"us-east-1", "ap-southeast-2"} <= set(regions) and regions == sorted(regions)


def test_malformed_spot_price():
    ec2, stub = stubbed("ec2")
    stub.add_response(
        "describe_spot_price_history",
        {
            "SpotPriceHistory": [
                {
                    "InstanceType": "p4d.24xlarge",
                    "ProductDescription": "Linux/UNIX",
                    "AvailabilityZone": "us-east-1a",
                    "SpotPrice": "n/a",
                }
            ]
        },
    )
    with pytest.raises(FetchError, match="malformed price for p4d.24xlarge"):
        latest_spot(ec2, "us-east-1", ["p4d.24xlarge"], {"us-east-1a": "use1-az4"})


def test_families_with_no_types_in_the_region(moto_session):
    with pytest.raises(FetchError, match="no instance types of families zz9"):
        _fetch(moto_session, pricing_answering(), families=("zz9",))


def test_missing_credentials(monkeypatch):
    credentials(monkeypatch, present=False)
    with pytest.raises(FetchError, match=r"AWS credentials not found .*aws configure"):
        fetch(["us-east-1"], lambda _: None, session=boto3.Session(region_name="us-east-1"))


def test_recorded_answer_is_what_aws_sends():
    """The fixture is a GetProducts answer: FormatVersion aws_v1 and JSON-text PriceList items."""
    assert P4D_ANSWER["FormatVersion"] == "aws_v1"
    regions = {json.loads(i)["product"]["attributes"]["regionCode"] for i in P4D_ANSWER["PriceList"]}
    assert regions == {"us-east-1", "us-west-2", "eu-west-1"}
