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
            {"providers": ["gcp"]},
            "accelerators: the catalog has no 'A100' on gcp; did you mean H100, A100-80GB?",
            id="accelerator-of-another-cloud",
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


def test_file_system_rejections_use_the_workload_s_keys(real_catalog):
    """The cloud rules speak the stack's keys (throughput_mbps_per_tib); a workload says throughput."""
    spec = parse_spec(
        {"accelerators": "A10:1", "hours": "1h", "file_system": {"capacity": "4800GiB", "throughput": 250}}
    )
    count, detail = resolve(spec, real_catalog.offerings).rejected["file_system"]
    assert count > 0 and detail.startswith("alicloud: file_system.throughput: 250 has no CPFS storage type; valid")
    assert "throughput_mbps_per_tib" not in detail


def test_a_created_file_system_names_each_word_once():
    from clouds.contract import FileSystemConfig
    from clouds.filesystems import created_file_system

    made = created_file_system("alicloud", FileSystemConfig(capacity_gib=4800, throughput_mbps_per_tib=100))
    assert made is not None and made.service == "CPFS advance_100"  # was "CPFS cpfs cpfs advance_100"
