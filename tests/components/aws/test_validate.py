"""AWS zone checks: the stack's zone is an AZ ID of its region."""

import pytest

from clouds.aws.validate import az_id_prefix, check_zone
from profiles.catalog.loader import load_catalog


def test_the_az_id_rule_holds_for_every_aws_row_in_the_catalog():
    pairs = {(o.region, o.zone) for o in load_catalog(providers=("aws",)).offerings}
    assert len({region for region, _ in pairs}) >= 20
    assert [(r, z) for r, z in pairs if not z.startswith(f"{az_id_prefix(r)}-az")] == []


@pytest.mark.parametrize(
    ("region", "prefix"),
    [
        ("us-east-1", "use1"),
        ("ap-southeast-2", "apse2"),
        ("eu-central-1", "euc1"),
        ("ap-northeast-3", "apne3"),
        ("us-gov-west-1", None),
        ("local", None),
    ],
)
def test_prefix(region, prefix):
    assert az_id_prefix(region) == prefix


@pytest.mark.parametrize(
    ("region", "zone", "message"),
    [
        (
            "us-east-1",
            "us-east-1a",
            "zone: 'us-east-1a' is a zone name; trainstack places nodes by AZ ID, which names "
            "the same zone in every account: write e.g. use1-az1",
        ),
        (
            "ap-southeast-2",
            "use1-az4",
            "zone: 'use1-az4' is not an AZ ID of region ap-southeast-2 (those begin apse2-az); "
            "set zone and region to the same place",
        ),
        ("us-east-2", "use1-az4", "zone: 'use1-az4' is not an AZ ID of region us-east-2 (those begin use2-az)"),
    ],
)
def test_a_zone_of_another_region_or_a_zone_name_is_refused(region, zone, message):
    with pytest.raises(ValueError) as err:
        check_zone(region, zone)
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_matching_and_unchecked_regions_pass():
    check_zone("ap-southeast-2", "apse2-az2")
    check_zone("us-gov-west-1", "usgw1-az1")
