"""Resources that bill by the hour without a recorded price (NAT gateways, public addresses) are
named as unpriced in every cost, from the planned tree (`clouds.helper_vms.unpriced_hourly`)."""

import pytest

from clouds.helper_vms import unpriced_hourly
from clouds.registry import CLOUDS

AWS_TREE = [
    {"type": "aws:ec2/vpc:Vpc", "name": "s-vpc"},
    {"type": "aws:ec2/eip:Eip", "name": "s-nat-ip"},
    {"type": "aws:ec2/natGateway:NatGateway", "name": "s-nat"},
]


def test_aws_names_the_nat_gateway_and_its_address_as_unpriced():
    assert unpriced_hourly("aws", "us-east-1", AWS_TREE) == (
        "NAT gateway s-nat (aws:ec2/natGateway:NatGateway; also billed per GB processed); public IPv4 address s-nat-ip "
        "(aws:ec2/eip:Eip; Elastic IP) bill by the hour and are not in USD/hour or USD/job: "
        "unpriced, no sourced and dated price is recorded; add their us-east-1 price from the cloud's pricing page",
    )


def test_a_tree_without_them_says_nothing():
    assert unpriced_hourly("aws", "us-east-1", AWS_TREE[:1]) == ()
    assert unpriced_hourly("gcp", "us-central1", AWS_TREE) == ()  # another cloud's types are not its own


@pytest.mark.parametrize("provider", ["aws", "azure", "gcp"])
def test_each_listed_type_is_one_its_component_creates(provider):
    """The listed tokens are real: the cloud's component source names each resource class."""
    from pathlib import Path

    source = "".join(p.read_text() for p in (Path(__file__).parents[2] / "components" / provider).glob("*.py"))
    kinds = CLOUDS[provider].hourly_resources
    assert kinds
    for token in kinds:
        assert f".{token.rsplit(':', 1)[1]}(" in source, token
