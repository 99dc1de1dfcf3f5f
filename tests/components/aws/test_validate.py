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


@pytest.mark.parametrize(
    ("tags", "pieces", "problem"),
    [
        pytest.param({"team": "ml", "cost-center": "42"}, 3, None, id="fine"),
        pytest.param({"team/ml": "x"}, 1, "key 'team/ml' cannot be on the AWS head node", id="slash"),
        pytest.param({"cost center": "x"}, 1, "key 'cost center'", id="space"),
        pytest.param({f"k{i}": "v" for i in range(40)}, 8, "the head node would carry 51 tags", id="too-many"),
    ],
)
def test_the_head_tags_must_suit_instance_metadata(tags, pieces, problem):
    from clouds.aws.validate import imds_tag_problem

    found = imds_tag_problem(tags, pieces)
    assert (found is None) if problem is None else (problem in found)
