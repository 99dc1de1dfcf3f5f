"""Catalog names in a workload (regions, reservations, accelerators) are named when unknown."""

import pytest

from profiles.explain import NoMatchError
from profiles.resolver import resolve
from profiles.spec import parse_spec

RESERVATION = {"provider": "aws", "instance_type": "p4d.24xlarge", "zone": "use1-az1", "nodes": 2, "usd_per_hour": 0}


def refused(fixture_catalog, **spec) -> str:
    with pytest.raises(NoMatchError) as caught:
        resolve(parse_spec({"accelerators": "A100:8", "hours": 1, **spec}), fixture_catalog.offerings)
    return str(caught.value)


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        pytest.param(
            {"regions": ["us-east-9"], "providers": ["aws"]},
            "regions: 'us-east-9' is not an aws region the catalog knows; did you mean us-east-1, us-west-2?",
            id="typo-one-cloud",
        ),
        pytest.param(
            {"regions": ["us-centrall"]},
            "regions: 'us-centrall' is not a region the catalog knows; did you mean us-central1?",
            id="typo-all-clouds",
        ),
        pytest.param(
            {"regions": ["us-east-1", "us-wset-2"]},
            "regions: 'us-wset-2' is not a region the catalog knows; did you mean us-west-2",
            id="one-good-one-typo",
        ),
        pytest.param(
            {"regions": ["atlantis"], "providers": ["gcp"], "accelerators": "H100:8"},
            "regions: 'atlantis' is not a gcp region the catalog knows; valid: us-central1",
            id="nothing-close-lists-valid",
        ),
        pytest.param(
            {"regions": ["use1-az1"]},
            "regions: 'use1-az1' is a zone of us-east-1, and `regions` takes region names; write us-east-1",
            id="zone-for-region",
        ),
        pytest.param(
            {"regions": ["us-central1"], "providers": ["aws"]},
            "regions: 'us-central1' is a gcp region, and `providers` allows only aws; add gcp to `providers`",
            id="another-clouds-region",
        ),
        pytest.param(
            {"reservations": [{**RESERVATION, "instance_type": "p4d.24xlarg", "id": "cr-1"}]},
            "reservations.0.instance_type: 'p4d.24xlarg' is not an aws instance type the catalog knows; "
            "did you mean p4d.24xlarge",
            id="reservation-type-typo",
        ),
        pytest.param(
            {"reservations": [{**RESERVATION, "zone": "use1-az9", "id": "cr-1"}]},
            "reservations.0.zone: 'use1-az9' is not an aws zone the catalog knows; did you mean use1-az3, use1-az2, use1-az1?",
            id="reservation-zone-typo",
        ),
        pytest.param(
            {"reservations": [RESERVATION | {"id": "cr-0"}, {**RESERVATION, "zone": "use1-az3", "id": "cr-1"}]},
            "reservations.1.zone: the catalog lists no p4d.24xlarge in use1-az3, so the reservation could not "
            "be priced; zones listing it: use1-az2, use1-az1 (or refresh the catalog",
            id="reservation-type-not-in-zone",
        ),
    ],
)
def test_unknown_names_are_named_with_valid_ones(fixture_catalog, spec, expected):
    assert refused(fixture_catalog, **spec).startswith(expected)


def test_regions_are_read_in_any_case(fixture_catalog):
    spec = parse_spec({"accelerators": "A100:8", "hours": 1, "regions": [" US-East-1 "]})
    assert spec.regions == ("us-east-1",)
    assert resolve(spec, fixture_catalog.offerings).choice.candidate.offering.region == "us-east-1"


def test_a_known_reservation_is_used(fixture_catalog):
    spec = parse_spec({"accelerators": "A100:8", "hours": 1, "reservations": [RESERVATION | {"id": "cr-0"}]})
    choice = resolve(spec, fixture_catalog.offerings).choice.candidate
    assert (choice.offering.zone, choice.usd_per_hour) == ("use1-az1", 0.0)
